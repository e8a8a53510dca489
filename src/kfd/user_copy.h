// kfd/user_copy.h - copy_from_user / copy_to_user for the in-process model.
//
// The driver never trusts a user pointer: a bad one is -EFAULT, not a crash.
// In-process, common/own_memory.h (process_vm_readv/writev on our own pid) gives the
// same guarantee (the kernel checks the address range and reports EFAULT).
#pragma once

#include <cstddef>
#include <cstdint>

namespace rocref::kfd {

// 0 or -EFAULT (null, unmapped or unreadable source).
int copy_from_user(void* dst, uint64_t user_src, size_t size) noexcept;
// 0 or -EFAULT (null, unmapped or read-only destination).
int copy_to_user(uint64_t user_dst, const void* src, size_t size) noexcept;
// True when every page of [addr, addr + size) is mapped in this process and readable
// (get_user_pages' view: reads one byte of each page, so its cost grows with the range).
bool user_range_mapped(uint64_t addr, uint64_t size) noexcept;
// True when [addr, addr + size) lies in mappings of this process, whatever their protection
// (find_vma's view); touches no page, costs the number of mappings.
bool user_range_has_vmas(uint64_t addr, uint64_t size) noexcept;

}  // namespace rocref::kfd
