// clr/monitor.h - the command layer's lock: ROCclr's amd::Monitor role.
//
// A launch takes the stream's lock and the signal pool's; uncontended, std::mutex costs a
// call into pthread each way. Monitor is common/futex_lock.h's lock (one atomic instruction
// each way while free, a futex sleep only when contended) with the command layer's planted
// bug in its contended path. Meets Lockable, so std::lock_guard and std::unique_lock take it.
#pragma once

#include "clr/clr_mutant.h"
#include "common/futex_lock.h"

namespace rocref::clr {

class Monitor {
 public:
  Monitor() = default;
  Monitor(const Monitor&) = delete;
  Monitor& operator=(const Monitor&) = delete;

  void lock() noexcept {
    if (lock_.try_lock()) return;
    // ClrMutant::MonitorExcludesNobody: a held monitor is entered anyway.
    if (clr_mutant_active(ClrMutant::MonitorExcludesNobody)) return;
    lock_.lock_contended();
  }
  bool try_lock() noexcept { return lock_.try_lock(); }
  void unlock() noexcept { lock_.unlock(); }

 private:
  FutexLock lock_;
};

}  // namespace rocref::clr
