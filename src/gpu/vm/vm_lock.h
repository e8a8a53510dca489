// gpu/vm/vm_lock.h - the lock a GpuVm takes for each translation: test-and-set, then yield.
//
// A TLB hit is a few dozen instructions; std::mutex's out-of-line lock and unlock cost
// more than that. The KFD's map and unmap hold the lock longer (page-table pages are
// allocated), so a waiter spins briefly, then yields the core (common/backoff.h).
// The acquire exchange and the release store order the critical sections, for the
// hardware and for ThreadSanitizer alike. Meets BasicLockable (std::lock_guard).
#pragma once

#include <atomic>

#include "common/backoff.h"

namespace rocref::gpu::vm {

class VmLock {
 public:
  void lock() noexcept {
    if (held_.exchange(true, std::memory_order_acquire)) wait();
  }
  void unlock() noexcept { held_.store(false, std::memory_order_release); }

 private:
  // Out of line: the uncontended path then needs no saved registers in its caller.
  [[gnu::noinline]] void wait() noexcept {
    Backoff backoff;
    do {
      while (held_.load(std::memory_order_relaxed)) backoff.pause();
    } while (held_.exchange(true, std::memory_order_acquire));
  }

  std::atomic<bool> held_{false};
};

}  // namespace rocref::gpu::vm
