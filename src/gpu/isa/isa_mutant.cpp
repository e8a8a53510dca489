// gpu/isa/isa_mutant.cpp - the switches of isa_mutant.h (only in the test-only library).
#include "gpu/isa/isa_mutant.h"

#ifdef ROCREF_ISA_MUTANTS
#include <atomic>

namespace rocref::gpu::isa {
namespace {
std::atomic<unsigned> g_active{0};
}
bool isa_mutant_active(IsaMutant m) noexcept {
  return (g_active.load(std::memory_order_relaxed) >> static_cast<unsigned>(m) & 1u) != 0;
}
void set_isa_mutant(IsaMutant m, bool on) noexcept {
  const unsigned bit = 1u << static_cast<unsigned>(m);
  if (on) g_active.fetch_or(bit, std::memory_order_relaxed);
  else g_active.fetch_and(~bit, std::memory_order_relaxed);
}
}  // namespace rocref::gpu::isa
#endif
