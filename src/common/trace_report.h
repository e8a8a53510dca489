// common/trace_report.h - the compact account of a run: per layer, per dispatch, per checked clause.
//
// `rocref run` prints this instead of the line-per-event trace (TRACE-RUN-1..3): lines of at most
// 80 columns, a bounded number of them whatever the run did.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "common/trace.h"

namespace rocref::trace {

// TRACE-RUN-2: what one layer did. calls: its spans (an entry point or a step with an end);
// steps: its instant events; time_ns: the time inside its outermost spans (a span of the layer
// nested in another of the same layer on the same thread is not counted again; spans of the
// layers below are inside it).
struct LayerUsage {
  uint64_t calls = 0;
  uint64_t steps = 0;
  uint64_t time_ns = 0;
};
std::map<Layer, LayerUsage> layer_usage(const std::vector<Event>& events);

struct ReportInput {
  std::string title;  // what ran
  bool passed = false;
  std::vector<std::string> result_lines;  // what was checked, or what went wrong
  std::vector<Event> events;
  std::map<std::string, uint64_t> checks;  // trace_checks.h
  std::string trace_path;                  // where the full trace went ("" if nowhere)
};

// The report: at most kMaxReportLines lines of at most kReportColumns columns.
inline constexpr size_t kReportColumns = 80;
inline constexpr size_t kMaxReportLines = 40;
std::string render_report(const ReportInput& in);

}  // namespace rocref::trace
