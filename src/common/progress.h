// common/progress.h - progress of a long command: done / total, elapsed, estimated time left.
//
// One line format for every command that runs for more than a few seconds (`rocref verify`,
// `rocref bench`, `rocref conform`, and scripts/fuzz-gpu, a shell script, prints the same):
//   [ 3/41] WHAT  (elapsed 0:42, about 1:10 left, EXTRA)
// On a terminal the line is rewritten in place (carriage return, erase to the end of the line;
// a WHAT too wide for 79 columns is shortened, "...", before the estimate) and ended once at finish(); elsewhere (CI
// logs, files, pipes) each finished item is one line. The estimate is the finished items' mean time times the items
// left. The clock is a parameter, so tests run with a fake one.
#pragma once

#include <cstddef>
#include <functional>
#include <ostream>
#include <string>
#include <string_view>

namespace rocref {

// "0:42", "1:02:03": seconds, rounded, as minutes:seconds (hours when there are any).
std::string progress_clock(double seconds);
// The line of `done` finished of `total` after `elapsed` seconds, without any terminal control.
std::string progress_line(size_t done, size_t total, double elapsed, std::string_view what,
                          std::string_view extra = {});

class ProgressReporter {
 public:
  enum class Mode { Terminal, Log };
  using Clock = std::function<double()>;  // seconds since any fixed point

  // Terminal when `fd` is a terminal and ROCREF_PROGRESS is not "log"; Log otherwise.
  static Mode mode_for(int fd);
  static double steady_seconds();

  ProgressReporter(std::ostream& out, size_t total, Mode mode, Clock clock = steady_seconds);
  ~ProgressReporter() { finish(); }
  ProgressReporter(const ProgressReporter&) = delete;
  ProgressReporter& operator=(const ProgressReporter&) = delete;

  // One more item finished: its description, and what else to say after the estimate.
  void item_done(std::string_view what, std::string_view extra = {});
  // Terminal: ends the rewritten line (once). Log: nothing.
  void finish();
  size_t done() const { return done_; }
  double elapsed() const { return clock_() - start_; }

  static constexpr size_t kTerminalColumns = 79;

 private:
  std::ostream& out_;
  size_t total_;
  Mode mode_;
  Clock clock_;
  double start_;
  size_t done_ = 0;
  bool line_open_ = false;
};

}  // namespace rocref
