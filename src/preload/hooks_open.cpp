// preload/hooks_open.cpp - open/openat/fopen/opendir in every form glibc and libnuma call.
//
// Device paths open model descriptors; mirrored sysfs paths open the mirror's
// files; the process's status file is rewritten, hidden host files are ENOENT
// (PRE-FS-3); everything else goes to the next definition untouched (PRE-HOOK-1).
#include <dirent.h>
#include <fcntl.h>

#include <cerrno>
#include <cstdarg>
#include <cstdio>
#include <cstring>

#include "preload/audit_log.h"
#include "preload/model_open.h"
#include "preload/path_map.h"
#include "preload/proc_status.h"
#include "preload/real_calls.h"
#include "preload/reentry.h"

namespace rp = rocref::preload;

namespace {

mode_t mode_arg(int flags, va_list ap) {
  return (flags & (O_CREAT | O_TMPFILE)) != 0 ? mode_t(va_arg(ap, unsigned)) : 0;
}

int do_openat(int dirfd, const char* path, int flags, mode_t mode) {
  if (rp::inside_model()) return rp::real::openat(dirfd, path, flags, mode);
  const rp::ResolvedPath r = rp::resolve_path(path);
  rp::audit_path(dirfd, path, r.kind);
  switch (r.kind) {
    case rp::PathKind::Kfd:
    case rp::PathKind::Render: return rp::open_model_device(r, flags);
    case rp::PathKind::Redirect: return rp::real::openat(dirfd, r.host_path.c_str(), flags, mode);
    case rp::PathKind::Status:
      if ((flags & O_ACCMODE) != O_RDONLY) return (errno = EACCES, -1);  // as the real file (mode 0444)
      return rp::open_proc_status(flags);
    case rp::PathKind::Absent: return (errno = ENOENT, -1);
    case rp::PathKind::PassThrough: break;
  }
  return rp::real::openat(dirfd, path, flags, mode);
}

FILE* do_fopen(const char* path, const char* mode) {
  if (rp::inside_model()) return rp::real::fopen(path, mode);
  const rp::ResolvedPath r = rp::resolve_path(path);
  rp::audit_path(AT_FDCWD, path, r.kind);
  if (r.kind == rp::PathKind::Redirect) return rp::real::fopen(r.host_path.c_str(), mode);
  if (r.kind == rp::PathKind::Absent) return (errno = ENOENT, nullptr);
  if (r.kind == rp::PathKind::Status) {
    if (mode == nullptr || mode[0] != 'r' || std::strchr(mode, '+') != nullptr) return (errno = EACCES, nullptr);
    const int fd = rp::open_proc_status(std::strchr(mode, 'e') != nullptr ? O_CLOEXEC : 0);
    return fd < 0 ? nullptr : ::fdopen(fd, mode);
  }
  if (r.kind == rp::PathKind::Kfd || r.kind == rp::PathKind::Render) {
    const int fd = rp::open_model_device(r, O_RDWR | O_CLOEXEC);
    return fd < 0 ? nullptr : ::fdopen(fd, mode);
  }
  return rp::real::fopen(path, mode);
}

}  // namespace

extern "C" {

#define ROCREF_EXPORT __attribute__((visibility("default")))

ROCREF_EXPORT int open(const char* path, int flags, ...) {
  va_list ap;
  va_start(ap, flags);
  const mode_t mode = mode_arg(flags, ap);
  va_end(ap);
  return do_openat(AT_FDCWD, path, flags, mode);
}
ROCREF_EXPORT int open64(const char* path, int flags, ...) {
  va_list ap;
  va_start(ap, flags);
  const mode_t mode = mode_arg(flags, ap);
  va_end(ap);
  return do_openat(AT_FDCWD, path, flags, mode);
}
ROCREF_EXPORT int openat(int dirfd, const char* path, int flags, ...) {
  va_list ap;
  va_start(ap, flags);
  const mode_t mode = mode_arg(flags, ap);
  va_end(ap);
  return do_openat(dirfd, path, flags, mode);
}
ROCREF_EXPORT int openat64(int dirfd, const char* path, int flags, ...) {
  va_list ap;
  va_start(ap, flags);
  const mode_t mode = mode_arg(flags, ap);
  va_end(ap);
  return do_openat(dirfd, path, flags, mode);
}
// _FORTIFY_SOURCE forms: no mode argument.
ROCREF_EXPORT int __open_2(const char* path, int flags) { return do_openat(AT_FDCWD, path, flags, 0); }
ROCREF_EXPORT int __open64_2(const char* path, int flags) { return do_openat(AT_FDCWD, path, flags, 0); }
ROCREF_EXPORT int __openat_2(int dirfd, const char* path, int flags) { return do_openat(dirfd, path, flags, 0); }
ROCREF_EXPORT int __openat64_2(int dirfd, const char* path, int flags) { return do_openat(dirfd, path, flags, 0); }

ROCREF_EXPORT FILE* fopen(const char* path, const char* mode) { return do_fopen(path, mode); }
ROCREF_EXPORT FILE* fopen64(const char* path, const char* mode) { return do_fopen(path, mode); }

ROCREF_EXPORT DIR* opendir(const char* path) {
  if (rp::inside_model()) return rp::real::opendir(path);
  const rp::ResolvedPath r = rp::resolve_path(path);
  rp::audit_path(AT_FDCWD, path, r.kind);
  if (r.kind == rp::PathKind::Absent) return (errno = ENOENT, nullptr);
  if (r.kind == rp::PathKind::Status) return (errno = ENOTDIR, nullptr);
  return rp::real::opendir(r.kind == rp::PathKind::Redirect ? r.host_path.c_str() : path);
}

}  // extern "C"
