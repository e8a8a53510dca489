// tests/unit/hsa/async_svm_mutant_test.cpp - planted bugs of the rect copy (HSA-MEM-8), copy timing
// (HSA-PROF-2) and SVM (HSA-SVM-1, HSA-SVM-3) caught by the conformance suite's checks (async_checks.h).
#include <gtest/gtest.h>

#include "async_checks.h"
#include "hsa/hsa_mutant.h"
#include "hsa_fixture.h"
#include "planted.h"

namespace hsa_conformance {
namespace {

using rocref::hsa::HsaMutant;

class HsaAsyncSvmMutant : public HsaTest {
 protected:
  hsa_amd_memory_pool_t vram() const { return find_pool(agents_.gpu, HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_COARSE_GRAINED); }
  hsa_amd_memory_pool_t system() const { return find_pool(agents_.cpu, HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_FINE_GRAINED); }
};

TEST_F(HsaAsyncSvmMutant, AsyncCopyRectSourceRowsAtDestinationPitchIsCaught) {
  EXPECT_TRUE(rect_copy_moves_the_box(agents_.gpu, system()));
  EXPECT_FALSE(with_planted(HsaMutant::AsyncCopyRectSourceRowsAtDestinationPitch, [&] {
    return rect_copy_moves_the_box(agents_.gpu, system());
  })) << "the planted bug read the source's rows at the destination's pitch, unseen";
}

TEST_F(HsaAsyncSvmMutant, AsyncCopyTimedFromItsDependencyWaitIsCaught) {
  EXPECT_TRUE(async_copy_times_bracket_the_copy(agents_.cpu, agents_.gpu, vram(), system()));
  EXPECT_FALSE(with_planted(HsaMutant::AsyncCopyTimedFromItsDependencyWait, [&] {
    return async_copy_times_bracket_the_copy(agents_.cpu, agents_.gpu, vram(), system());
  })) << "the planted bug timed the copy from before its dependency wait, unseen";
}

TEST_F(HsaAsyncSvmMutant, SvmFineGrainedClearsCoherentIsCaught) {
  EXPECT_TRUE(svm_memory_model_round_trips());
  EXPECT_FALSE(with_planted(HsaMutant::SvmFineGrainedClearsCoherent, svm_memory_model_round_trips))
      << "the planted bug sent FINE_GRAINED as a cleared COHERENT flag, unseen";
}

TEST_F(HsaAsyncSvmMutant, SvmPrefetchSkipsDependenciesIsCaught) {
  EXPECT_TRUE(svm_prefetch_waits_for_its_dependency(agents_.gpu));
  EXPECT_FALSE(with_planted(HsaMutant::SvmPrefetchSkipsDependencies, [&] {
    return svm_prefetch_waits_for_its_dependency(agents_.gpu);
  })) << "the planted bug prefetched before the dependency reached 0, unseen";
}

}  // namespace
}  // namespace hsa_conformance
