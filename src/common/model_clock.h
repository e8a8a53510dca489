// common/model_clock.h - the clocks of the modeled system.
//
// Two domains, as on the hardware: the system clock (1 GHz, CLOCK_BOOTTIME),
// which GET_CLOCK_COUNTERS reports as system_clock_counter and the HSA
// runtime as HSA_SYSTEM_INFO_TIMESTAMP; and the GPU's 100 MHz reference
// counter (gpu_clock_counter), in which the command processor stamps a
// completion signal's start_ts / end_ts. A runtime translates GPU ticks to
// system time from pairs of GET_CLOCK_COUNTERS samples, as ROCR does
// (HSA-PROF-1), so a runtime that returned raw ticks would be off tenfold.
#pragma once

#include <time.h>

#include <cstdint>

namespace rocref {

inline constexpr uint64_t kModelClockHz = 1'000'000'000;
inline constexpr uint64_t kGpuClockHz = 100'000'000;

inline uint64_t clock_ns(clockid_t id) noexcept {
  timespec ts{};
  clock_gettime(id, &ts);
  return static_cast<uint64_t>(ts.tv_sec) * 1'000'000'000u + static_cast<uint64_t>(ts.tv_nsec);
}

// The system clock.
inline uint64_t model_clock_ns() noexcept { return clock_ns(CLOCK_BOOTTIME); }

// The CPU counter (cpu_clock_counter) and the GPU reference counter derived from it.
inline uint64_t cpu_clock_counter() noexcept { return clock_ns(CLOCK_MONOTONIC_RAW); }
inline constexpr uint64_t gpu_ticks_from_cpu_counter(uint64_t cpu) noexcept { return cpu / (kModelClockHz / kGpuClockHz); }
inline uint64_t gpu_clock_ticks() noexcept { return gpu_ticks_from_cpu_counter(cpu_clock_counter()); }

}  // namespace rocref
