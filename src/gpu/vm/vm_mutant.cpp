// gpu/vm/vm_mutant.cpp - switches for the planted GPUVM bugs (test-only library).
#include "gpu/vm/vm_mutant.h"

#ifdef ROCREF_GPUVM_MUTANTS
#include "common/mutant_switch.h"

namespace rocref::gpu::vm {
namespace {
MutantSwitchboard<VmMutant> g_switches;
}
bool vm_mutant_active(VmMutant m) noexcept { return g_switches.active(m); }
void set_vm_mutant(VmMutant m, bool on) noexcept { g_switches.set(m, on); }
}  // namespace rocref::gpu::vm
#endif
