// common/trace_format.cpp - JSON (nlohmann-json) and text renderings of trace events (see trace_format.h).
#include "common/trace_format.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdio>
#include <map>
#include <set>
#include <string_view>

namespace rocref::trace {
namespace {

// Ordered: the fields keep the trace-event format's customary order (ph, name, pid, ...).
using json = nlohmann::ordered_json;

int layer_pid(Layer layer) { return static_cast<int>(layer) + 1; }

constexpr std::string_view kDispatchStats = "dispatch stats";

}  // namespace

std::string to_chrome_json(const std::vector<Event>& events) {
  json trace_events = json::array();
  std::set<std::pair<int, uint32_t>> tracks;
  for (const Event& e : events) tracks.emplace(layer_pid(e.layer), e.thread);
  std::set<int> processes;
  for (const auto& [pid, tid] : tracks) {
    if (processes.insert(pid).second) {
      trace_events.push_back(json{{"ph", "M"}, {"name", "process_name"}, {"pid", pid},
                                  {"args", {{"name", std::string(layer_name(static_cast<Layer>(pid - 1)))}}}});
      trace_events.push_back(
          json{{"ph", "M"}, {"name", "process_sort_index"}, {"pid", pid}, {"args", {{"sort_index", pid}}}});
    }
    trace_events.push_back(json{{"ph", "M"}, {"name", "thread_name"}, {"pid", pid}, {"tid", tid},
                                {"args", {{"name", "thread " + std::to_string(tid)}}}});
  }
  for (const Event& e : events) {
    json ev{{"ph", std::string(1, static_cast<char>(e.phase))},
            {"pid", layer_pid(e.layer)},
            {"tid", e.thread},
            {"ts", static_cast<double>(e.time_ns) / 1000.0},  // microseconds, the format's unit
            {"cat", std::string(layer_name(e.layer))},
            {"name", e.name}};
    if (e.phase == Phase::Instant) ev["s"] = "t";
    if (!e.detail.empty()) ev["args"] = {{"detail", e.detail}};
    if (e.name == kDispatchStats) {  // the counters as numbers, for tools reading the JSON
      for (const DispatchStats& d : dispatch_stats({e})) {
        ev["args"]["code"] = d.code;
        for (const auto& [key, value] : d.counts) ev["args"][key] = value;
      }
    }
    trace_events.push_back(std::move(ev));
  }
  // Invalid UTF-8 in a name or detail is replaced, never a throw from a trace dump.
  return json{{"displayTimeUnit", "ns"}, {"traceEvents", std::move(trace_events)}}.dump(-1, ' ', false,
                                                                                        json::error_handler_t::replace) +
         "\n";
}

std::string to_text(const std::vector<Event>& events) {
  std::string out;
  std::map<uint32_t, int> depth;  // per thread
  const uint64_t origin = events.empty() ? 0 : events.front().time_ns;
  for (const Event& e : events) {
    int& d = depth[e.thread];
    if (e.phase == Phase::End) {
      if (d > 0) --d;
      continue;
    }
    char head[64];
    std::snprintf(head, sizeof head, "%10.3f us  t%-2u %-6.*s ", static_cast<double>(e.time_ns - origin) / 1000.0,
                  e.thread, static_cast<int>(layer_name(e.layer).size()), layer_name(e.layer).data());
    out += head;
    out.append(static_cast<size_t>(d) * 2, ' ');
    out += e.phase == Phase::Begin ? "> " : "- ";
    out += e.name;
    if (!e.detail.empty()) {
      out += "  ";
      out += e.detail;
    }
    out += '\n';
    if (e.phase == Phase::Begin) ++d;
  }
  return out;
}

std::vector<DispatchStats> dispatch_stats(const std::vector<Event>& events) {
  std::vector<DispatchStats> out;
  for (const Event& e : events) {
    if (e.name != kDispatchStats) continue;
    DispatchStats d;
    size_t pos = 0;
    while (pos < e.detail.size()) {
      const size_t end = std::min(e.detail.find(' ', pos), e.detail.size());
      const std::string word = e.detail.substr(pos, end - pos);
      pos = end + 1;
      const size_t eq = word.find('=');
      if (eq == std::string::npos) continue;
      const std::string key = word.substr(0, eq), value = word.substr(eq + 1);
      if (key == "code") {
        d.code = value;
      } else if (!value.empty() && value.find_first_not_of("0123456789") == std::string::npos) {
        d.counts[key] = std::stoull(value);
      }
    }
    out.push_back(std::move(d));
  }
  return out;
}

std::string dispatch_table(const std::vector<Event>& events) {
  std::string out;
  for (const DispatchStats& d : dispatch_stats(events)) {
    auto get = [&d](const char* key) {
      const auto it = d.counts.find(key);
      return it == d.counts.end() ? 0ull : static_cast<unsigned long long>(it->second);
    };
    char line[240];
    if (d.code == "gfx900") {
      std::snprintf(
          line, sizeof line,
          "   dispatch %llu (gfx900): %llu work-groups, %llu waves, %llu instructions (%llu scalar, %llu vector), "
          "%llu lane-instructions\n",
          get("id"), get("work-groups"), get("waves"), get("instructions"), get("scalar"), get("vector"),
          get("lane-instructions"));
    } else {
      std::snprintf(line, sizeof line, "   dispatch %llu (%s): %llu work-groups, %llu waves\n", get("id"),
                    d.code.c_str(), get("work-groups"), get("waves"));
    }
    out += line;
  }
  return out;
}

}  // namespace rocref::trace
