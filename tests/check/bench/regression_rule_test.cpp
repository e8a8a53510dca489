// tests/check/bench/regression_rule_test.cpp - the 10% rule and the baseline format of the callgrind check.
#include <gtest/gtest.h>

#include <cmath>
#include <sstream>

#include "bench/queue/regression.h"

namespace rocref::bench {
namespace {

TEST(BenchRegression, MoreThanTenPercentAboveBaselineRegresses) {
  EXPECT_EQ(compare_instructions(40.0, 40.0), Verdict::Within);
  EXPECT_EQ(compare_instructions(43.9, 40.0), Verdict::Within);
  EXPECT_EQ(compare_instructions(44.1, 40.0), Verdict::Regressed);
  EXPECT_EQ(compare_instructions(35.0, 40.0), Verdict::Improved);
  EXPECT_EQ(compare_instructions(NAN, 40.0), Verdict::Regressed) << "an unreadable count must not pass";
}

TEST(BenchRegression, BaselineSkipsCommentsAndMalformedLines) {
  std::istringstream in("# instructions per push+pop\nrocref_cached 41.5  # x86-64\n\nbroken\nzero 0\nb 7\n");
  const auto entries = parse_baseline(in);
  ASSERT_EQ(entries.size(), 2u);
  EXPECT_EQ(entries[0].implementation, "rocref_cached");
  EXPECT_DOUBLE_EQ(entries[0].instructions_per_pair, 41.5);
  EXPECT_EQ(entries[1].implementation, "b");
}

}  // namespace
}  // namespace rocref::bench
