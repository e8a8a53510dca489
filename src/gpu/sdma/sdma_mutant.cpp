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
namespace {
void (*g_hook)(void*) = nullptr;
void* g_hook_ctx = nullptr;
}  // namespace
void set_sdma_header_read_hook(void (*hook)(void* ctx), void* ctx) noexcept {
  g_hook = hook;
  g_hook_ctx = ctx;
}
void sdma_header_read_hook() noexcept {
  if (g_hook) g_hook(g_hook_ctx);
}
}  // namespace rocref::gpu::sdma
#endif
