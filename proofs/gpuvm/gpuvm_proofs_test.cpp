// proofs/gpuvm/gpuvm_proofs_test.cpp - every GPUVM proof holds, every planted bug is refuted, and the
// counterexamples read as operation sequences with the page tables at the failure.
#include <gtest/gtest.h>

#include "proofs/gpuvm/gpuvm_proofs.h"

namespace rocref::proofs::gpuvm {
namespace {

const std::vector<ProofResult>& results() {
  static const std::vector<ProofResult> r = run_gpuvm_proofs(/*quick=*/true);
  return r;
}

const ProofResult& row(const std::string& clause) {
  for (const auto& r : results())
    if (r.clause == clause) return r;
  ADD_FAILURE() << "no row for " << clause;
  return results().front();
}

TEST(GpuVmProofs, EveryClauseHoldsAndEveryMutantIsRefuted) {
  ASSERT_EQ(results().size(), 7u);
  for (const auto& r : results()) {
    EXPECT_TRUE(r.verdict.outcome == Outcome::Proved || r.verdict.outcome == Outcome::Bounded)
        << r.clause << ": " << outcome_text(r.verdict) << " " << r.verdict.note << " " << r.verdict.trace;
    EXPECT_EQ(r.mutant_verdict.outcome, Outcome::Counterexample)
        << r.clause << " mutant '" << r.mutant << "': " << outcome_text(r.mutant_verdict);
    EXPECT_TRUE(r.ok());
    std::printf("%-17s %-70s %-34s (%.2fs) | mutant: %s -> %s\n", r.check.c_str(), r.name.c_str(),
                outcome_text(r.verdict).c_str(), r.verdict.seconds, r.mutant.c_str(),
                outcome_text(r.mutant_verdict).c_str());
  }
}

// Nothing of GPUVM rests on a bound any more: each clause is proved for every state and depth.
TEST(GpuVmProofs, VM_ISO_1_VM_TLB_2_VM_XLATE_2_AreProvedNotBounded) {
  for (const char* clause : {"VM-VA-1", "VM-PTE-1", "VM-XLATE-2", "VM-TLB-2", "VM-MAP-3", "VM-ISO-1", "VM-PT-3"})
    EXPECT_EQ(row(clause).verdict.outcome, Outcome::Proved) << clause << ": " << outcome_text(row(clause).verdict);
}

TEST(GpuVmProofs, VM_TLB_2_MutantCounterexampleIsMapTranslateUnmapTranslate) {
  const auto& tlb = row("VM-TLB-2");
  ASSERT_EQ(tlb.mutant_verdict.outcome, Outcome::Counterexample);
  // The stale read needs a map, a translate that fills the TLB, an unmap, then a translate.
  const std::string& t = tlb.mutant_verdict.trace;
  const auto map = t.find(" map va"), fill = t.find(" translate", map), unmap = t.find(" unmap", fill),
             stale = t.find("TLB hit", unmap), fails = t.find("VM-TLB-2 fails", stale);
  EXPECT_TRUE(map != std::string::npos && fill != std::string::npos && unmap != std::string::npos &&
              stale != std::string::npos && fails != std::string::npos)
      << t;
  EXPECT_EQ(t.find("encoding mismatch"), std::string::npos) << t;
  EXPECT_NE(t.find("page tables at the failure"), std::string::npos) << t;
  std::printf("VM-TLB-2 counterexample (missing invalidation):\n%s", t.c_str());
}

TEST(GpuVmProofs, VM_ISO_1_MutantCounterexampleShowsBothVmsPageTables) {
  const auto& iso = row("VM-ISO-1");
  ASSERT_EQ(iso.mutant_verdict.outcome, Outcome::Counterexample);
  const std::string& t = iso.mutant_verdict.trace;
  EXPECT_NE(t.find("VM-ISO-1 fails"), std::string::npos) << t;
  EXPECT_NE(t.find("VM0:"), std::string::npos) << t;
  EXPECT_NE(t.find("VM1:"), std::string::npos) << t;
  EXPECT_NE(t.find("PTE flags V"), std::string::npos) << t;  // at least one mapped range with its flags
  EXPECT_EQ(t.find("encoding mismatch"), std::string::npos) << t;
  std::printf("VM-ISO-1 counterexample (untagged TLB):\n%s", t.c_str());
}

TEST(GpuVmProofs, VM_XLATE_2_MutantCounterexampleCrossesAPage) {
  const auto& x = row("VM-XLATE-2");
  ASSERT_EQ(x.mutant_verdict.outcome, Outcome::Counterexample);
  const std::string& t = x.mutant_verdict.trace;
  // The range must touch two pages for the first-page-only check to differ.
  size_t pages = 0;
  for (size_t at = t.find("    va "); at != std::string::npos; at = t.find("    va ", at + 1)) ++pages;
  EXPECT_GE(pages, 2u) << t;
  std::printf("VM-XLATE-2 counterexample (first page only):\n%s", t.c_str());
}

}  // namespace
}  // namespace rocref::proofs::gpuvm
