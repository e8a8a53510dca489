// tests/unit/trace/trace_report_test.cpp - the check counters, the trace file of a child process,
// and the compact report of `rocref run` (spec/trace.md), with their planted bugs.
#include <gtest/gtest.h>

#include <sstream>

#include "common/trace.h"
#include "common/trace_checks.h"
#include "common/trace_file.h"
#include "common/trace_mutant.h"
#include "common/trace_report.h"

namespace rocref::trace {
namespace {

class TraceChecks : public ::testing::Test {
 protected:
  void SetUp() override {
    enable(true);
    clear();
  }
  void TearDown() override {
    enable(false);
    clear();
  }
};

// Two sites of one clause and one of another, passed 3 + 2 and 4 times.
std::map<std::string, uint64_t> pass_sites() {
  for (int i = 0; i < 3; ++i) ROCREF_CHECKED("TEST-A-1");
  for (int i = 0; i < 2; ++i) ROCREF_CHECKED("TEST-A-1");
  for (int i = 0; i < 4; ++i) ROCREF_CHECKED("TEST-B-2");
  return check_counts();
}

TEST_F(TraceChecks, TRACE_CHK_1_EachPassOfEverySiteCountsForItsClause) {
  const auto counts = pass_sites();
  EXPECT_EQ(counts.at("TEST-A-1"), 5u);
  EXPECT_EQ(counts.at("TEST-B-2"), 4u);
  clear();
  EXPECT_EQ(check_counts().count("TEST-A-1"), 0u) << "clear() resets the counts";
}

TEST_F(TraceChecks, TRACE_CHK_1_NothingCountsWhileTracingIsOff) {
  enable(false);
  const auto counts = pass_sites();
  EXPECT_EQ(counts.count("TEST-A-1"), 0u);
  EXPECT_EQ(counts.count("TEST-B-2"), 0u);
}

TEST_F(TraceChecks, TRACE_CHK_1_CheckCountedOnceIsCaught) {
  ScopedTraceMutant m(TraceMutant::CheckCountedOnce);
  const auto counts = pass_sites();
  EXPECT_NE(counts.at("TEST-A-1"), 5u) << "the planted bug must change what the counters say";
}

Event ev(Layer layer, Phase phase, uint64_t t, uint32_t thread = 0, std::string name = "call") {
  return Event{layer, phase, std::move(name), {}, t, thread};
}

// hip: a call [0, 100] with a hip call nested in it [10, 20]; thunk [30, 50] inside; on another
// thread a hip call [5, 45]; one instant step.
std::vector<Event> nested_events() {
  return {ev(Layer::Hip, Phase::Begin, 0),   ev(Layer::Hip, Phase::Begin, 5, 1), ev(Layer::Hip, Phase::Begin, 10),
          ev(Layer::Hip, Phase::End, 20),    ev(Layer::Thunk, Phase::Begin, 30), ev(Layer::Thunk, Phase::Instant, 40),
          ev(Layer::Hip, Phase::End, 45, 1), ev(Layer::Thunk, Phase::End, 50),   ev(Layer::Hip, Phase::End, 100)};
}

TEST(TraceReport, TRACE_RUN_2_CallsStepsAndTimeInsideTheOutermostCalls) {
  const auto usage = layer_usage(nested_events());
  EXPECT_EQ(usage.at(Layer::Hip).calls, 3u);
  EXPECT_EQ(usage.at(Layer::Hip).steps, 0u);
  EXPECT_EQ(usage.at(Layer::Hip).time_ns, 100u + 40u) << "the nested hip call is inside the outer one";
  EXPECT_EQ(usage.at(Layer::Thunk).calls, 1u);
  EXPECT_EQ(usage.at(Layer::Thunk).steps, 1u);
  EXPECT_EQ(usage.at(Layer::Thunk).time_ns, 20u);
}

TEST(TraceReport, TRACE_RUN_2_AnEndWithoutItsBeginIsNotACall) {
  const auto usage = layer_usage({ev(Layer::Kfd, Phase::End, 7), ev(Layer::Kfd, Phase::Begin, 8)});
  EXPECT_EQ(usage.at(Layer::Kfd).calls, 1u);
  EXPECT_EQ(usage.at(Layer::Kfd).time_ns, 0u);
}

TEST(TraceReport, TRACE_RUN_2_LayerTimeCountsNestedIsCaught) {
  ScopedTraceMutant m(TraceMutant::LayerTimeCountsNested);
  EXPECT_NE(layer_usage(nested_events()).at(Layer::Hip).time_ns, 140u);
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

TEST(TraceReport, TRACE_RUN_1_BoundedNarrowAndComplete) {
  ReportInput in;
  in.title = "a-program";
  in.passed = true;
  for (int i = 0; i < 20; ++i) in.result_lines.push_back("result line " + std::string(200, 'x'));
  for (int i = 0; i < 100; ++i) {
    Event e = ev(Layer::Gpu, Phase::Instant, static_cast<uint64_t>(i), 0, "dispatch stats");
    e.detail = i % 2 ? "id=" + std::to_string(i) + " code=host work-groups=1 waves=1"
                     : "id=" + std::to_string(i) +
                           " code=gfx900 work-groups=64 waves=256 instructions=7680 scalar=4096 vector=3584 "
                           "lane-instructions=9";
    in.events.push_back(e);
  }
  for (int i = 0; i < 60; ++i) in.checks["CLAUSE-" + std::to_string(i)] = 1000000000ull + i;
  in.trace_path = "/" + std::string(300, 'p') + "/rocref-trace.json";
  const std::string text = render_report(in);
  const auto lines = lines_of(text);
  EXPECT_LE(lines.size(), kMaxReportLines) << text;
  for (const std::string& line : lines) EXPECT_LE(line.size(), kReportColumns) << line;
  EXPECT_NE(text.find("== a-program: PASS"), std::string::npos) << text;
  EXPECT_NE(text.find("#0    gfx900    64 wg    256 waves       7680 instr (4096 s, 3584 v)"), std::string::npos)
      << text;
  EXPECT_NE(text.find("42 more gfx900, 322560 instructions among them"), std::string::npos) << text;
  EXPECT_NE(text.find("50 host-compiled (copies, fills, host kernels): 50 wg, 50 waves"), std::string::npos) << text;
  EXPECT_NE(text.find("checks run: 60 clauses"), std::string::npos) << text;
  EXPECT_NE(text.find("CLAUSE-0     1000000000"), std::string::npos) << text;
}

TEST(TraceReport, TRACE_RUN_1_LayersInStackOrderWithTheirCounts) {
  ReportInput in;
  in.title = "t";
  in.events = nested_events();
  const std::string text = render_report(in);
  EXPECT_NE(text.find("== t: FAIL"), std::string::npos);
  const size_t hip = text.find("  hip             3          0      0.000");
  const size_t thunk = text.find("  thunk           1          1      0.000");
  ASSERT_NE(hip, std::string::npos) << text;
  ASSERT_NE(thunk, std::string::npos) << text;
  EXPECT_LT(hip, thunk);
}

TEST(TraceFile, TRACE_FILE_1_SectionsOfSeveralRecordersReadBack) {
  Event a = ev(Layer::Hip, Phase::Begin, 10, 0, "hip\tMalloc");
  a.detail = "size=16\nnext \\ line";
  const Event b = ev(Layer::Hip, Phase::End, 30, 0, "hip\tMalloc");
  const Event c = ev(Layer::Kfd, Phase::Instant, 5, 0, "ioctl");
  std::string text = format_section({a, b}, 1000, {{"AQL-ERR-1", 2}}, 42);
  text += "E\tnot-a-layer\ti\t0\t1\tx\t\n";  // skipped
  text += "E\tgpu\tQ\t0\t1\tx\t\n";          // skipped: no such phase
  text += "C\tAQL-ERR-1\tmany\n";            // skipped
  text += format_section({c}, 1020, {{"AQL-ERR-1", 3}, {"KFD-IOC-1", 1}}, 42);
  TraceDump dump;
  ASSERT_TRUE(parse_dump(text, dump));
  ASSERT_EQ(dump.events.size(), 3u);
  EXPECT_EQ(dump.events[0].name, "hip\tMalloc");
  EXPECT_EQ(dump.events[0].detail, "size=16\nnext \\ line");
  EXPECT_EQ(dump.events[0].time_ns, 0u) << "times count from the earliest event";
  EXPECT_EQ(dump.events[1].layer, Layer::Kfd);
  EXPECT_EQ(dump.events[1].time_ns, 15u) << "both sections on one clock";
  EXPECT_EQ(dump.events[2].time_ns, 20u);
  EXPECT_NE(dump.events[1].thread, dump.events[0].thread) << "each recorder's thread 0 is its own track";
  EXPECT_EQ(dump.checks.at("AQL-ERR-1"), 5u);
  EXPECT_EQ(dump.checks.at("KFD-IOC-1"), 1u);
  TraceDump none;
  EXPECT_FALSE(parse_dump("E\thip\tB\t0\t1\tx\t\n", none)) << "an event outside any section";
  EXPECT_TRUE(none.events.empty());
}

}  // namespace
}  // namespace rocref::trace
