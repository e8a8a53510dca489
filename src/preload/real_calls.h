// preload/real_calls.h - the C library functions the interposer hides, resolved with dlsym(RTLD_NEXT).
//
// Resolved on first use, not in a constructor: other libraries' constructors
// (libnuma's) call open() and fopen() before ours would run.
#pragma once

#include <dirent.h>
#include <sys/stat.h>
#include <sys/types.h>

#include <cstdio>

namespace rocref::preload::real {

int open(const char* path, int flags, mode_t mode);
int openat(int dirfd, const char* path, int flags, mode_t mode);
FILE* fopen(const char* path, const char* mode);
DIR* opendir(const char* path);
int access(const char* path, int mode);
int faccessat(int dirfd, const char* path, int mode, int flags);
int stat(const char* path, struct stat* st);
int lstat(const char* path, struct stat* st);
int fstatat(int dirfd, const char* path, struct stat* st, int flags);
int statx(int dirfd, const char* path, int flags, unsigned mask, struct statx* st);
int close(int fd);
int fcntl(int fd, int cmd, unsigned long arg);
int dup(int fd);
int dup2(int fd, int fd2);
int dup3(int fd, int fd2, int flags);
int ioctl(int fd, unsigned long request, void* arg);
void* mmap(void* addr, size_t length, int prot, int flags, int fd, off_t offset);
int munmap(void* addr, size_t length);
ssize_t readlinkat(int dirfd, const char* path, char* buf, size_t size);
long sysconf(int name);
int get_nprocs();
int get_nprocs_conf();

}  // namespace rocref::preload::real
