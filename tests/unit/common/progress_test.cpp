// tests/unit/common/progress_test.cpp - the progress reporter of long commands (common/progress.h,
// spec/trace.md TRACE-PROG-1), on a fake clock, in both modes.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <sstream>

#include "common/progress.h"

namespace rocref {
namespace {

struct FakeClock {
  double now = 100.0;
  ProgressReporter::Clock clock() {
    return [this] { return now; };
  }
};

TEST(Progress, TRACE_PROG_1_ClockText) {
  EXPECT_EQ(progress_clock(0), "0:00");
  EXPECT_EQ(progress_clock(42.4), "0:42");
  EXPECT_EQ(progress_clock(59.6), "1:00");
  EXPECT_EQ(progress_clock(3723), "1:02:03");
  EXPECT_EQ(progress_clock(-5), "0:00");
}

TEST(Progress, TRACE_PROG_1_LogModeWritesOneLinePerItemWithTheEstimate) {
  FakeClock t;
  std::ostringstream out;
  {
    ProgressReporter p(out, 4, ProgressReporter::Mode::Log, t.clock());
    t.now += 10;
    p.item_done("first");
    t.now += 20;
    p.item_done("second", "2 running");
    t.now += 30;
    p.item_done("third");
    t.now += 40;
    p.item_done("fourth");
  }
  EXPECT_EQ(out.str(),
            "[1/4] first  (elapsed 0:10, about 0:30 left)\n"
            "[2/4] second  (elapsed 0:30, about 0:30 left, 2 running)\n"
            "[3/4] third  (elapsed 1:00, about 0:20 left)\n"
            "[4/4] fourth  (elapsed 1:40)\n");
}

TEST(Progress, TRACE_PROG_1_TerminalModeRewritesOneLineAndEndsIt) {
  FakeClock t;
  std::ostringstream out;
  ProgressReporter p(out, 12, ProgressReporter::Mode::Terminal, t.clock());
  t.now += 6;
  p.item_done("a");
  EXPECT_EQ(out.str(), "\r[ 1/12] a  (elapsed 0:06, about 1:06 left)\x1b[K");
  t.now += 6;
  p.item_done(std::string(200, 'w'));
  const std::string second = out.str().substr(out.str().rfind('\r'));
  EXPECT_EQ(second.size(), 1 + ProgressReporter::kTerminalColumns + 3) << "cut to the terminal's width";
  EXPECT_NE(second.find("w...  (elapsed 0:12, about 1:00 left)\x1b[K"), std::string::npos)
      << "WHAT gives way to the estimate: " << second;
  EXPECT_EQ(out.str().find('\n'), std::string::npos) << "no line ends before finish()";
  p.finish();
  p.finish();
  EXPECT_EQ(out.str().back(), '\n');
  EXPECT_EQ(out.str().find('\n'), out.str().size() - 1) << "ended once";
  EXPECT_EQ(p.done(), 2u);
}

TEST(Progress, TRACE_PROG_1_NothingReportedLeavesNothing) {
  FakeClock t;
  std::ostringstream out;
  { ProgressReporter p(out, 3, ProgressReporter::Mode::Terminal, t.clock()); }
  EXPECT_EQ(out.str(), "");
}

TEST(Progress, TRACE_PROG_1_ModeFollowsTheDescriptorAndTheSwitch) {
  // A pipe is no terminal.
  int fds[2];
  ASSERT_EQ(pipe(fds), 0);
  EXPECT_EQ(ProgressReporter::mode_for(fds[1]), ProgressReporter::Mode::Log);
  close(fds[0]);
  close(fds[1]);
  setenv("ROCREF_PROGRESS", "log", 1);
  EXPECT_EQ(ProgressReporter::mode_for(0), ProgressReporter::Mode::Log);
  unsetenv("ROCREF_PROGRESS");
}

}  // namespace
}  // namespace rocref
