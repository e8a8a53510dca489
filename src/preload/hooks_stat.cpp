// preload/hooks_stat.cpp - stat, access and readlink in the forms glibc 2.36 exports (PRE-HOOK-1).
//
// Model devices look like character devices (what ROCR and rocminfo check), by path and by
// descriptor (libdrm's drmGetNodeTypeFromFd);
// mirrored paths report the mirror's files (readlink: the mirror's sysfs-style
// links); hidden host files are ENOENT (PRE-FS-3); the rest passes through.
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <optional>

#include "kfd/kfd_device.h"
#include "preload/audit_log.h"
#include "preload/model_fds.h"
#include "preload/path_map.h"
#include "preload/real_calls.h"
#include "preload/reentry.h"

namespace rp = rocref::preload;

namespace {

constexpr unsigned kKfdMajor = 238;   // amdkfd's major is dynamic; any char major will do
constexpr unsigned kDrmMajor = 226;   // DRM_MAJOR

// PRE-STAT-1: the model device as a world-read-writable character device.
bool device_rdev(const rp::ResolvedPath& r, dev_t* rdev) {
  if (r.kind == rp::PathKind::Kfd) *rdev = makedev(kKfdMajor, 0);
  else if (r.kind == rp::PathKind::Render) *rdev = makedev(kDrmMajor, r.render_minor);
  else return false;
  return true;
}

// PRE-STAT-2: the device a model descriptor (or a duplicate of one) opened.
bool fd_rdev(int fd, dev_t* rdev) {
  const int model = rp::model_fd_of(fd);
  if (model < 0) return false;
  rp::ModelScope scope;
  const std::optional<uint32_t> render = rocref::kfd::KfdDevice::instance().render_minor(model);
  *rdev = render ? makedev(kDrmMajor, *render) : makedev(kKfdMajor, 0);
  return true;
}

int device_stat(dev_t rdev, struct stat* st) {
  const int rc = rp::real::stat("/dev/null", st);
  if (rc == 0) {
    st->st_mode = S_IFCHR | 0666;
    st->st_rdev = rdev;
  }
  return rc;
}

// fstatat/statx with AT_EMPTY_PATH and "": the call is about dirfd itself.
bool names_the_descriptor(const char* path, int flags) {
  return (flags & AT_EMPTY_PATH) != 0 && path != nullptr && path[0] == '\0';
}

int do_fstat(int fd, struct stat* st) {
  dev_t rdev;
  if (!rp::inside_model() && fd_rdev(fd, &rdev)) return device_stat(rdev, st);
  return rp::real::fstatat(fd, "", st, AT_EMPTY_PATH);
}

int do_fstatat(int dirfd, const char* path, struct stat* st, int flags) {
  if (rp::inside_model()) return rp::real::fstatat(dirfd, path, st, flags);
  if (names_the_descriptor(path, flags)) return do_fstat(dirfd, st);
  const rp::ResolvedPath r = rp::resolve_path(path);
  rp::audit_path(dirfd, path, r.kind);
  if (r.kind == rp::PathKind::Absent) return (errno = ENOENT, -1);
  dev_t rdev;
  if (device_rdev(r, &rdev)) return device_stat(rdev, st);
  return rp::real::fstatat(dirfd, r.kind == rp::PathKind::Redirect ? r.host_path.c_str() : path, st, flags);
}

int do_faccessat(int dirfd, const char* path, int mode, int flags) {
  if (rp::inside_model()) return rp::real::faccessat(dirfd, path, mode, flags);
  const rp::ResolvedPath r = rp::resolve_path(path);
  rp::audit_path(dirfd, path, r.kind);
  if (r.kind == rp::PathKind::Absent) return (errno = ENOENT, -1);
  if (r.kind == rp::PathKind::Kfd || r.kind == rp::PathKind::Render) return (mode & X_OK) ? (errno = EACCES, -1) : 0;
  return rp::real::faccessat(dirfd, r.kind == rp::PathKind::Redirect ? r.host_path.c_str() : path, mode, flags);
}

ssize_t do_readlinkat(int dirfd, const char* path, char* buf, size_t size) {
  if (rp::inside_model()) return rp::real::readlinkat(dirfd, path, buf, size);
  const rp::ResolvedPath r = rp::resolve_path(path);
  rp::audit_path(dirfd, path, r.kind);
  if (r.kind == rp::PathKind::Absent) return (errno = ENOENT, -1);
  return rp::real::readlinkat(dirfd, r.kind == rp::PathKind::Redirect ? r.host_path.c_str() : path, buf, size);
}

}  // namespace

