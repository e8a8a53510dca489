// kfd/user_copy.cpp - checked user-memory copies through the calling thread's UserMemory.
#include "kfd/user_copy.h"

#include <sys/mman.h>
#include <sys/uio.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "common/own_memory.h"
#include "kfd/userptr_pin.h"

namespace rocref::kfd {
namespace {

class OwnMemory final : public UserMemory {
 public:
  int read(void* dst, uint64_t src, size_t size) noexcept override { return own_copy_from_user(dst, src, size); }
  int write(uint64_t dst, const void* src, size_t size) noexcept override { return own_copy_to_user(dst, src, size); }
  bool range_mapped(uint64_t addr, uint64_t size) noexcept override { return own_range_mapped(addr, size); }
  bool range_has_vmas(uint64_t addr, uint64_t size) noexcept override { return own_range_has_vmas(addr, size); }
  int pin(uint64_t user, uint64_t size, bool writable, std::unique_ptr<UserptrPin>* out) noexcept override {
    return UserptrPin::create(user, size, writable, out);
  }
  bool own() const noexcept override { return true; }
};

OwnMemory g_own;
thread_local UserMemory* t_current = nullptr;

}  // namespace

UserMemory& current_user_memory() noexcept { return t_current ? *t_current : g_own; }

ScopedUserMemory::ScopedUserMemory(UserMemory* memory) noexcept : previous_(t_current) { t_current = memory; }
ScopedUserMemory::~ScopedUserMemory() { t_current = previous_; }

int copy_from_user(void* dst, uint64_t user_src, size_t size) noexcept {
  if (size == 0) return 0;
  if (user_src == 0) return -EFAULT;
  return t_current ? t_current->read(dst, user_src, size) : own_copy_from_user(dst, user_src, size);
}

int copy_to_user(uint64_t user_dst, const void* src, size_t size) noexcept {
  if (size == 0) return 0;
  if (user_dst == 0) return -EFAULT;
  return t_current ? t_current->write(user_dst, src, size) : own_copy_to_user(user_dst, src, size);
}

bool user_range_mapped(uint64_t addr, uint64_t size) noexcept { return current_user_memory().range_mapped(addr, size); }

bool user_range_has_vmas(uint64_t addr, uint64_t size) noexcept {
  return current_user_memory().range_has_vmas(addr, size);
}

int pin_user_pages(uint64_t user, uint64_t size, bool writable, std::unique_ptr<UserptrPin>* out) noexcept {
  return current_user_memory().pin(user, size, writable, out);
}

int own_copy_from_user(void* dst, uint64_t user_src, size_t size) noexcept {
  if (size == 0) return 0;
  if (user_src == 0) return -EFAULT;
  return read_own_memory(dst, reinterpret_cast<const void*>(static_cast<uintptr_t>(user_src)), size) ? 0 : -EFAULT;
}

int own_copy_to_user(uint64_t user_dst, const void* src, size_t size) noexcept {
  if (size == 0) return 0;
  if (user_dst == 0) return -EFAULT;
  return write_own_memory(reinterpret_cast<void*>(static_cast<uintptr_t>(user_dst)), src, size) ? 0 : -EFAULT;
}

bool own_range_has_vmas(uint64_t addr, uint64_t size) noexcept {
  if (addr == 0 || size == 0 || addr + size < addr) return false;
  // msync(MS_ASYNC) walks the VMAs of the range and answers ENOMEM at a hole, touching no
  // page: the cost is the number of mappings, not of pages (find_vma's walk, as the kernel's).
  const uint64_t first = addr & ~uint64_t{4095};
  return ::msync(reinterpret_cast<void*>(static_cast<uintptr_t>(first)), addr + size - first, MS_ASYNC) == 0;
}

bool own_range_mapped(uint64_t addr, uint64_t size) noexcept {
  if (addr == 0 || size == 0 || addr + size < addr) return false;
  // get_user_pages needs every page present and accessible: read one byte of each
  // page (a PROT_NONE reservation fails here, as it does in the kernel).
  constexpr size_t kBatch = 512;
  iovec remote[kBatch];
  char sink[kBatch];
  const uint64_t first = addr & ~uint64_t{4095};
  const uint64_t pages = ((addr + size - 1) >> 12) - (first >> 12) + 1;
  for (uint64_t done = 0; done < pages;) {
    const size_t n = static_cast<size_t>(std::min<uint64_t>(kBatch, pages - done));
    for (size_t i = 0; i < n; ++i) remote[i] = iovec{reinterpret_cast<void*>(static_cast<uintptr_t>(first + ((done + i) << 12))), 1};
    iovec local{sink, n};
    if (process_vm_readv(getpid(), &local, 1, remote, n, 0) != static_cast<ssize_t>(n)) return false;
    done += n;
  }
  return true;
}

}  // namespace rocref::kfd
