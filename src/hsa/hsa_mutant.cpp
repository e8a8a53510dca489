// hsa/hsa_mutant.cpp - switches for the planted blit-packet bugs (test-only library).
#include "hsa/hsa_mutant.h"

#ifdef ROCREF_HSA_MUTANTS
#include "common/mutant_switch.h"

namespace rocref::hsa {
namespace {
MutantSwitchboard<HsaMutant> g_switches;
}
bool hsa_mutant_active(HsaMutant m) noexcept { return g_switches.active(m); }
void set_hsa_mutant(HsaMutant m, bool on) noexcept { g_switches.set(m, on); }
}  // namespace rocref::hsa
#endif
