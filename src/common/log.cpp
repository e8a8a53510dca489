// common/log.cpp - ROCREF_LOG_LEVEL and ROCREF_TRACE_API (see log.h).
#include "common/log.h"

#include <sys/syscall.h>
#include <unistd.h>

#include <cstdarg>
#include <cstdio>
#include <cstdlib>

namespace rocref::log {

int parse_level(const char* text) noexcept {
  if (text == nullptr || text[0] < '0' || text[0] > '9' || text[1] != '\0') return kNone;
  const int v = text[0] - '0';
  return v > kDebug ? kDebug : v;
}

int level() noexcept {
  static const int value = parse_level(std::getenv("ROCREF_LOG_LEVEL"));
  return value;
}

bool parse_switch(const char* text) noexcept { return text != nullptr && text[0] != '\0' && !(text[0] == '0' && text[1] == '\0'); }

bool api_trace() noexcept {
  static const bool value = parse_switch(std::getenv("ROCREF_TRACE_API"));
  return value;
}

size_t format_line(char* buf, size_t size, const char* tag, const char* component, int pid, unsigned long tid,
                   const char* message) noexcept {
  if (size < 2) return 0;
  int n = std::snprintf(buf, size, ":%s:%s: [pid:%d tid:0x%lx] %s\n", tag, component, pid, tid, message);
  if (n < 0) n = 0;
  if (size_t(n) >= size) {
    n = int(size - 1);
    buf[n - 1] = '\n';
    buf[n] = '\0';
  }
  return size_t(n);
}

void write_line(const char* tag, const char* component, const char* message) noexcept {
  char line[640];
  const size_t n = format_line(line, sizeof line, tag, component, int(::getpid()),
                               static_cast<unsigned long>(::syscall(SYS_gettid)), message);
  if (n > 0) [[maybe_unused]] ssize_t w = ::write(2, line, n);
}

void write(int at, const char* component, const char* fmt, ...) noexcept {
  char message[512];
  va_list ap;
  va_start(ap, fmt);
  std::vsnprintf(message, sizeof message, fmt, ap);
  va_end(ap);
  const char tag[2] = {char('0' + (at < 0 ? 0 : at > 9 ? 9 : at)), '\0'};
  write_line(tag, component, message);
}

}  // namespace rocref::log
