// gpu/work_group_fibers.h - runs the work-items of one work-group as fibers.
//
// Each work-item gets its own ucontext fiber and stack, so a kernel's
// work_group_barrier() (__syncthreads) suspends the work-item and lets the
// others run until every live work-item has reached the barrier, as the
// hardware barrier does (finished work-items no longer count). Stacks are
// reused from dispatch to dispatch. Built with ASan or TSan, every switch is
// announced to the sanitizer so its stack and happens-before tracking follow
// the fibers.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "common/kernel_abi.h"

namespace rocref::gpu {

class WorkGroupFibers {
 public:
  explicit WorkGroupFibers(size_t stack_bytes = default_stack_bytes());
  ~WorkGroupFibers();
  WorkGroupFibers(const WorkGroupFibers&) = delete;
  WorkGroupFibers& operator=(const WorkGroupFibers&) = delete;

  // Runs entry(kernarg) once per element of `items`, with kernel_abi::current()
  // set to that element whenever its fiber runs. Returns the first failure (a
  // work-item that threw); the other work-items still run to their end.
  std::optional<std::string> run(kernel_abi::KernelEntry entry, const void* kernarg,
                                 std::span<const kernel_abi::WorkItemContext> items);

  static size_t default_stack_bytes() noexcept;
  uint64_t switches() const noexcept { return switches_; }

 private:
  struct Fiber;
  void prepare(uint32_t count);
  void resume(uint32_t index);
  void yield_to_scheduler(bool finished);
  static void trampoline();
  static void barrier_hook();

  size_t stack_bytes_;
  std::vector<Fiber*> fibers_;
  void* scheduler_context_ = nullptr;  // ucontext_t of the thread that calls run()
  // Per run:
  kernel_abi::KernelEntry entry_ = nullptr;
  const void* kernarg_ = nullptr;
  uint32_t live_ = 0;
  uint32_t arrived_ = 0;
  uint32_t running_ = 0;
  std::optional<std::string> failure_;
  uint64_t switches_ = 0;
  // Sanitizer bookkeeping of the scheduler's own stack.
  void* scheduler_fake_stack_ = nullptr;
  const void* scheduler_stack_bottom_ = nullptr;
  size_t scheduler_stack_size_ = 0;
  void* scheduler_tsan_fiber_ = nullptr;
};

}  // namespace rocref::gpu
