// common/trace_file.cpp - the exit dump of ROCREF_TRACE_FILE and its reader (see trace_file.h).
#include "common/trace_file.h"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <set>

#include "common/trace_checks.h"

namespace rocref::trace {
namespace {

void append_escaped(std::string& out, const std::string& s) {
  for (const char c : s) {
    if (c == '\t') {
      out += "\\t";
    } else if (c == '\n') {
      out += "\\n";
    } else if (c == '\\') {
      out += "\\\\";
    } else {
      out += c;
    }
  }
}

std::string unescape(const std::string& s) {
  std::string out;
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] != '\\' || i + 1 == s.size()) {
      out += s[i];
      continue;
    }
    const char c = s[++i];
    out += c == 't' ? '\t' : c == 'n' ? '\n' : c;
  }
  return out;
}

std::vector<std::string> split_tabs(const std::string& line) {
  std::vector<std::string> fields;
  size_t pos = 0;
  while (true) {
    const size_t tab = line.find('\t', pos);
    fields.push_back(line.substr(pos, tab == std::string::npos ? std::string::npos : tab - pos));
    if (tab == std::string::npos) return fields;
    pos = tab + 1;
  }
}

bool to_u64(const std::string& s, uint64_t& v) {
  if (s.empty() || s.size() > 20 || s.find_first_not_of("0123456789") != std::string::npos) return false;
  v = std::strtoull(s.c_str(), nullptr, 10);
  return true;
}

void write_all(int fd, const std::string& text) {
  size_t done = 0;
  while (done < text.size()) {
    const ssize_t n = ::write(fd, text.data() + done, text.size() - done);
    if (n <= 0) return;
    done += static_cast<size_t>(n);
  }
}

void dump_at_exit() {
  const char* path = std::getenv(kTraceFileEnv);
  if (path == nullptr || *path == '\0') return;
  const std::string section = format_section(snapshot(), origin_steady_ns(), check_counts(), ::getpid());
  const int fd = ::open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0600);
  if (fd < 0) return;
  ::flock(fd, LOCK_EX);  // the process's other recorder copies append their sections too
  write_all(fd, section);
  ::flock(fd, LOCK_UN);
  ::close(fd);
}

}  // namespace

std::string format_section(const std::vector<Event>& events, uint64_t origin_ns,
                           const std::map<std::string, uint64_t>& checks, long pid) {
  std::string out = "S\t" + std::to_string(pid) + "\n";
  for (const Event& e : events) {
    out += "E\t" + std::string(layer_name(e.layer)) + "\t" + static_cast<char>(e.phase) + "\t" +
           std::to_string(e.thread) + "\t" + std::to_string(origin_ns + e.time_ns) + "\t";
    append_escaped(out, e.name);
    out += '\t';
    append_escaped(out, e.detail);
    out += '\n';
  }
  for (const auto& [clause, count] : checks) {
    out += "C\t";
    append_escaped(out, clause);
    out += "\t" + std::to_string(count) + "\n";
  }
  return out;
}

bool parse_dump(const std::string& text, TraceDump& out) {
  bool any = false;
  uint32_t thread_base = 0, next_base = 0;
  size_t pos = 0;
  std::vector<Event> events;
  while (pos < text.size()) {
    const size_t nl = text.find('\n', pos);
    const std::string line = text.substr(pos, nl == std::string::npos ? std::string::npos : nl - pos);
    pos = nl == std::string::npos ? text.size() : nl + 1;
    const std::vector<std::string> f = split_tabs(line);
    if (f[0] == "S" && f.size() == 2) {
      any = true;
      thread_base = next_base;  // each recorder copy numbers its threads from 0
      continue;
    }
    if (!any) continue;
    if (f[0] == "C" && f.size() == 3) {
      uint64_t n = 0;
      if (to_u64(f[2], n)) out.checks[unescape(f[1])] += n;
      continue;
    }
    if (f[0] != "E" || f.size() != 7 || f[2].size() != 1) continue;
    Event e{};
    bool layer_ok = false;
    for (uint8_t l = 0; l < static_cast<uint8_t>(Layer::kCount); ++l) {
      if (layer_name(static_cast<Layer>(l)) == f[1]) {
        e.layer = static_cast<Layer>(l);
        layer_ok = true;
      }
    }
    const char ph = f[2][0];
    uint64_t thread = 0, time = 0;
    if (!layer_ok || (ph != 'B' && ph != 'E' && ph != 'i') || !to_u64(f[3], thread) || thread > UINT32_MAX / 2 ||
        !to_u64(f[4], time))
      continue;
    e.phase = static_cast<Phase>(ph);
    e.thread = thread_base + static_cast<uint32_t>(thread);
    next_base = std::max(next_base, e.thread + 1);
    e.time_ns = time;
    e.name = unescape(f[5]);
    e.detail = unescape(f[6]);
    events.push_back(std::move(e));
  }
  std::stable_sort(events.begin(), events.end(), [](const Event& a, const Event& b) { return a.time_ns < b.time_ns; });
  const uint64_t origin = events.empty() ? 0 : events.front().time_ns;
  for (Event& e : events) e.time_ns -= origin;
  out.events.insert(out.events.end(), std::make_move_iterator(events.begin()), std::make_move_iterator(events.end()));
  return any;
}

void arm_exit_dump() {
  const char* path = std::getenv(kTraceFileEnv);
  if (path == nullptr || *path == '\0') return;
  enable(true);
  std::atexit(dump_at_exit);
}

}  // namespace rocref::trace
