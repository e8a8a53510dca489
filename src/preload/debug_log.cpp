// preload/debug_log.cpp - the interposer's opt-in trace to stderr.
#include "preload/debug_log.h"

#include <unistd.h>

#include <cstdarg>
#include <cstdio>
#include <cstdlib>

namespace rocref::preload {

bool debug_enabled() noexcept {
  static const int on = [] {
    const char* v = std::getenv("ROCREF_PRELOAD_TRACE");
    return v != nullptr && v[0] != '\0' && v[0] != '0' ? 1 : 0;
  }();
  return on != 0;
}

void debug_log(const char* fmt, ...) noexcept {
  if (!debug_enabled()) return;
  char buf[512];
  int n = std::snprintf(buf, sizeof buf, "[rocref-preload %d] ", int(::getpid()));
  va_list ap;
  va_start(ap, fmt);
  n += std::vsnprintf(buf + n, sizeof buf - size_t(n), fmt, ap);
  va_end(ap);
  if (n >= int(sizeof buf)) n = int(sizeof buf) - 1;
  buf[n++] = '\n';
  [[maybe_unused]] ssize_t w = ::write(2, buf, size_t(n));
}

}  // namespace rocref::preload
