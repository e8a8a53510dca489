// preload/debug_log.cpp - the interposer's debug lines: ROCREF_LOG_LEVEL=4 (common/log.h).
#include "preload/debug_log.h"

#include "common/log.h"

#include <unistd.h>

#include <cstdarg>
#include <cstdio>
#include <cstdlib>

namespace rocref::preload {

bool debug_enabled() noexcept { return log::on(log::kDebug); }

void debug_log(const char* fmt, ...) noexcept {
  if (!debug_enabled()) return;
  char message[512];
  va_list ap;
  va_start(ap, fmt);
  std::vsnprintf(message, sizeof message, fmt, ap);
  va_end(ap);
  log::write_line("4", "preload", message);
}

}  // namespace rocref::preload
