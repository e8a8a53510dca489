// tests/conformance/matrix/matrix_test.cpp - report parsing, deviation table and matrix verdicts (CONF-*).
#include <gtest/gtest.h>

#include "gtest_report.h"
#include "matrix.h"

namespace rocref::conform {
namespace {

constexpr const char* kReport = R"(<?xml version="1.0" encoding="UTF-8"?>
<testsuites tests="4" failures="1" disabled="0" errors="0" time="0.01" name="AllTests">
  <testsuite name="Kfd" tests="4" failures="1" disabled="0" skipped="1" errors="0" time="0.01">
    <testcase name="KFD_VER_1_GetVersionIsOneDotX" file="a.cpp" line="1" status="run" result="completed" time="0." timestamp="x" classname="Kfd" />
    <testcase name="KFD_Q_2_BadGpuIdReturnsEINVAL" file="a.cpp" line="2" status="run" result="completed" time="0." timestamp="x" classname="Kfd">
      <failure message="a.cpp:9&#x0A;Expected: -22 &amp; got &quot;0&quot;" type=""><![CDATA[a.cpp:9 details]]></failure>
    </testcase>
    <testcase name="NeedsIsa" file="a.cpp" line="3" status="run" result="skipped" time="0." timestamp="x" classname="Kfd">
      <skipped message="a.cpp:12&#x0A;no ISA on the model"><![CDATA[]]></skipped>
    </testcase>
    <testcase name="Plain" file="a.cpp" line="4" status="run" result="completed" time="0." timestamp="x" classname="Other" />
  </testsuite>
</testsuites>
)";

TEST(ConformReport, CONF_RUN_1_ReadsPassFailSkipAndDecodesMessages) {
  std::string err;
  const auto r = parse_gtest_xml(kReport, &err);
  ASSERT_TRUE(r) << err;
  ASSERT_EQ(r->size(), 4u);
  EXPECT_EQ((*r)[0].outcome, Outcome::Pass);
  EXPECT_EQ((*r)[0].full_name(), "Kfd.KFD_VER_1_GetVersionIsOneDotX");
  EXPECT_EQ((*r)[1].outcome, Outcome::Fail);
  EXPECT_EQ((*r)[1].message, "a.cpp:9\nExpected: -22 & got \"0\"");
  EXPECT_EQ((*r)[2].outcome, Outcome::Skip);
  EXPECT_EQ((*r)[2].message, "a.cpp:12\nno ISA on the model");
  EXPECT_EQ((*r)[3].suite, "Other");
}

TEST(ConformReport, CONF_RUN_1_RejectsTextThatIsNotAReport) {
  std::string err;
  EXPECT_FALSE(parse_gtest_xml("hello", &err));
  EXPECT_FALSE(err.empty());
  EXPECT_FALSE(parse_gtest_xml("<testsuites><testcase name=\"a\" classname=\"b\">", &err));
}

TEST(ConformReport, CONF_RUN_2_ListedTestsAreParsedIntoFullNames) {
  const char* listing =
      "Running main() from ./googletest/src/gtest_main.cc\n"
      "HsaAgent.\n"
      "  HSA_AGENT_1_GpuAgentAttributes\n"
      "  HSA_AGENT_2_Bad\n"
      "Param/Suite.\n"
      "  Case/0  # GetParam() = 4\n";
  EXPECT_EQ(parse_gtest_list(listing), (std::vector<std::string>{"HsaAgent.HSA_AGENT_1_GpuAgentAttributes",
                                                                  "HsaAgent.HSA_AGENT_2_Bad", "Param/Suite.Case/0"}));
  EXPECT_TRUE(parse_gtest_list("amdgpu_device_initialize: failed\n  not a test\n").empty());
}

TEST(ConformMatrix, CONF_ROW_1_TestsAreGroupedByTheClauseTheirNameCarries) {
  EXPECT_EQ(clauses_of("AQL_PUB_1_ProcessorNeverSeesStaleBody"), std::vector<std::string>{"AQL-PUB-1"});
  EXPECT_EQ(clauses_of("Mutant_SDMA_PKT_1_Caught"), std::vector<std::string>{"SDMA-PKT-1"});
  EXPECT_TRUE(clauses_of("BadGpuIdReturnsEINVAL").empty());
  std::vector<Column> cols{{"rocref", *parse_gtest_xml(kReport, nullptr), ""}};
  const Matrix m = build_matrix(cols, {});
  ASSERT_EQ(m.rows.size(), 4u);
  EXPECT_EQ(m.rows[0].group, "KFD-Q-2");
  EXPECT_EQ(m.rows[1].group, "KFD-VER-1");
  EXPECT_EQ(m.rows[2].group, "Kfd (no clause)");
}

TEST(ConformMatrix, CONF_DEV_1_GlobsMatchWholeNames) {
  EXPECT_TRUE(glob_match("Kfd.*", "Kfd.A"));
  EXPECT_TRUE(glob_match("*.KFD_Q_*", "Kfd.KFD_Q_2_X"));
  EXPECT_FALSE(glob_match("Kfd.A", "Kfd.AB"));
  EXPECT_TRUE(glob_match("K?d.*B", "Kfd.AB"));
  EXPECT_FALSE(glob_match("*.X", "Kfd.AB"));
}

std::vector<Column> two_columns() {
  std::vector<TestResult> ours{{"S", "A_1", Outcome::Pass, ""}, {"S", "B", Outcome::Pass, ""}, {"S", "C", Outcome::Skip, "why"}};
  std::vector<TestResult> theirs{{"S", "A_1", Outcome::Pass, ""}, {"S", "B", Outcome::Fail, "boom"}, {"S", "C", Outcome::Skip, "why"}};
  return {{"rocref", ours, ""}, {"system", theirs, ""}};
}

TEST(ConformMatrix, CONF_DEV_1_UnexplainedDifferenceFailsTheMatrix) {
  const Matrix m = build_matrix(two_columns(), {});
  ASSERT_EQ(m.unexpected.size(), 1u);
  EXPECT_NE(m.unexpected[0].find("system S.B: fail (reference: pass)"), std::string::npos) << m.unexpected[0];
  EXPECT_EQ(m.counts[1].deviations, 1);
  EXPECT_EQ(m.counts[1].fail, 1);
  EXPECT_NE(render_text(m, {}).find("FAIL !"), std::string::npos);
}

TEST(ConformMatrix, CONF_DEV_1_ExplainedDifferencePassesAndIsShownWithItsReason) {
  std::string err;
  const auto table = parse_deviations("# c\nsystem\tS.B\tfail\tKFD-Q-2\tthe real driver answers ENOTTY\n", &err);
  ASSERT_TRUE(table) << err;
  const Matrix m = build_matrix(two_columns(), *table);
  EXPECT_TRUE(m.unexpected.empty());
  const std::string text = render_text(m, *table);
  EXPECT_NE(text.find("FAIL ~"), std::string::npos);
  EXPECT_NE(text.find("the real driver answers ENOTTY"), std::string::npos) << text;
  EXPECT_NE(text.find("0 unexpected deviation(s)"), std::string::npos);
}

TEST(ConformMatrix, CONF_DEV_1_ARowForAnotherOutcomeOrImplementationDoesNotExplain) {
  const auto wrong_outcome = *parse_deviations("system\tS.B\tskip\tX-Y-1\tr\n", nullptr);
  EXPECT_EQ(build_matrix(two_columns(), wrong_outcome).unexpected.size(), 1u);
  const auto any_sys = *parse_deviations("sys*\tS.B\tfail\tX-Y-1\tr\n", nullptr);
  EXPECT_TRUE(build_matrix(two_columns(), any_sys).unexpected.empty()) << "implementation globs match column names";
  const auto wrong_impl = *parse_deviations("other\tS.*\tany\tX-Y-1\tr\n", nullptr);
  const Matrix m = build_matrix(two_columns(), wrong_impl);
  EXPECT_EQ(m.unexpected.size(), 1u);
  EXPECT_EQ(m.unused_expectations.size(), 1u) << "a row no run used is reported as stale";
}

TEST(ConformMatrix, CONF_DEV_2_ReferenceFailuresAndMissingTestsAreDeviations) {
  auto cols = two_columns();
  cols[0].results[0].outcome = Outcome::Fail;
  cols[1].results.pop_back();  // S.C absent from the other implementation
  const Matrix m = build_matrix(cols, {});
  EXPECT_EQ(m.unexpected.size(), 4u);  // rocref A_1 fail, system A_1 pass != fail, system B, system C missing
  EXPECT_EQ(m.counts[1].missing, 1);
}

TEST(ConformMatrix, CONF_DEV_1_MalformedTableRowsAreRejected) {
  std::string err;
  EXPECT_FALSE(parse_deviations("system\tS.B\tfail\n", &err));
  EXPECT_NE(err.find("line 1"), std::string::npos);
  EXPECT_FALSE(parse_deviations("system\tS.B\tbroken\tX-Y-1\tr\n", &err));
}

}  // namespace
}  // namespace rocref::conform
