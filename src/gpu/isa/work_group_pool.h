// gpu/isa/work_group_pool.h - host threads that run a launch's work-groups side by side.
//
// How many host threads interpret a dispatch is a choice of the run, never part of the
// modelled machine (src/gpu/README.md, "Work-groups on several host threads"): the result of
// a race-free kernel is the same memory image for 1 and N workers (ISA-PAR-1). Work-groups
// are claimed in launch order from one counter; a work-group that fails stops the claiming of
// the groups after it, so every group before the first failing one runs, whatever N.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <optional>

namespace rocref::gpu::isa {

// The launch's work-groups as the workers claim them.
class GroupClaims {
 public:
  explicit GroupClaims(uint64_t groups) : groups_(groups), stop_(groups) {}
  // The next unclaimed group in launch order, or nullopt when none is left before the first failure.
  std::optional<uint64_t> next() noexcept {
    const uint64_t g = next_.fetch_add(1, std::memory_order_relaxed);
    if (g >= groups_ || g >= stop_.load(std::memory_order_relaxed)) return std::nullopt;
    return g;
  }
  // Group g failed: no group after it is claimed from now on.
  void failed(uint64_t g) noexcept {
    uint64_t seen = stop_.load(std::memory_order_relaxed);
    while (g < seen && !stop_.compare_exchange_weak(seen, g, std::memory_order_relaxed)) {
    }
  }
  // The first failed group so far (groups() when none).
  uint64_t first_failed() const noexcept { return stop_.load(std::memory_order_relaxed); }
  uint64_t groups() const noexcept { return groups_; }

 private:
  const uint64_t groups_;
  std::atomic<uint64_t> next_{0};
  std::atomic<uint64_t> stop_;
};

class WorkGroupPool {
 public:
  // body(worker, claims) on `workers` threads at once (the calling thread is worker 0), each
  // claiming groups until none is left; returns when every body returned. One launch uses the
  // pool at a time: a second caller meanwhile runs its body on its own thread alone.
  void run(unsigned workers, GroupClaims& claims, const std::function<void(unsigned, GroupClaims&)>& body);

  // ROCREF_GPU_WORKERS (1..256) when set, else the CPUs this process may run on.
  static unsigned configured_workers() noexcept;
  static WorkGroupPool& global();

  WorkGroupPool() = default;
  WorkGroupPool(const WorkGroupPool&) = delete;
  WorkGroupPool& operator=(const WorkGroupPool&) = delete;

 private:
  struct State;
  State* state();
  State* state_ = nullptr;
};

}  // namespace rocref::gpu::isa