extern "C" {

#define ROCREF_EXPORT __attribute__((visibility("default")))

ROCREF_EXPORT int stat(const char* path, struct stat* st) { return do_fstatat(AT_FDCWD, path, st, 0); }
ROCREF_EXPORT int stat64(const char* path, struct stat64* st) {
  return do_fstatat(AT_FDCWD, path, reinterpret_cast<struct stat*>(st), 0);
}
ROCREF_EXPORT int lstat(const char* path, struct stat* st) {
  return do_fstatat(AT_FDCWD, path, st, AT_SYMLINK_NOFOLLOW);
}
ROCREF_EXPORT int lstat64(const char* path, struct stat64* st) {
  return do_fstatat(AT_FDCWD, path, reinterpret_cast<struct stat*>(st), AT_SYMLINK_NOFOLLOW);
}
ROCREF_EXPORT int fstatat(int dirfd, const char* path, struct stat* st, int flags) {
  return do_fstatat(dirfd, path, st, flags);
}
ROCREF_EXPORT int fstatat64(int dirfd, const char* path, struct stat64* st, int flags) {
  return do_fstatat(dirfd, path, reinterpret_cast<struct stat*>(st), flags);
}
// Pre-2.33 binaries call the versioned forms; on x86_64 every `ver` has the same layout.
ROCREF_EXPORT int __xstat(int, const char* path, struct stat* st) { return do_fstatat(AT_FDCWD, path, st, 0); }
ROCREF_EXPORT int __xstat64(int, const char* path, struct stat64* st) {
  return do_fstatat(AT_FDCWD, path, reinterpret_cast<struct stat*>(st), 0);
}
ROCREF_EXPORT int __lxstat(int, const char* path, struct stat* st) {
  return do_fstatat(AT_FDCWD, path, st, AT_SYMLINK_NOFOLLOW);
}
ROCREF_EXPORT int __lxstat64(int, const char* path, struct stat64* st) {
  return do_fstatat(AT_FDCWD, path, reinterpret_cast<struct stat*>(st), AT_SYMLINK_NOFOLLOW);
}
ROCREF_EXPORT int __fxstatat(int, int dirfd, const char* path, struct stat* st, int flags) {
  return do_fstatat(dirfd, path, st, flags);
}
ROCREF_EXPORT int __fxstatat64(int, int dirfd, const char* path, struct stat64* st, int flags) {
  return do_fstatat(dirfd, path, reinterpret_cast<struct stat*>(st), flags);
}
ROCREF_EXPORT int fstat(int fd, struct stat* st) { return do_fstat(fd, st); }
ROCREF_EXPORT int fstat64(int fd, struct stat64* st) { return do_fstat(fd, reinterpret_cast<struct stat*>(st)); }
ROCREF_EXPORT int __fxstat(int, int fd, struct stat* st) { return do_fstat(fd, st); }
ROCREF_EXPORT int __fxstat64(int, int fd, struct stat64* st) {
  return do_fstat(fd, reinterpret_cast<struct stat*>(st));
}
ROCREF_EXPORT int statx(int dirfd, const char* path, int flags, unsigned mask, struct statx* st) {
  if (rp::inside_model()) return rp::real::statx(dirfd, path, flags, mask, st);
  dev_t rdev;
  const bool of_fd = names_the_descriptor(path, flags);
  if (of_fd && !fd_rdev(dirfd, &rdev)) return rp::real::statx(dirfd, path, flags, mask, st);
  const rp::ResolvedPath r = of_fd ? rp::ResolvedPath{} : rp::resolve_path(path);
  if (!of_fd) rp::audit_path(dirfd, path, r.kind);
  if (r.kind == rp::PathKind::Absent) return (errno = ENOENT, -1);
  if (of_fd || device_rdev(r, &rdev)) {
    const int rc = rp::real::statx(AT_FDCWD, "/dev/null", flags, mask, st);
    if (rc == 0) {
      st->stx_mode = S_IFCHR | 0666;
      st->stx_rdev_major = major(rdev);
      st->stx_rdev_minor = minor(rdev);
    }
    return rc;
  }
  return rp::real::statx(dirfd, r.kind == rp::PathKind::Redirect ? r.host_path.c_str() : path, flags, mask, st);
}

ROCREF_EXPORT ssize_t readlink(const char* path, char* buf, size_t size) {
  return do_readlinkat(AT_FDCWD, path, buf, size);
}
ROCREF_EXPORT ssize_t readlinkat(int dirfd, const char* path, char* buf, size_t size) {
  return do_readlinkat(dirfd, path, buf, size);
}

ROCREF_EXPORT int access(const char* path, int mode) { return do_faccessat(AT_FDCWD, path, mode, 0); }
ROCREF_EXPORT int faccessat(int dirfd, const char* path, int mode, int flags) {
  return do_faccessat(dirfd, path, mode, flags);
}
ROCREF_EXPORT int euidaccess(const char* path, int mode) { return do_faccessat(AT_FDCWD, path, mode, AT_EACCESS); }
ROCREF_EXPORT int eaccess(const char* path, int mode) { return do_faccessat(AT_FDCWD, path, mode, AT_EACCESS); }

}  // extern "C"
