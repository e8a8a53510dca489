// hsa/hsa_mutant.h - planted bugs in the HSA runtime's own packets (the blit kernels' dispatch)
// that the adversarial GPU model must catch (tests/unit/hsa/adversarial_blit_test.cpp), and in
// the code-object loader.
//
// Compiled in only for the test-only rocref_hsa_mutable library (ROCREF_HSA_MUTANTS);
// elsewhere hsa_mutant_active() is a constant false.
#pragma once

#include <cstdint>

#include "common/mutant_switch.h"

namespace rocref::hsa {

enum class HsaMutant : uint32_t {
  BlitAgentReleaseScope,       // AQL-FEN-3: blit dispatch released at AGENT scope; the host reads next
  BlitDoorbellBeforeHeader,    // AQL-DB-1: blit doorbell rung before the header is release-stored
  BlitAgentAcquireScope,       // AQL-FEN-6: blit dispatch acquired at AGENT scope; it may read old kernargs
  AllowAccessFirstGpuOnly,     // HSA-AGENT-3: hsa_amd_agents_allow_access maps for the first GPU agent listed only
  AsyncCopySkipsDependencies,  // HSA-MEM-7: an asynchronous copy runs without waiting for its dependency signals
  AsyncCopyRectSourceRowsAtDestinationPitch,  // HSA-MEM-8: the rect copy steps source rows by the destination's pitch
  AsyncCopyTimedFromItsDependencyWait,        // HSA-PROF-2: a profiled copy's start is taken before its dependency wait
  SvmFineGrainedClearsCoherent,               // HSA-SVM-1: FINE_GRAINED sent to the KFD as CLR_FLAGS COHERENT
  SvmPrefetchSkipsDependencies,               // HSA-SVM-3: a prefetch completes without waiting for its dependencies
  PointerInfoIgnoresAllocationMap,  // HSA-PTR-1/2: pointer info from the driver's record only, not the runtime's map
  UnlockKeepsRegistration,          // HSA-LOCK-2: hsa_amd_memory_unlock unmaps but never deregisters
  // Loader bugs (executable.cpp), caught by tests/unit/hsa/code_object_loader_test.cpp:
  LoaderKernelObjectWithoutBase,  // HSA-LOAD-3: kernel object = value of `<kernel>.kd`, load base not added
  LoaderRelocationsSkipped,       // HSA-LOAD-2: dynamic relocations not applied (pointers in data stay unrelocated)
  // Extension and control calls, caught by tests/unit/hsa/runtime_ext_mutant_test.cpp:
  LoaderHostCopyBeforeRelocation,  // HSA-EXT-2: the host copy is taken from the image before relocation
  CuMaskKeepsBitsPastTheCus,       // HSA-QUEUE-6: a CU mask is not cut to the agent's CUs
  LockToPoolIgnoresThePool,        // HSA-LOCK-3: hsa_amd_memory_lock_to_pool locks coarse-grained whatever the pool
  SignalGroupAnswersTheFirst,      // HSA-SIG-8: a group wait names the group's first signal, not the satisfied one
  FreeSkipsDeallocationCallbacks,  // HSA-MEM-10: freeing an allocation runs none of its callbacks
  // Image extension bug (image_descriptor.cpp), caught by tests/unit/hsa/image_mutant_test.cpp:
  ImagePitchInBytes,  // HSA-IMG-3: the T#'s PITCH field holds the row pitch in bytes, not texels
  kCount
};

#ifdef ROCREF_HSA_MUTANTS
bool hsa_mutant_active(HsaMutant m) noexcept;
void set_hsa_mutant(HsaMutant m, bool on) noexcept;
using ScopedHsaMutant = ScopedMutantSwitch<HsaMutant, set_hsa_mutant>;
#else
constexpr bool hsa_mutant_active(HsaMutant) noexcept { return false; }
#endif

}  // namespace rocref::hsa
