// common/backoff.h - bounded spinning that falls back to yielding the core.
//
// The machines this runs on have two cores; a waiter that only spins can
// starve the very thread it waits for. Spin briefly (cheap when the other side
// is running), then sched_yield so an oversubscribed machine still progresses.
#pragma once

#include <sched.h>

#include <cstdint>

namespace rocref {

class Backoff {
 public:
  static constexpr uint32_t kSpinLimit = 64;

  void pause() noexcept {
    if (spins_ < kSpinLimit) {
      ++spins_;
#if defined(__x86_64__) || defined(__i386__)
      __builtin_ia32_pause();
#endif
    } else {
      ++yields_;
      sched_yield();
    }
  }
  void reset() noexcept { spins_ = 0; }
  uint64_t yields() const noexcept { return yields_; }

 private:
  uint32_t spins_ = 0;
  uint64_t yields_ = 0;
};

}  // namespace rocref
