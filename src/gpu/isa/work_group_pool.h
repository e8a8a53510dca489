// gpu/isa/work_group_pool.h - host threads that run a launch's work-groups side by side.
//
// How many host threads interpret a dispatch is a choice of the run, never part of the
// modelled machine (src/gpu/README.md, "Work-groups on several host threads"): the result of
// a race-free kernel is the same memory image for 1 and N workers (ISA-PAR-1). Work-groups
// are claimed in launch order from one counter; a body that fails at group g stops the
// claiming of groups past g, so every group before the first failing one runs, whatever N.
#pragma once

#include <cstdint>
#include <functional>

namespace rocref::gpu::isa {

class WorkGroupPool {
 public:
  // body(worker, group) for every group in [0, groups) until one returns false; worker is in
  // [0, workers), the calling thread being worker 0. Returns the first group (in launch order)
  // whose body returned false, or `groups` when none did. One launch uses the pool at a time:
  // a second caller meanwhile runs its groups on its own thread.
  uint64_t run(unsigned workers, uint64_t groups, const std::function<bool(unsigned, uint64_t)>& body);

  // ROCREF_GPU_WORKERS (1..256) when set, else the CPUs this process may run on.
  static unsigned configured_workers() noexcept;
  static WorkGroupPool& global();

  WorkGroupPool() = default;
  ~WorkGroupPool();
  WorkGroupPool(const WorkGroupPool&) = delete;
  WorkGroupPool& operator=(const WorkGroupPool&) = delete;

 private:
  struct State;
  State* state();
  State* state_ = nullptr;
};

}  // namespace rocref::gpu::isa
