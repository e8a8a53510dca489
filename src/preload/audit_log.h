// preload/audit_log.h - ROCREF_PRELOAD_AUDIT=FILE: every /sys and /proc path the process's hooks saw.
//
// One line per lookup, appended to FILE (shared by the process and its children):
// "host PATH" when the host's file was used, "model PATH" when the interposer
// answered it, "absent PATH" when it hid it. The hermetic check (PRE-FS-4)
// runs foreign binaries with it and compares the "host" lines with an allow-list.
#pragma once

#include "preload/path_map.h"

namespace rocref::preload {

// `path` as the caller passed it (absolute), or relative to `dirfd` (resolved through /proc/self/fd).
void audit_path(int dirfd, const char* path, PathKind kind) noexcept;

}  // namespace rocref::preload
