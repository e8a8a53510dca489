// common/own_memory.cpp - checked reads and writes of this process's memory (see own_memory.h).
#include "common/own_memory.h"

#include <sys/uio.h>
#include <unistd.h>

namespace rocref {

bool read_own_memory(void* to, const void* from, size_t size) noexcept {
  iovec local{to, size};
  iovec remote{const_cast<void*>(from), size};
  return ::process_vm_readv(::getpid(), &local, 1, &remote, 1, 0) == static_cast<ssize_t>(size);
}

bool write_own_memory(void* to, const void* from, size_t size) noexcept {
  iovec local{const_cast<void*>(from), size};
  iovec remote{to, size};
  return ::process_vm_writev(::getpid(), &local, 1, &remote, 1, 0) == static_cast<ssize_t>(size);
}

}  // namespace rocref
