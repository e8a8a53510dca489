// gpu/work_group_fibers.h - runs the work-items of one work-group as fibers.
//
// Each work-item runs on a fiber with its own stack (gpu/fiber_switch.h), so a
// kernel's work_group_barrier() (__syncthreads) suspends the work-item and lets
// the others run until every live work-item has reached the barrier, as the
// hardware barrier does (finished work-items no longer count). A finished
// work-item's fiber and stack serve the next one, so a kernel without barriers
// runs on one warm stack; stacks are kept from dispatch to dispatch. Built with ASan or TSan, every switch is
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
  enum class ItemState : uint8_t { NotStarted, Runnable, Waiting, Done };
  uint32_t acquire_fiber();
  void start(uint32_t item);
  void resume(uint32_t fiber);
  void yield_to_scheduler();
  static void trampoline();
  static void barrier_hook();

  size_t stack_bytes_;
  std::vector<Fiber*> fibers_;
  std::vector<uint32_t> free_fibers_;  // a finished work-item's fiber serves the next one
  void* scheduler_context_ = nullptr;  // FiberContext of the thread that calls run()
  // Per run:
  kernel_abi::KernelEntry entry_ = nullptr;
  const void* kernarg_ = nullptr;
  std::vector<ItemState> item_state_;
  std::vector<uint32_t> item_fiber_;
  uint32_t running_item_ = 0;
  uint32_t live_ = 0;
  std::optional<std::string> failure_;
  uint64_t switches_ = 0;
  // Sanitizer bookkeeping of the scheduler's own stack.
  void* scheduler_fake_stack_ = nullptr;
  const void* scheduler_stack_bottom_ = nullptr;
  size_t scheduler_stack_size_ = 0;
  void* scheduler_tsan_fiber_ = nullptr;
};

}  // namespace rocref::gpu
