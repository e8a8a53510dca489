// common/trace_format.cpp - JSON and text renderings of trace events (see trace_format.h).
#include "common/trace_format.h"

#include <cstdio>
#include <map>
#include <set>
#include <string_view>

namespace rocref::trace {
namespace {

void append_json_string(std::string& out, std::string_view text) {
  out += '"';
  for (const char c : text) {
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\t': out += "\\t"; break;
      case '\r': out += "\\r"; break;
      default:
        if (static_cast<unsigned char>(c) < 0x20) {
          char buf[8];
          std::snprintf(buf, sizeof buf, "\\u%04x", c);
          out += buf;
        } else {
          out += c;
        }
    }
  }
  out += '"';
}

int layer_pid(Layer layer) { return static_cast<int>(layer) + 1; }

}  // namespace

std::string to_chrome_json(const std::vector<Event>& events) {
  std::string out = "{\"displayTimeUnit\":\"ns\",\"traceEvents\":[";
  bool first = true;
  auto begin_object = [&] {
    if (!first) out += ',';
    first = false;
    out += "\n{";
  };
  std::set<std::pair<int, uint32_t>> tracks;
  for (const Event& e : events) tracks.emplace(layer_pid(e.layer), e.thread);
  std::set<int> processes;
  for (const auto& [pid, tid] : tracks) {
    if (processes.insert(pid).second) {
      begin_object();
      out += "\"ph\":\"M\",\"name\":\"process_name\",\"pid\":" + std::to_string(pid) + ",\"args\":{\"name\":";
      append_json_string(out, layer_name(static_cast<Layer>(pid - 1)));
      out += "}}";
      begin_object();
      out += "\"ph\":\"M\",\"name\":\"process_sort_index\",\"pid\":" + std::to_string(pid) +
             ",\"args\":{\"sort_index\":" + std::to_string(pid) + "}}";
    }
    begin_object();
    out += "\"ph\":\"M\",\"name\":\"thread_name\",\"pid\":" + std::to_string(pid) + ",\"tid\":" + std::to_string(tid) +
           ",\"args\":{\"name\":\"thread " + std::to_string(tid) + "\"}}";
  }
  for (const Event& e : events) {
    begin_object();
    out += "\"ph\":\"";
    out += static_cast<char>(e.phase);
    out += "\",\"pid\":" + std::to_string(layer_pid(e.layer)) + ",\"tid\":" + std::to_string(e.thread);
    char ts[32];
    std::snprintf(ts, sizeof ts, "%.3f", static_cast<double>(e.time_ns) / 1000.0);
    out += ",\"ts\":";
    out += ts;
    out += ",\"cat\":";
    append_json_string(out, layer_name(e.layer));
    out += ",\"name\":";
    append_json_string(out, e.name);
    if (e.phase == Phase::Instant) out += ",\"s\":\"t\"";
    if (!e.detail.empty()) {
      out += ",\"args\":{\"detail\":";
      append_json_string(out, e.detail);
      out += '}';
    }
    out += '}';
  }
  out += "\n]}\n";
  return out;
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

}  // namespace rocref::trace
