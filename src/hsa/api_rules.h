// hsa/api_rules.h - argument rules of the HSA API that need no device (pure functions).
//
// Kept apart from the objects so they can be unit-tested without a KFD:
// timeout hints (HSA-SIG-3) and queue sizes (HSA-QUEUE-1).
#pragma once

#include <hsa/hsa.h>

#include <cstdint>

namespace rocref::hsa {

// HSA-SIG-3: a timeout hint counts HSA_SYSTEM_INFO_TIMESTAMP_FREQUENCY ticks;
// UINT64_MAX (and anything that overflows) means "no timeout".
constexpr uint64_t timeout_hint_to_ns(uint64_t hint, uint64_t frequency_hz) noexcept {
  if (hint == UINT64_MAX || frequency_hz == 0) return UINT64_MAX;
  const uint64_t seconds = hint / frequency_hz;
  const uint64_t rest = hint % frequency_hz;
  if (seconds > UINT64_MAX / 1'000'000'000ull - 1) return UINT64_MAX;
  // 128-bit product: rest * 1e9 overflows 64 bits for frequencies above 18 GHz.
  const unsigned __int128 rest_ns = static_cast<unsigned __int128>(rest) * 1'000'000'000ull / frequency_hz;
  return seconds * 1'000'000'000ull + static_cast<uint64_t>(rest_ns);
}

// HSA-QUEUE-1: a power of two in [1, max]; a size under the agent's minimum is
// rounded up to it (hsa.h: "the maximum of size and QUEUE_MIN_SIZE").
constexpr bool queue_size_valid(uint32_t size, uint32_t max_size) noexcept {
  return size != 0 && (size & (size - 1)) == 0 && size <= max_size;
}
constexpr uint32_t effective_queue_size(uint32_t size, uint32_t min_size) noexcept {
  return size < min_size ? min_size : size;
}

}  // namespace rocref::hsa
