// common/model_clock.h - the one clock of the modeled system.
//
// The KFD model reports it as the system clock (GET_CLOCK_COUNTERS,
// 1 GHz), the HSA runtime as HSA_SYSTEM_INFO_TIMESTAMP, and the GPU model
// stamps completion signals' start_ts / end_ts with it, so profiling times
// and host timestamps compare directly (HSA-SYS-2).
#pragma once

#include <time.h>

#include <cstdint>

namespace rocref {

inline constexpr uint64_t kModelClockHz = 1'000'000'000;

inline uint64_t model_clock_ns() noexcept {
  timespec ts{};
  clock_gettime(CLOCK_BOOTTIME, &ts);
  return static_cast<uint64_t>(ts.tv_sec) * 1'000'000'000u + static_cast<uint64_t>(ts.tv_nsec);
}

}  // namespace rocref
