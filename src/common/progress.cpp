// common/progress.cpp - the progress reporter of long commands (see progress.h).
#include "common/progress.h"

#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace rocref {

std::string progress_clock(double seconds) {
  const long t = seconds > 0 ? static_cast<long>(seconds + 0.5) : 0;
  char buf[32];
  if (t >= 3600) {
    std::snprintf(buf, sizeof buf, "%ld:%02ld:%02ld", t / 3600, t / 60 % 60, t % 60);
  } else {
    std::snprintf(buf, sizeof buf, "%ld:%02ld", t / 60, t % 60);
  }
  return buf;
}

std::string progress_line(size_t done, size_t total, double elapsed, std::string_view what, std::string_view extra) {
  const int width = static_cast<int>(std::to_string(total).size());
  char head[64];
  std::snprintf(head, sizeof head, "[%*zu/%zu] ", width, done, total);
  std::string line = head;
  line += what;
  line += "  (elapsed " + progress_clock(elapsed);
  if (done < total && done > 0) {
    const double left = elapsed / static_cast<double>(done) * static_cast<double>(total - done);
    line += ", about " + progress_clock(left) + " left";
  }
  if (!extra.empty()) {
    line += ", ";
    line += extra;
  }
  line += ")";
  return line;
}

ProgressReporter::Mode ProgressReporter::mode_for(int fd) {
  const char* env = std::getenv("ROCREF_PROGRESS");
  if (env != nullptr && std::strcmp(env, "log") == 0) return Mode::Log;
  return isatty(fd) ? Mode::Terminal : Mode::Log;
}

double ProgressReporter::steady_seconds() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

ProgressReporter::ProgressReporter(std::ostream& out, size_t total, Mode mode, Clock clock)
    : out_(out), total_(total), mode_(mode), clock_(std::move(clock)), start_(clock_()) {}

void ProgressReporter::item_done(std::string_view what, std::string_view extra) {
  ++done_;
  std::string line = progress_line(done_, total_, elapsed(), what, extra);
  if (mode_ == Mode::Log) {
    out_ << line << '\n' << std::flush;
    return;
  }
  // Too wide for one terminal line: WHAT gives way, so the counts and the estimate stay in sight.
  if (line.size() > kTerminalColumns) {
    const size_t over = line.size() - kTerminalColumns + 3;
    if (what.size() > over)
      line = progress_line(done_, total_, elapsed(), std::string(what.substr(0, what.size() - over)) + "...", extra);
    if (line.size() > kTerminalColumns) line.resize(kTerminalColumns);
  }
  out_ << '\r' << line << "\x1b[K" << std::flush;  // erase what a longer earlier line left
  line_open_ = true;
}

void ProgressReporter::finish() {
  if (!line_open_) return;
  out_ << '\n' << std::flush;
  line_open_ = false;
}

}  // namespace rocref
