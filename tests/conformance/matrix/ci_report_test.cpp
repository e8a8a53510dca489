// tests/conformance/matrix/ci_report_test.cpp - the matrix as JUnit per implementation and as Markdown.
#include <gtest/gtest.h>

#include "ci_report.h"
#include "matrix.h"

namespace rocref::conform {
namespace {

std::vector<Column> columns() {
  std::vector<TestResult> ours{{"S", "A_1", Outcome::Pass, ""}, {"S", "B", Outcome::Pass, ""},
                               {"S", "C", Outcome::Skip, "why"}, {"S", "D", Outcome::Pass, ""}};
  std::vector<TestResult> theirs{{"S", "A_1", Outcome::Pass, ""}, {"S", "B", Outcome::Fail, "boom <here>"},
                                 {"S", "C", Outcome::Skip, "why"}, {"S", "D", Outcome::Fail, "a|b"}};
  return {{"rocref", ours, ""}, {"system", theirs, ""}};
}

// S.D's failure is explained by the table, S.B's is not: only S.B fails the CI column.
TEST(ConformCi, JunitFailsExactlyTheUnexplainedDeviations) {
  const auto table = *parse_deviations("system\tS.D\tfail\tKFD-Q-2\tthe real driver answers ENOTTY\n", nullptr);
  const Matrix m = build_matrix(columns(), table);
  const std::string xml = junit_for_column(m, 1, table);
  EXPECT_NE(xml.find("name=\"rocref conform system\" tests=\"4\" failures=\"1\""), std::string::npos) << xml;
  EXPECT_NE(xml.find("name=\"B\""), std::string::npos);
  EXPECT_NE(xml.find("<failure message=\"fail, unexpected deviation from rocref\">boom &lt;here&gt;</failure>"),
            std::string::npos) << xml;
  EXPECT_NE(xml.find("expected deviation (KFD-Q-2): the real driver answers ENOTTY"), std::string::npos) << xml;
  const std::string reference = junit_for_column(m, 0, table);
  EXPECT_NE(reference.find("tests=\"4\" failures=\"0\" errors=\"0\" skipped=\"1\""), std::string::npos) << reference;
}

TEST(ConformCi, ColumnThatCouldNotRunIsAFailingCase) {
  auto cols = columns();
  cols[1].results.clear();
  cols[1].error = "exit status 127, no report";
  const Matrix m = build_matrix(cols, {});
  const std::string xml = junit_for_column(m, 1, {});
  EXPECT_NE(xml.find("name=\"suite runs\""), std::string::npos) << xml;
  EXPECT_NE(xml.find("exit status 127"), std::string::npos);
}

TEST(ConformCi, MarkdownHasTotalsARowPerTestAndMarksDeviations) {
  const Matrix m = build_matrix(columns(), {});
  const std::string md = render_markdown(m, {});
  EXPECT_NE(md.find("| system | 1 | 2 | 1 | 0 | 2 |"), std::string::npos) << md;
  EXPECT_NE(md.find("| `S.B` | pass | **FAIL** **!** ["), std::string::npos) << md;
  EXPECT_NE(md.find("a\\|b"), std::string::npos) << "a '|' in a message must not end the cell\n" << md;
  EXPECT_NE(md.find("## 2 unexpected deviation(s)"), std::string::npos) << md;
}

}  // namespace
}  // namespace rocref::conform
