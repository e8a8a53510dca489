// gpu/pm4/pm4_mutant.h - planted PM4 bugs the tests must catch (test-only library rocref_pm4_mutable).
//
// Compiled in only with ROCREF_PM4_MUTANTS; elsewhere pm4_mutant_active() is a constant false
// and the branches vanish.
#pragma once

namespace rocref::gpu::pm4 {

enum class Pm4Mutant : unsigned {
  LongOneDwordNop,            // PM4-PKT-2: a NOP of count 0x3FFF sized as 0x3FFF + 2 dwords
  DispatchDimsAsThreads,      // PM4-DISP-2: DISPATCH_DIRECT's dims taken as work-items, not work-groups
  ReleaseSkipsL2WriteBack,    // PM4-DISP-3: RELEASE_MEM leaves a PM4 dispatch's dirty L2 lines unwritten
  WaitIgnoresMask,            // PM4-WAIT-1: WAIT_REG_MEM compares the whole dword, not (value & mask)
  WaitNeverStalls,            // PM4-WAIT-2: an unsatisfied WAIT_REG_MEM lets the queue run on
  EventWriteAcceptsAnyEvent,  // PM4-EVT-1: an EVENT_WRITE the model does not run is skipped silently
  kCount
};

#ifdef ROCREF_PM4_MUTANTS
bool pm4_mutant_active(Pm4Mutant m) noexcept;
void set_pm4_mutant(Pm4Mutant m, bool on) noexcept;
#else
constexpr bool pm4_mutant_active(Pm4Mutant) noexcept { return false; }
#endif

}  // namespace rocref::gpu::pm4
