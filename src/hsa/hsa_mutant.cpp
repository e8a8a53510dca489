// hsa/hsa_mutant.cpp - switches for the planted blit-packet bugs (test-only library).
#include "hsa/hsa_mutant.h"

#ifdef ROCREF_HSA_MUTANTS
#include <atomic>

namespace rocref::hsa {
namespace {
std::atomic<uint32_t> g_active{0};
}
bool hsa_mutant_active(HsaMutant m) noexcept {
  return (g_active.load(std::memory_order_relaxed) >> static_cast<uint32_t>(m)) & 1u;
}
void set_hsa_mutant(HsaMutant m, bool on) noexcept {
  const uint32_t bit = 1u << static_cast<uint32_t>(m);
  if (on) {
    g_active.fetch_or(bit, std::memory_order_relaxed);
  } else {
    g_active.fetch_and(~bit, std::memory_order_relaxed);
  }
}
}  // namespace rocref::hsa
#endif
