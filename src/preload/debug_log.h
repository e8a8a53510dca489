// preload/debug_log.h - ROCREF_LOG_LEVEL=4: one stderr line per answered open, ioctl and mmap.
#pragma once

namespace rocref::preload {

bool debug_enabled() noexcept;
// printf-style; written with one write(2) so lines from threads do not interleave.
void debug_log(const char* fmt, ...) noexcept __attribute__((format(printf, 1, 2)));

}  // namespace rocref::preload
