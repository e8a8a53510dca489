// gpu/isa/isa_mutant.cpp - the switches of isa_mutant.h (only in the test-only library).
#include "gpu/isa/isa_mutant.h"

#ifdef ROCREF_ISA_MUTANTS
#include "common/mutant_switch.h"

namespace rocref::gpu::isa {
namespace {
MutantSwitchboard<IsaMutant> g_switches;
}
bool isa_mutant_active(IsaMutant m) noexcept { return g_switches.active(m); }
void set_isa_mutant(IsaMutant m, bool on) noexcept { g_switches.set(m, on); }
}  // namespace rocref::gpu::isa
#endif
