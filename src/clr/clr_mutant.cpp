// clr/clr_mutant.cpp - switches for the planted kernarg-ring and signal-pool bugs (test-only library).
#include "clr/clr_mutant.h"

#ifdef ROCREF_CLR_MUTANTS
#include <atomic>

namespace rocref::clr {
namespace {
std::atomic<uint32_t> g_active{0};
}
bool clr_mutant_active(ClrMutant m) noexcept {
  return (g_active.load(std::memory_order_relaxed) >> static_cast<uint32_t>(m)) & 1u;
}
void set_clr_mutant(ClrMutant m, bool on) noexcept {
  const uint32_t bit = 1u << static_cast<uint32_t>(m);
  if (on) {
    g_active.fetch_or(bit, std::memory_order_relaxed);
  } else {
    g_active.fetch_and(~bit, std::memory_order_relaxed);
  }
}
}  // namespace rocref::clr
#endif
