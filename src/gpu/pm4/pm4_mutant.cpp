// gpu/pm4/pm4_mutant.cpp - switches for the planted PM4 bugs of pm4_mutant.h.
#include "gpu/pm4/pm4_mutant.h"

#ifdef ROCREF_PM4_MUTANTS
#include "common/mutant_switch.h"

namespace rocref::gpu::pm4 {
namespace {
MutantSwitchboard<Pm4Mutant> g_switches;
}
bool pm4_mutant_active(Pm4Mutant m) noexcept { return g_switches.active(m); }
void set_pm4_mutant(Pm4Mutant m, bool on) noexcept { g_switches.set(m, on); }
}  // namespace rocref::gpu::pm4
#endif
