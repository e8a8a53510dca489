// common/log.h - rocref's logging switches, in ROCm's conventions (AMD_LOG_LEVEL, HIP_TRACE_API).
//
// ROCREF_LOG_LEVEL=0..4 (0 off, the default; 1 errors, 2 warnings, 3 info, 4 debug) decides which
// messages every component writes to stderr; ROCREF_TRACE_API=1 prints each layer's API calls
// and steps (the common/trace.h events) as they happen. Both are read once per process.
#pragma once

#include <cstddef>

namespace rocref::log {

enum Level : int { kNone = 0, kError = 1, kWarning = 2, kInfo = 3, kDebug = 4 };

// The value of a ROCREF_LOG_LEVEL string: a digit 0..4, clamped; anything else (or unset) is 0.
int parse_level(const char* text) noexcept;
int level() noexcept;
inline bool on(int at) noexcept { return level() >= at; }

// ROCREF_TRACE_API: set and not "0".
bool parse_switch(const char* text) noexcept;
bool api_trace() noexcept;

// ":TAG:COMPONENT: [pid:P tid:T] message\n" into buf (the shape of AMD_LOG_LEVEL's lines; TAG is
// the level, or "api" for ROCREF_TRACE_API). Truncated to size, always ending in a newline;
// returns the length. No allocation: the interposer logs from inside intercepted calls.
size_t format_line(char* buf, size_t size, const char* tag, const char* component, int pid, unsigned long tid,
                   const char* message) noexcept;
// As format_line with this process and thread, written with one write(2).
void write_line(const char* tag, const char* component, const char* message) noexcept;

// printf-style; one write(2) per line, so lines from threads and processes do not interleave.
void write(int at, const char* component, const char* fmt, ...) noexcept __attribute__((format(printf, 3, 4)));

}  // namespace rocref::log

// Builds the message only when the level is on.
#define ROCREF_LOG(at, component, ...)                                        \
  do {                                                                        \
    if (::rocref::log::on(at)) ::rocref::log::write(at, component, __VA_ARGS__); \
  } while (0)
