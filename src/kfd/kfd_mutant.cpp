// kfd/kfd_mutant.cpp - switches for the planted KFD bugs of kfd_mutant.h.
#include "kfd/kfd_mutant.h"

#ifdef ROCREF_KFD_MUTANTS
#include "common/mutant_switch.h"

namespace rocref::kfd {
namespace {
MutantSwitchboard<KfdMutant> g_switches;
}
bool kfd_mutant_active(KfdMutant m) noexcept { return g_switches.active(m); }
void set_kfd_mutant(KfdMutant m, bool on) noexcept { g_switches.set(m, on); }
}  // namespace rocref::kfd
#endif
