// tests/tools/clause_check/clause_check_test.cpp - the coverage checker passes a good tree and
// reports each kind of broken link in a planted bad one.
#include "clause_check.h"

#include <gtest/gtest.h>

#include <algorithm>

namespace rocref::clause_check {
namespace {

const std::filesystem::path kHere = ROCREF_CLAUSE_CHECK_DIR;

bool has_error(const Report& r, const std::string& needle) {
  return std::any_of(r.errors.begin(), r.errors.end(),
                     [&](const std::string& e) { return e.find(needle) != std::string::npos; });
}

std::string all(const Report& r) {
  std::string s;
  for (const auto& e : r.errors) s += e + "\n";
  return s;
}

TEST(ClauseCheck, GoodFixturePasses) {
  const Report r = check(scan(kHere / "fixtures/good"));
  EXPECT_TRUE(r.errors.empty()) << all(r);
  EXPECT_EQ(r.clauses, 2u);
  EXPECT_EQ(r.checks_named, 3u);
  EXPECT_EQ(r.tests_found, 2u);
}

TEST(ClauseCheck, BadFixtureReportsEveryBrokenLink) {
  const Report r = check(scan(kHere / "fixtures/bad"));
  EXPECT_TRUE(has_error(r, "`test:Demo.DEMO_ONE_1_Missing`, which does not exist")) << all(r);
  EXPECT_TRUE(has_error(r, "`proof:demo-bmc/DEMO-ONE-1`, which does not exist")) << all(r);
  EXPECT_TRUE(has_error(r, "DEMO-ONE-2 names no check")) << all(r);
  EXPECT_TRUE(has_error(r, "DEMO-ONE-1 already defined")) << all(r);
  EXPECT_TRUE(has_error(r, "`audit:someone` of unknown kind")) << all(r);
  EXPECT_TRUE(has_error(r, "test Demo.DEMO_ONE_9_NamesUnknownClause names DEMO-ONE-9")) << all(r);
  EXPECT_TRUE(has_error(r, "covers tag) names DEMO-TWO-1")) << all(r);
  EXPECT_TRUE(has_error(r, "src/code.cpp:1 (clause tag) names DEMO-ONE-7")) << all(r);
  EXPECT_EQ(r.errors.size(), 8u) << all(r);
}

TEST(ClauseCheck, TestNamesCarryClausesOfKnownChapters) {
  const std::set<std::string> chapters{"AQL"};
  EXPECT_EQ(clauses_in_test_name("AQL_PUB_1_NoStaleBody", chapters), std::vector<std::string>{"AQL-PUB-1"});
  EXPECT_EQ(clauses_in_test_name("Mutant_AQL_DB_12", chapters), std::vector<std::string>{"AQL-DB-12"});
  EXPECT_TRUE(clauses_in_test_name("RealCodeRefinesModel", chapters).empty());
  EXPECT_TRUE(clauses_in_test_name("KFD_IOC_1_Other", chapters).empty());
  EXPECT_TRUE(clauses_in_test_name("AQL_PUB_1x", chapters).empty());
}

TEST(ClauseCheck, ChecksAfterASectionHeadingBelongToNoClause) {
  std::vector<std::string> problems;
  const auto clauses = parse_spec("### AQL-X-1 a\nChecks: `test:A.B`\n## Table\nChecks: `test:C.D`\n", "f.md", problems);
  ASSERT_EQ(clauses.size(), 1u);
  EXPECT_EQ(clauses[0].checks, std::vector<std::string>{"test:A.B"});
}

// The repository itself, and the same tree with a planted clause whose check is missing.
TEST(ClauseCheck, RepositoryTreeFailsWithAPlantedClause) {
  Tree tree = scan(ROCREF_SOURCE_ROOT);
  ASSERT_FALSE(tree.clauses.empty());
  tree.clauses["AQL-PLANTED-1"] = Clause{"AQL-PLANTED-1", "spec/planted.md", 1, {"test:AqlProperty.AQL_PLANTED_1_Nothing"}};
  const Report r = check(tree);
  EXPECT_TRUE(has_error(r, "AQL-PLANTED-1 names `test:AqlProperty.AQL_PLANTED_1_Nothing`, which does not exist"))
      << all(r);
}

}  // namespace
}  // namespace rocref::clause_check
