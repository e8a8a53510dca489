// proofs/gpuvm/gpuvm_proofs_test.cpp - every GPUVM proof holds and every planted bug is refuted.
#include <gtest/gtest.h>

#include "proofs/gpuvm/gpuvm_proofs.h"

namespace rocref::proofs::gpuvm {
namespace {

TEST(GpuVmProofs, EveryClauseHoldsAndEveryMutantIsRefuted) {
  const auto results = run_gpuvm_proofs(/*quick=*/true);
  ASSERT_EQ(results.size(), 6u);
  for (const auto& r : results) {
    EXPECT_TRUE(r.verdict.outcome == Outcome::Proved || r.verdict.outcome == Outcome::Bounded)
        << r.clause << ": " << outcome_text(r.verdict) << " " << r.verdict.trace;
    EXPECT_EQ(r.mutant_verdict.outcome, Outcome::Counterexample)
        << r.clause << " mutant '" << r.mutant << "': " << outcome_text(r.mutant_verdict);
    EXPECT_TRUE(r.ok());
    std::printf("%-15s %-70s %-22s (%.2fs) | mutant: %s -> %s\n", r.check.c_str(), r.name.c_str(),
                outcome_text(r.verdict).c_str(), r.verdict.seconds, r.mutant.c_str(),
                outcome_text(r.mutant_verdict).c_str());
  }
}

TEST(GpuVmProofs, VM_TLB_2_MutantCounterexampleIsMapTranslateUnmapTranslate) {
  const auto results = run_gpuvm_proofs(true);
  const auto& tlb = results[2];
  ASSERT_EQ(tlb.clause, "VM-TLB-2");
  ASSERT_EQ(tlb.mutant_verdict.outcome, Outcome::Counterexample);
  // The stale read needs a map, a translate that fills the TLB, an unmap, then a translate.
  const std::string& t = tlb.mutant_verdict.trace;
  const auto map = t.find("= #b00"), fill = t.find("= #b10", map), unmap = t.find("= #b01", fill),
             stale = t.find("= #b10", unmap);
  EXPECT_TRUE(map != std::string::npos && fill != std::string::npos && unmap != std::string::npos &&
              stale != std::string::npos)
      << t;
  std::printf("VM-TLB-2 counterexample (missing invalidation):\n%s", tlb.mutant_verdict.trace.c_str());
}

}  // namespace
}  // namespace rocref::proofs::gpuvm
