// gpu/sdma/sdma_mutant.cpp - switches for the planted SDMA bugs of sdma_mutant.h.
#include "gpu/sdma/sdma_mutant.h"

#ifdef ROCREF_SDMA_MUTANTS
#include <atomic>

namespace rocref::gpu::sdma {
namespace {
std::atomic<bool> g_on[static_cast<unsigned>(SdmaMutant::kCount)];
}
bool sdma_mutant_active(SdmaMutant m) noexcept { return g_on[static_cast<unsigned>(m)].load(std::memory_order_relaxed); }
void set_sdma_mutant(SdmaMutant m, bool on) noexcept { g_on[static_cast<unsigned>(m)].store(on); }
}  // namespace rocref::gpu::sdma
#endif
