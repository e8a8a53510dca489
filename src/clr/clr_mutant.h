// clr/clr_mutant.h - planted bugs in the command layer that its tests must catch:
// a check that cannot fail proves nothing. The kernarg-ring and signal-pool bugs are
// caught by tests/property/clr and tests/unit/clr; the packet bugs of VirtualGpu::submit
// by the adversarial GPU model (tests/unit/clr/adversarial_clr_test.cpp).
//
// Compiled in only for the test-only rocref_clr_pools_mutable and rocref_clr_mutable
// libraries (ROCREF_CLR_MUTANTS); elsewhere clr_mutant_active() is a constant false.
#pragma once

#include <cstdint>

#include "common/mutant_switch.h"

namespace rocref::clr {

enum class ClrMutant : uint32_t {
  WrapOverLiveSlices,  // the ring wraps to its start without checking the oldest live slice
  AlignmentIgnored,    // slices only 16-byte aligned whatever the kernel asked for
  ReuseWhileHeld,      // the pool frees a signal on any release, ignoring other holders
  NoResetOnReuse,      // the pool hands a reused signal out with its old value
  DependencyNotHeld,   // wait_for does not hold its dependency: the pool may reuse it under the packet
  // Packet bugs of VirtualGpu::submit (ring and pool bugs stay before this line):
  NoBarrierBit,             // AQL-BAR-1: stream packets without the barrier bit (no in-order stream)
  AgentReleaseScope,        // AQL-FEN-4: release scope AGENT instead of SYSTEM (host reads too early)
  DoorbellBeforeHeader,     // AQL-DB-1: doorbell rung before the header is release-stored
  FullRingOffByOne,         // AQL-IDX-2: full-ring wait `>` instead of `>=` (overwrites an unread slot)
  AgentAcquireScope,        // AQL-FEN-6: acquire scope AGENT instead of SYSTEM (dispatch may read old kernargs)
  SubmitWithoutStreamLock,  // AQL-IDX-7: the plain reservation without the lock that makes it the queue's one producer
  // Kernarg bugs of program.cpp (code-object kernels), for tests/unit/clr/program_test.cpp:
  KernargOffsetsIgnored,      // CLR-KARG-1: explicit arguments packed back to back, the metadata's offsets ignored
  HiddenGlobalOffsetNonzero,  // CLR-KARG-2: hidden_global_offset_x/y/z written as 1 instead of 0
  // Launch fast paths (kernel_object.cpp, virtual_gpu.cpp), for tests/unit/clr/launch_fast_path_test.cpp:
  KernelObjectCacheUnkeyed,  // the per-thread last kernel object is reused for another kernel of equal kernarg size
  MonitorExcludesNobody,     // monitor.h: lock() on a held monitor returns at once (no mutual exclusion)
  kCount
};

#ifdef ROCREF_CLR_MUTANTS
bool clr_mutant_active(ClrMutant m) noexcept;
void set_clr_mutant(ClrMutant m, bool on) noexcept;
using ScopedClrMutant = ScopedMutantSwitch<ClrMutant, set_clr_mutant>;
#else
constexpr bool clr_mutant_active(ClrMutant) noexcept { return false; }
#endif

}  // namespace rocref::clr
