// preload/hooks_open.cpp - open/openat/fopen/opendir in every form glibc and libnuma call.
//
// Device paths open model descriptors; mirrored sysfs paths open the mirror's
// files; everything else goes to the next definition untouched (PRE-HOOK-1).
#include <dirent.h>
#include <fcntl.h>

#include <cstdarg>
#include <cstdio>

#include "preload/model_open.h"
#include "preload/path_map.h"
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
  switch (r.kind) {
    case rp::PathKind::Kfd:
    case rp::PathKind::Render: return rp::open_model_device(r, flags);
    case rp::PathKind::Redirect: return rp::real::openat(dirfd, r.host_path.c_str(), flags, mode);
    case rp::PathKind::PassThrough: break;
  }
  return rp::real::openat(dirfd, path, flags, mode);
}

FILE* do_fopen(const char* path, const char* mode) {
  if (rp::inside_model()) return rp::real::fopen(path, mode);
  const rp::ResolvedPath r = rp::resolve_path(path);
  if (r.kind == rp::PathKind::Redirect) return rp::real::fopen(r.host_path.c_str(), mode);
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
  return rp::real::opendir(r.kind == rp::PathKind::Redirect ? r.host_path.c_str() : path);
}

}  // extern "C"
