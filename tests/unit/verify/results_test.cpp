// tests/unit/verify/results_test.cpp - verify results survive JSON, merge by check id, and fail in JUnit when they fail.
#include <gtest/gtest.h>

#include <sstream>
#include <stdexcept>

#include "proofs/verify/results.h"
#include "proofs/verify/runner.h"

namespace rocref::proofs {
namespace {

Row mutant_row(Outcome outcome, const std::string& clause) {
  Row r{"aql-mutants", "mutant <x> & \"y\"", Verdict{outcome, 4, clause, "step 1: producer 0 reserves\n", "", 0.5},
        true, {"AQL-IDX-2"}};
  return r;
}

VerifyResults one(uint32_t check, const Row& row) {
  VerifyResults v;
  v.rows.push_back(to_result(check, row));
  v.checks = 1;
  v.wall_seconds = 1;
  return v;
}

TEST(VerifyResults, JsonRoundTripKeepsEveryField) {
  const VerifyResults in = one(7, mutant_row(Outcome::Counterexample, "AQL-IDX-2"));
  const VerifyResults out = from_json(to_json(in));
  ASSERT_EQ(out.rows.size(), 1u);
  const RowResult& r = out.rows[0];
  EXPECT_EQ(r.check, 7u);
  EXPECT_EQ(r.configuration, "mutant <x> & \"y\"");
  EXPECT_EQ(r.outcome, "COUNTEREXAMPLE");
  EXPECT_EQ(r.clause, "AQL-IDX-2");
  EXPECT_EQ(r.trace, "step 1: producer 0 reserves\n");
  EXPECT_TRUE(r.expect_counterexample);
  EXPECT_TRUE(r.passed);
  EXPECT_EQ(out.checks, 1u);
}

TEST(VerifyResults, BadInputIsRejected) {
  EXPECT_THROW(from_json("{"), std::runtime_error);
  EXPECT_THROW(from_json("{\"format\":\"other\",\"rows\":[]}"), std::runtime_error);
  EXPECT_THROW(from_json("{\"format\":\"rocref-verify-results-1\",\"rows\":[{\"check\":1}]}"), std::runtime_error);
}

// A mutant the proofs missed is judged failing where it ran, and stays failing through merge and JUnit.
TEST(VerifyResults, MissedMutantFailsInTableAndJunit) {
  const VerifyResults missed = one(2, mutant_row(Outcome::Bounded, ""));
  const VerifyResults caught = one(1, mutant_row(Outcome::Counterexample, "AQL-IDX-2"));
  const VerifyResults merged = merge({from_json(to_json(missed)), caught});
  ASSERT_EQ(merged.rows.size(), 2u);
  EXPECT_EQ(merged.rows[0].check, 1u);  // ordered by check id
  EXPECT_EQ(merged.checks, 2u);
  std::ostringstream table;
  EXPECT_EQ(print_table(table, merged, false), 1);
  EXPECT_NE(table.str().find("NOT CAUGHT"), std::string::npos);
  std::ostringstream xml;
  write_junit(xml, merged);
  EXPECT_NE(xml.str().find("tests=\"2\" failures=\"1\""), std::string::npos) << xml.str();
  EXPECT_NE(xml.str().find("<failure message=\"BOUNDED to depth 4 NOT CAUGHT\">"), std::string::npos) << xml.str();
  EXPECT_NE(xml.str().find("mutant &lt;x&gt; &amp; &quot;y&quot;"), std::string::npos) << xml.str();
}

TEST(VerifyResults, MergeRejectsACheckReportedTwice) {
  const VerifyResults a = one(3, mutant_row(Outcome::Counterexample, "AQL-IDX-2"));
  EXPECT_THROW(merge({a, a}), std::runtime_error);
}

// A worker that cannot run (here: no such program) is a failing ERROR row, not a lost check.
TEST(VerifyRunner, DeadWorkerGivesAnErrorRow) {
  const std::vector<Check> checks{Check{"p", "c1", [] { return std::vector<Row>{}; }},
                                  Check{"p", "c2", [] { return std::vector<Row>{}; }}};
  std::ostringstream progress;
  const VerifyResults r = run_workers("/nonexistent/rocref", checks, {}, 2, progress);
  ASSERT_EQ(r.rows.size(), 2u);
  for (const RowResult& row : r.rows) {
    EXPECT_EQ(row.outcome, "ERROR");
    EXPECT_FALSE(row.passed);
  }
  EXPECT_NE(progress.str().find("[2/2]"), std::string::npos) << progress.str();
}

TEST(VerifyRunner, OptionsRoundTripAsWorkerArguments) {
  VerifyOptions o;
  o.quick = true;
  o.mutants = false;
  o.producers = 2;
  o.property = "gpuvm";
  const std::vector<std::string> want{"--quick", "--no-mutants", "--producers", "2", "--property", "gpuvm"};
  EXPECT_EQ(option_args(o), want);
}

}  // namespace
}  // namespace rocref::proofs
