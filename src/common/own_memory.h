// common/own_memory.h - reads and writes of this process's memory that fail instead of faulting.
//
// process_vm_readv / process_vm_writev on our own pid: the kernel checks the range, so an
// unmapped, unreadable (or, for a write, read-only) page is a failed call, never a crash. The
// driver model's copy_from_user and the runtime's staged copies of host memory use them.
#pragma once

#include <cstddef>

namespace rocref {

// Whether all `size` bytes at `from` were copied to `to` (nothing is promised on failure).
bool read_own_memory(void* to, const void* from, size_t size) noexcept;
// Whether all `size` bytes of `from` were copied to `to`.
bool write_own_memory(void* to, const void* from, size_t size) noexcept;

}  // namespace rocref
