// common/futex_lock.h - a lock of one atomic word: one atomic instruction to take it and one
// to release it while free; a futex sleep (std::atomic::wait) only when contended.
//
// std::mutex costs a call into pthread each way. The command layer's Monitor (clr/monitor.h)
// and the GPU model's schedulers, whose idle polls take their lock every round, use this.
// State 0 free, 1 held, 2 held with sleepers (the unlock then wakes one). Meets Lockable.
#pragma once

#include <atomic>

namespace rocref {

class FutexLock {
 public:
  FutexLock() = default;
  FutexLock(const FutexLock&) = delete;
  FutexLock& operator=(const FutexLock&) = delete;

  void lock() noexcept {
    if (!try_lock()) lock_contended();
  }
  bool try_lock() noexcept {
    int expected = 0;
    return state_.compare_exchange_strong(expected, 1, std::memory_order_acquire, std::memory_order_relaxed);
  }
  // Marks sleepers, then sleeps until the holder's unlock wakes one.
  void lock_contended() noexcept {
    while (state_.exchange(2, std::memory_order_acquire) != 0) state_.wait(2, std::memory_order_relaxed);
  }
  void unlock() noexcept {
    if (state_.exchange(0, std::memory_order_release) == 2) state_.notify_one();
  }

 private:
  std::atomic<int> state_{0};
};

}  // namespace rocref
