// gpu/work_group_fibers.cpp - fibers for the work-items of a work-group.
#include "gpu/work_group_fibers.h"

#include <sys/mman.h>
#include <unistd.h>

#include <cstdlib>
#include <exception>
#include <new>
#include <stdexcept>

#include "gpu/fiber_switch.h"

#if defined(__SANITIZE_ADDRESS__)
#define ROCREF_ASAN_FIBERS 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define ROCREF_ASAN_FIBERS 1
#endif
#endif
#if defined(__SANITIZE_THREAD__)
#define ROCREF_TSAN_FIBERS 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define ROCREF_TSAN_FIBERS 1
#endif
#endif

#ifdef ROCREF_ASAN_FIBERS
#include <sanitizer/asan_interface.h>
#include <sanitizer/common_interface_defs.h>
#endif
#ifdef ROCREF_TSAN_FIBERS
#include <sanitizer/tsan_interface.h>
#endif

namespace rocref::gpu {

struct WorkGroupFibers::Fiber {
  FiberContext context;
  void* mapping = nullptr;  // guard page + stack
  size_t mapping_bytes = 0;
  void* stack = nullptr;
  size_t stack_bytes = 0;
  void* fake_stack = nullptr;  // ASan's fake stack while suspended
  void* tsan_fiber = nullptr;
  bool started = false;        // its trampoline runs (or waits for the next work-item)
};

namespace {

// The runner whose fibers execute on this thread; the trampoline and the
// barrier hook are plain functions (fiber entry and kernel_abi take no closure).
thread_local WorkGroupFibers* t_active = nullptr;

void no_barrier() {}

}  // namespace

size_t WorkGroupFibers::default_stack_bytes() noexcept {
#if defined(ROCREF_ASAN_FIBERS) || defined(ROCREF_TSAN_FIBERS)
  return size_t{1} << 20;  // sanitizer frames are several times larger
#else
  return size_t{256} << 10;
#endif
}

WorkGroupFibers::WorkGroupFibers(size_t stack_bytes) : stack_bytes_(stack_bytes) {
  const size_t page = static_cast<size_t>(sysconf(_SC_PAGESIZE));
  stack_bytes_ = (stack_bytes_ + page - 1) / page * page;
  if (stack_bytes_ < 4 * page) stack_bytes_ = 4 * page;
  scheduler_context_ = new FiberContext{};
}

WorkGroupFibers::~WorkGroupFibers() {
  for (Fiber* f : fibers_) {
#ifdef ROCREF_TSAN_FIBERS
    if (f->tsan_fiber != nullptr) __tsan_destroy_fiber(f->tsan_fiber);
#endif
#ifdef ROCREF_ASAN_FIBERS
    // The fiber is dropped while suspended: clear its frames' redzones before
    // the addresses can be mapped again for something else.
    __asan_unpoison_memory_region(f->stack, f->stack_bytes);
#endif
    munmap(f->mapping, f->mapping_bytes);
    delete f;
  }
  delete static_cast<FiberContext*>(scheduler_context_);
}

uint32_t WorkGroupFibers::acquire_fiber() {
  if (!free_fibers_.empty()) {
    const uint32_t index = free_fibers_.back();
    free_fibers_.pop_back();
    return index;
  }
  const size_t page = static_cast<size_t>(sysconf(_SC_PAGESIZE));
  auto* f = new Fiber;
  f->mapping_bytes = stack_bytes_ + page;
  // NORESERVE: a thousand mostly untouched stacks cost address space, not memory.
  f->mapping = mmap(nullptr, f->mapping_bytes, PROT_READ | PROT_WRITE,
                    MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_STACK, -1, 0);
  if (f->mapping == MAP_FAILED) {
    delete f;
    throw std::bad_alloc();
  }
  mprotect(f->mapping, page, PROT_NONE);  // overflow faults instead of corrupting a neighbour
  f->stack = static_cast<char*>(f->mapping) + page;
  f->stack_bytes = stack_bytes_;
  fibers_.push_back(f);
  return static_cast<uint32_t>(fibers_.size() - 1);
}

void WorkGroupFibers::start(uint32_t item) {
  const uint32_t index = acquire_fiber();
  Fiber& f = *fibers_[index];
  if (!f.started) {
    // Once per stack: its trampoline then runs work-item after work-item.
    f.started = true;
    fiber_prepare(f.context, f.stack, f.stack_bytes, &WorkGroupFibers::trampoline);
#ifdef ROCREF_TSAN_FIBERS
    f.tsan_fiber = __tsan_create_fiber(0);
#endif
  }
  item_fiber_[item] = index;
  item_state_[item] = ItemState::Runnable;
}

void WorkGroupFibers::resume(uint32_t index) {
  Fiber& f = *fibers_[index];
  ++switches_;
  auto* scheduler = static_cast<FiberContext*>(scheduler_context_);
#ifdef ROCREF_ASAN_FIBERS
  __sanitizer_start_switch_fiber(&scheduler_fake_stack_, f.stack, f.stack_bytes);
#endif
#ifdef ROCREF_TSAN_FIBERS
  __tsan_switch_to_fiber(f.tsan_fiber, 0);
#endif
  fiber_switch(*scheduler, f.context);
#ifdef ROCREF_ASAN_FIBERS
  __sanitizer_finish_switch_fiber(scheduler_fake_stack_, nullptr, nullptr);
#endif
}

void WorkGroupFibers::yield_to_scheduler() {
  Fiber& f = *fibers_[item_fiber_[running_item_]];
  auto* scheduler = static_cast<FiberContext*>(scheduler_context_);
#ifdef ROCREF_ASAN_FIBERS
  __sanitizer_start_switch_fiber(&f.fake_stack, scheduler_stack_bottom_, scheduler_stack_size_);
#endif
#ifdef ROCREF_TSAN_FIBERS
  __tsan_switch_to_fiber(scheduler_tsan_fiber_, 0);
#endif
  fiber_switch(f.context, *scheduler);
#ifdef ROCREF_ASAN_FIBERS
  __sanitizer_finish_switch_fiber(f.fake_stack, &scheduler_stack_bottom_, &scheduler_stack_size_);
#endif
}

void WorkGroupFibers::trampoline() {
  // A fiber belongs to one runner for its whole life.
  WorkGroupFibers* self = t_active;
#ifdef ROCREF_ASAN_FIBERS
  __sanitizer_finish_switch_fiber(nullptr, &self->scheduler_stack_bottom_, &self->scheduler_stack_size_);
#endif
  // Never returns (it has no caller): after each work-item it waits for the next,
  // so its frames stay balanced for the sanitizers' shadow stacks.
  for (;;) {
    try {
      self->entry_(self->kernarg_);
    } catch (const std::exception& e) {
      if (!self->failure_) self->failure_ = std::string("work-item threw: ") + e.what();
    } catch (...) {
      if (!self->failure_) self->failure_ = "work-item threw a non-standard exception";
    }
    self->item_state_[self->running_item_] = ItemState::Done;
    --self->live_;
    self->yield_to_scheduler();
  }
}

void WorkGroupFibers::barrier_hook() {
  WorkGroupFibers* self = t_active;
  if (self == nullptr) throw std::logic_error("work-group barrier outside a work-group");
  self->item_state_[self->running_item_] = ItemState::Waiting;
  self->yield_to_scheduler();
}

std::optional<std::string> WorkGroupFibers::run(kernel_abi::KernelEntry entry, const void* kernarg,
                                                std::span<const kernel_abi::WorkItemContext> items) {
  if (items.empty()) return std::nullopt;
  if (items.size() == 1) {
    // One work-item: every barrier is already reached by all; no fiber needed.
    kernel_abi::set_barrier_hook(&no_barrier);
    kernel_abi::set_current(&items[0]);
    std::optional<std::string> failure;
    try {
      entry(kernarg);
    } catch (const std::exception& e) {
      failure = std::string("work-item threw: ") + e.what();
    } catch (...) {
      failure = "work-item threw a non-standard exception";
    }
    kernel_abi::set_current(nullptr);
    kernel_abi::set_barrier_hook(nullptr);
    return failure;
  }
  const auto count = static_cast<uint32_t>(items.size());
  WorkGroupFibers* previous = t_active;
  t_active = this;
  entry_ = entry;
  kernarg_ = kernarg;
  item_state_.assign(count, ItemState::NotStarted);
  item_fiber_.assign(count, 0);
  live_ = count;
  failure_.reset();
#ifdef ROCREF_TSAN_FIBERS
  scheduler_tsan_fiber_ = __tsan_get_current_fiber();
#endif
  kernel_abi::set_barrier_hook(&WorkGroupFibers::barrier_hook);
  while (live_ > 0) {
    // Every runnable work-item runs until it finishes or reaches the barrier...
    for (uint32_t i = 0; i < count; ++i) {
      if (item_state_[i] == ItemState::NotStarted) start(i);
      if (item_state_[i] != ItemState::Runnable) continue;
      running_item_ = i;
      kernel_abi::set_current(&items[i]);
      resume(item_fiber_[i]);
      if (item_state_[i] == ItemState::Done) free_fibers_.push_back(item_fiber_[i]);
    }
    // ...so after a pass every live work-item waits at it: release them all.
    for (ItemState& s : item_state_) {
      if (s == ItemState::Waiting) s = ItemState::Runnable;
    }
  }
  kernel_abi::set_current(nullptr);
  kernel_abi::set_barrier_hook(nullptr);
  t_active = previous;
  return failure_;
}

}  // namespace rocref::gpu
