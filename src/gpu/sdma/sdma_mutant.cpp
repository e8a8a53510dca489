// gpu/sdma/sdma_mutant.cpp - switches for the planted SDMA bugs of sdma_mutant.h.
#include "gpu/sdma/sdma_mutant.h"

#ifdef ROCREF_SDMA_MUTANTS
#include "common/mutant_switch.h"

namespace rocref::gpu::sdma {
namespace {
MutantSwitchboard<SdmaMutant> g_switches;
void (*g_hook)(void*) = nullptr;
void* g_hook_ctx = nullptr;
}  // namespace
bool sdma_mutant_active(SdmaMutant m) noexcept { return g_switches.active(m); }
void set_sdma_mutant(SdmaMutant m, bool on) noexcept { g_switches.set(m, on); }
void set_sdma_header_read_hook(void (*hook)(void* ctx), void* ctx) noexcept {
  g_hook = hook;
  g_hook_ctx = ctx;
}
void sdma_header_read_hook() noexcept {
  if (g_hook) g_hook(g_hook_ctx);
}
}  // namespace rocref::gpu::sdma
#endif
