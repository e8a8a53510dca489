// clr/monitor.h - the command layer's lock: ROCclr's amd::Monitor role.
//
// A launch takes the stream's lock and the signal pool's; uncontended, std::mutex costs a
// call into pthread each way. Monitor takes one atomic instruction to lock and one to
// unlock while free, and sleeps in the kernel (std::atomic::wait, a futex) only when
// contended: state 0 free, 1 held, 2 held with sleepers (the unlock then wakes one).
// Meets Lockable, so std::lock_guard and std::unique_lock take it.
#pragma once

#include <atomic>

#include "clr/clr_mutant.h"

namespace rocref::clr {

class Monitor {
 public:
  Monitor() = default;
  Monitor(const Monitor&) = delete;
  Monitor& operator=(const Monitor&) = delete;

  void lock() noexcept {
    int expected = 0;
    if (state_.compare_exchange_strong(expected, 1, std::memory_order_acquire, std::memory_order_relaxed)) return;
    // ClrMutant::MonitorExcludesNobody: a held monitor is entered anyway.
    if (clr_mutant_active(ClrMutant::MonitorExcludesNobody)) return;
    // Contended: mark sleepers, then sleep until the holder's unlock wakes one.
    while (state_.exchange(2, std::memory_order_acquire) != 0) state_.wait(2, std::memory_order_relaxed);
  }
  bool try_lock() noexcept {
    int expected = 0;
    return state_.compare_exchange_strong(expected, 1, std::memory_order_acquire, std::memory_order_relaxed);
  }
  void unlock() noexcept {
    if (state_.exchange(0, std::memory_order_release) == 2) state_.notify_one();
  }

 private:
  std::atomic<int> state_{0};
};

}  // namespace rocref::clr
