// preload/real_calls.cpp - next-in-chain C library functions, looked up once each.
#include "preload/real_calls.h"

#include <dlfcn.h>
#include <fcntl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <atomic>

namespace rocref::preload::real {
namespace {
// dlsym may itself open files; a relaxed cache is enough (every thread resolves the same value).
template <typename Fn>
Fn next(std::atomic<void*>& cache, const char* name) {
  void* p = cache.load(std::memory_order_relaxed);
  if (p == nullptr) {
    p = dlsym(RTLD_NEXT, name);
    cache.store(p, std::memory_order_relaxed);
  }
  return reinterpret_cast<Fn>(p);
}
#define ROCREF_NEXT(type, name)            \
  static std::atomic<void*> cache{nullptr}; \
  auto fn = next<type>(cache, name)
}  // namespace

int open(const char* path, int flags, mode_t mode) {
  ROCREF_NEXT(int (*)(const char*, int, ...), "open");
  if (fn == nullptr) return int(::syscall(SYS_openat, AT_FDCWD, path, flags, mode));
  return fn(path, flags, mode);
}
int openat(int dirfd, const char* path, int flags, mode_t mode) {
  ROCREF_NEXT(int (*)(int, const char*, int, ...), "openat");
  if (fn == nullptr) return int(::syscall(SYS_openat, dirfd, path, flags, mode));
  return fn(dirfd, path, flags, mode);
}
FILE* fopen(const char* path, const char* mode) {
  ROCREF_NEXT(FILE* (*)(const char*, const char*), "fopen");
  return fn(path, mode);
}
DIR* opendir(const char* path) {
  ROCREF_NEXT(DIR* (*)(const char*), "opendir");
  return fn(path);
}
int access(const char* path, int mode) {
  ROCREF_NEXT(int (*)(const char*, int), "access");
  return fn(path, mode);
}
int faccessat(int dirfd, const char* path, int mode, int flags) {
  ROCREF_NEXT(int (*)(int, const char*, int, int), "faccessat");
  return fn(dirfd, path, mode, flags);
}
int stat(const char* path, struct stat* st) {
  ROCREF_NEXT(int (*)(const char*, struct stat*), "stat");
  return fn(path, st);
}
int lstat(const char* path, struct stat* st) {
  ROCREF_NEXT(int (*)(const char*, struct stat*), "lstat");
  return fn(path, st);
}
int fstatat(int dirfd, const char* path, struct stat* st, int flags) {
  ROCREF_NEXT(int (*)(int, const char*, struct stat*, int), "fstatat");
  return fn(dirfd, path, st, flags);
}
int statx(int dirfd, const char* path, int flags, unsigned mask, struct statx* st) {
  ROCREF_NEXT(int (*)(int, const char*, int, unsigned, struct statx*), "statx");
  return fn(dirfd, path, flags, mask, st);
}
int close(int fd) {
  ROCREF_NEXT(int (*)(int), "close");
  if (fn == nullptr) return int(::syscall(SYS_close, fd));
  return fn(fd);
}
int fcntl(int fd, int cmd, unsigned long arg) {
  ROCREF_NEXT(int (*)(int, int, ...), "fcntl");
  if (fn == nullptr) return int(::syscall(SYS_fcntl, fd, cmd, arg));
  return fn(fd, cmd, arg);
}
int dup(int fd) {
  ROCREF_NEXT(int (*)(int), "dup");
  if (fn == nullptr) return int(::syscall(SYS_dup, fd));
  return fn(fd);
}
int dup2(int fd, int fd2) {
  ROCREF_NEXT(int (*)(int, int), "dup2");
  if (fn == nullptr) return int(::syscall(SYS_dup2, fd, fd2));
  return fn(fd, fd2);
}
int dup3(int fd, int fd2, int flags) {
  ROCREF_NEXT(int (*)(int, int, int), "dup3");
  if (fn == nullptr) return int(::syscall(SYS_dup3, fd, fd2, flags));
  return fn(fd, fd2, flags);
}
int ioctl(int fd, unsigned long request, void* arg) {
  ROCREF_NEXT(int (*)(int, unsigned long, ...), "ioctl");
  return fn(fd, request, arg);
}
void* mmap(void* addr, size_t length, int prot, int flags, int fd, off_t offset) {
  ROCREF_NEXT(void* (*)(void*, size_t, int, int, int, off_t), "mmap");
  return fn(addr, length, prot, flags, fd, offset);
}
int munmap(void* addr, size_t length) {
  ROCREF_NEXT(int (*)(void*, size_t), "munmap");
  return fn(addr, length);
}

ssize_t readlinkat(int dirfd, const char* path, char* buf, size_t size) {
  ROCREF_NEXT(ssize_t (*)(int, const char*, char*, size_t), "readlinkat");
  if (fn == nullptr) return ::syscall(SYS_readlinkat, dirfd, path, buf, size);
  return fn(dirfd, path, buf, size);
}
long sysconf(int name) {
  ROCREF_NEXT(long (*)(int), "sysconf");
  return fn(name);
}
int get_nprocs() {
  ROCREF_NEXT(int (*)(), "get_nprocs");
  return fn();
}
int get_nprocs_conf() {
  ROCREF_NEXT(int (*)(), "get_nprocs_conf");
  return fn();
}

}  // namespace rocref::preload::real
