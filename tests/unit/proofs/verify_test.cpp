// tests/unit/proofs/verify_test.cpp - `rocref verify`'s catalog: quick proofs hold, every mutant is caught.
#include <gtest/gtest.h>

#include <sstream>

#include "proofs/memory/publication.h"
#include "proofs/signals/signal_wait.h"
#include "proofs/verify/catalog.h"

namespace rocref::proofs {
namespace {

std::vector<Row> run(const VerifyOptions& o) {
  std::vector<Row> rows;
  for (const Check& c : catalog(o)) {
    for (Row& r : c.run()) rows.push_back(std::move(r));
  }
  return rows;
}

// Quick configuration: every non-mutant check is PROVED or BOUNDED.
TEST(Verify, QuickProofsHold) {
  VerifyOptions o;
  o.quick = true;
  o.mutants = false;
  const std::vector<Row> rows = run(o);
  ASSERT_GT(rows.size(), 20u);
  for (const Row& r : rows) {
    EXPECT_TRUE(row_passes(r)) << r.property << " / " << r.configuration << ": " << outcome_text(r.verdict) << "\n"
                               << r.verdict.note << r.verdict.trace;
  }
}

// Every mutant must yield a counterexample naming its clause.
TEST(Verify, EveryMutantIsCaught) {
  VerifyOptions o;
  o.quick = true;
  size_t mutants = 0;
  for (const Row& r : run(o)) {
    if (!r.expect_counterexample) continue;
    ++mutants;
    EXPECT_EQ(r.verdict.outcome, Outcome::Counterexample) << r.configuration;
    EXPECT_TRUE(row_passes(r)) << r.configuration << ": " << outcome_text(r.verdict);
    EXPECT_FALSE(r.verdict.trace.empty()) << r.configuration;
  }
  // 9 model mutants, the liveness mutant, 4 publication, 2 wake-up, 3 signal mutants, DB-2 shown.
  EXPECT_GE(mutants, 19u);
}

// The row judgement itself can fail: a mutant reported safe, or a proof with a counterexample, fails.
TEST(Verify, RowJudgementRejectsMissedMutantsAndBrokenProofs) {
  Row missed{"p", "c", Verdict{Outcome::Bounded, 10, "AQL-X", "", "", 0}, true, {"AQL-X"}};
  EXPECT_FALSE(row_passes(missed));
  Row wrong_clause{"p", "c", Verdict{Outcome::Counterexample, 3, "AQL-Y", "t", "", 0}, true, {"AQL-X"}};
  EXPECT_FALSE(row_passes(wrong_clause));
  Row broken{"p", "c", Verdict{Outcome::Counterexample, 3, "AQL-X", "t", "", 0}, false, {}};
  EXPECT_FALSE(row_passes(broken));
  Row unknown{"p", "c", Verdict{Outcome::Unknown, 0, "AQL-X", "", "", 0}, false, {}};
  EXPECT_FALSE(row_passes(unknown));
}

TEST(Verify, AQL_PUB_1_RelaxedHeaderStoreShowsStaleBodyExecution) {
  const Verdict v = check_publication(PublicationVariant::RelaxedHeaderStore);
  ASSERT_EQ(v.outcome, Outcome::Counterexample);
  EXPECT_NE(v.trace.find("reads from the initial value"), std::string::npos) << v.trace;
  EXPECT_EQ(check_publication(PublicationVariant::ReleaseAcquire).outcome, Outcome::Proved);
}

TEST(Verify, AQL_DB_4_LostWakeUpWithoutSeqCstFences) {
  EXPECT_EQ(check_wakeup(WakeVariant::ReleaseAcquireOnly).outcome, Outcome::Counterexample);
  EXPECT_EQ(check_wakeup(WakeVariant::SeqCstFences).outcome, Outcome::Proved);
  EXPECT_EQ(check_wakeup(WakeVariant::SingleWordRmw).outcome, Outcome::Proved);
}

TEST(Verify, AQL_SIG_4_CheckThenSleepWithoutAgeLosesAWakeUp) {
  const Verdict v = check_signal_wait(WaitVariant::NoAge);
  ASSERT_EQ(v.outcome, Outcome::Counterexample);
  EXPECT_NE(v.trace.find("sleeps forever"), std::string::npos) << v.trace;
}

// The table prints and counts failures.
TEST(Verify, TablePrintsEveryRow) {
  VerifyOptions o;
  o.quick = true;
  o.property = "weak-memory wake-up";
  std::ostringstream progress, out;
  EXPECT_EQ(run_catalog(o, progress, out), 0);
  EXPECT_NE(out.str().find("PROVED"), std::string::npos);
  EXPECT_NE(out.str().find("COUNTEREXAMPLE (AQL-DB-4"), std::string::npos);
  EXPECT_NE(progress.str().find("[1/"), std::string::npos);
}

}  // namespace
}  // namespace rocref::proofs
