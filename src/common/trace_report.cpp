// common/trace_report.cpp - the compact report of `rocref run` (see trace_report.h).
#include "common/trace_report.h"

#include <cstdio>
#include <utility>

#include "common/trace_format.h"
#include "common/trace_mutant.h"

namespace rocref::trace {
namespace {

constexpr size_t kMaxResultLines = 6;
constexpr size_t kMaxDispatchLines = 8;
constexpr size_t kMaxCheckLines = 8;
constexpr size_t kChecksPerLine = 3;

void add_line(std::string& out, std::string line) {
  if (line.size() > kReportColumns) line.resize(kReportColumns);
  out += line;
  out += '\n';
}

std::string format(const char* fmt, auto... args) {
  char buf[256];
  std::snprintf(buf, sizeof buf, fmt, args...);
  return buf;
}

unsigned long long count_of(const DispatchStats& d, const char* key) {
  const auto it = d.counts.find(key);
  return it == d.counts.end() ? 0ull : static_cast<unsigned long long>(it->second);
}

}  // namespace

std::map<Layer, LayerUsage> layer_usage(const std::vector<Event>& events) {
  std::map<Layer, LayerUsage> usage;
  // Open spans' start times, per thread and layer.
  std::map<std::pair<uint32_t, Layer>, std::vector<uint64_t>> open;
  for (const Event& e : events) {
    LayerUsage& u = usage[e.layer];
    if (e.phase == Phase::Instant) {
      ++u.steps;
    } else if (e.phase == Phase::Begin) {
      ++u.calls;
      open[{e.thread, e.layer}].push_back(e.time_ns);
    } else {
      auto& starts = open[{e.thread, e.layer}];
      if (starts.empty()) continue;  // an end whose begin came before recording started
      const uint64_t start = starts.back();
      starts.pop_back();
      // Mutant TRACE-RUN-2: spans nested in the layer's own spans counted again.
      if (starts.empty() || trace_mutant_active(TraceMutant::LayerTimeCountsNested))
        u.time_ns += e.time_ns >= start ? e.time_ns - start : 0;
    }
  }
  return usage;
}

std::string render_report(const ReportInput& in) {
  std::string out;
  add_line(out, "== " + in.title + ": " + (in.passed ? "PASS" : "FAIL"));
  for (size_t i = 0; i < in.result_lines.size() && i < kMaxResultLines; ++i) add_line(out, "   " + in.result_lines[i]);
  if (in.result_lines.size() > kMaxResultLines)
    add_line(out, format("   ... %zu more lines", in.result_lines.size() - kMaxResultLines));

  add_line(out, "layer        calls      steps    time ms   (time: inside its outermost calls)");
  for (const auto& [layer, u] : layer_usage(in.events)) {
    add_line(out, format("  %-6.*s %10llu %10llu %10.3f", static_cast<int>(layer_name(layer).size()),
                         layer_name(layer).data(), static_cast<unsigned long long>(u.calls),
                         static_cast<unsigned long long>(u.steps), static_cast<double>(u.time_ns) / 1e6));
  }

  // gfx900 dispatches one a line; the host-compiled ones (the runtimes' copies and fills, the
  // host samples' kernels) summed on one.
  const std::vector<DispatchStats> dispatches = dispatch_stats(in.events);
  add_line(out, format("dispatches: %zu (ISA-TRACE-1)", dispatches.size()));
  size_t isa = 0, host = 0;
  unsigned long long rest_instructions = 0, host_groups = 0, host_waves = 0;
  for (const DispatchStats& d : dispatches) {
    if (d.code != "gfx900") {
      ++host;
      host_groups += count_of(d, "work-groups");
      host_waves += count_of(d, "waves");
      continue;
    }
    if (isa++ >= kMaxDispatchLines) {
      rest_instructions += count_of(d, "instructions");
      continue;
    }
    add_line(out, format("  #%-4llu gfx900 %5llu wg %6llu waves %10llu instr (%llu s, %llu v)", count_of(d, "id"),
                         count_of(d, "work-groups"), count_of(d, "waves"), count_of(d, "instructions"),
                         count_of(d, "scalar"), count_of(d, "vector")));
  }
  if (isa > kMaxDispatchLines) {
    add_line(out,
             format("  ... %zu more gfx900, %llu instructions among them", isa - kMaxDispatchLines, rest_instructions));
  }
  if (host != 0) {
    add_line(out, format("  %zu host-compiled (copies, fills, host kernels): %llu wg, %llu waves", host, host_groups,
                         host_waves));
  }

  uint64_t total = 0;
  for (const auto& [clause, n] : in.checks) total += n;
  add_line(out, format("checks run: %zu clauses, %llu checks (clause times)", in.checks.size(),
                       static_cast<unsigned long long>(total)));
  std::string line;
  size_t on_line = 0, lines = 0, shown = 0;
  for (const auto& [clause, n] : in.checks) {
    if (lines == kMaxCheckLines) break;
    line += format("  %-12s %9llu", clause.c_str(), static_cast<unsigned long long>(n));
    ++shown;
    if (++on_line == kChecksPerLine) {
      add_line(out, line);
      line.clear();
      on_line = 0;
      ++lines;
    }
  }
  if (on_line != 0) add_line(out, line);
  if (shown < in.checks.size()) add_line(out, format("  ... %zu more clauses", in.checks.size() - shown));

  if (!in.trace_path.empty()) {
    add_line(out, format("trace: %zu events in", in.events.size()));
    add_line(out, "  " + in.trace_path);
    add_line(out, "  (open in ui.perfetto.dev; --trace-text prints every event)");
  }
  return out;
}

}  // namespace rocref::trace
