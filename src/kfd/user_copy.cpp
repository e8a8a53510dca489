// kfd/user_copy.cpp - checked user-memory copies through process_vm_readv/writev.
#include "kfd/user_copy.h"

#include <sys/mman.h>
#include <sys/uio.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace rocref::kfd {

int copy_from_user(void* dst, uint64_t user_src, size_t size) noexcept {
  if (size == 0) return 0;
  if (user_src == 0) return -EFAULT;
  iovec local{dst, size};
  iovec remote{reinterpret_cast<void*>(static_cast<uintptr_t>(user_src)), size};
  const ssize_t n = process_vm_readv(getpid(), &local, 1, &remote, 1, 0);
  return n == static_cast<ssize_t>(size) ? 0 : -EFAULT;
}

int copy_to_user(uint64_t user_dst, const void* src, size_t size) noexcept {
  if (size == 0) return 0;
  if (user_dst == 0) return -EFAULT;
  iovec local{const_cast<void*>(src), size};
  iovec remote{reinterpret_cast<void*>(static_cast<uintptr_t>(user_dst)), size};
  const ssize_t n = process_vm_writev(getpid(), &local, 1, &remote, 1, 0);
  return n == static_cast<ssize_t>(size) ? 0 : -EFAULT;
}

bool user_range_mapped(uint64_t addr, uint64_t size) noexcept {
  if (addr == 0 || size == 0 || addr + size < addr) return false;
  // msync reports ENOMEM for any unmapped page in the range.
  return msync(reinterpret_cast<void*>(static_cast<uintptr_t>(addr)), size, MS_ASYNC) == 0;
}

}  // namespace rocref::kfd
