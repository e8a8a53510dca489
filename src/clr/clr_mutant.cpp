// clr/clr_mutant.cpp - switches for the planted command-layer bugs (test-only library).
#include "clr/clr_mutant.h"

#ifdef ROCREF_CLR_MUTANTS
#include "common/mutant_switch.h"

namespace rocref::clr {
namespace {
MutantSwitchboard<ClrMutant> g_switches;
}
bool clr_mutant_active(ClrMutant m) noexcept { return g_switches.active(m); }
void set_clr_mutant(ClrMutant m, bool on) noexcept { g_switches.set(m, on); }
}  // namespace rocref::clr
#endif
