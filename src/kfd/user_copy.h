// kfd/user_copy.h - copy_from_user / copy_to_user over the calling process's memory.
//
// The driver never trusts a user pointer: a bad one is -EFAULT, not a crash. Whose memory a
// user pointer names is the calling thread's UserMemory: by default this process's own
// (common/own_memory.h: process_vm_readv/writev on our own pid, so the kernel checks the range
// and reports EFAULT); in the shared model's daemon, the process at the other end of the
// connection the ioctl came on (kfd/kfd_server.h, KFD-MP-2).
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>

namespace rocref::kfd {

class UserptrPin;

// The memory of the process an ioctl runs for.
class UserMemory {
 public:
  virtual ~UserMemory() = default;
  virtual int read(void* dst, uint64_t user_src, size_t size) noexcept = 0;         // 0 or -EFAULT
  virtual int write(uint64_t user_dst, const void* src, size_t size) noexcept = 0;  // 0 or -EFAULT
  virtual bool range_mapped(uint64_t addr, uint64_t size) noexcept = 0;
  virtual bool range_has_vmas(uint64_t addr, uint64_t size) noexcept = 0;
  // KFD-MEM-3: pins [user, user + size) of that process behind a view of the driver's.
  virtual int pin(uint64_t user, uint64_t size, bool writable, std::unique_ptr<UserptrPin>* out) noexcept = 0;
  // True for this process's own memory (GPU VA = this address space's VA; SVM can map it).
  virtual bool own() const noexcept { return false; }
};

// The calling thread's UserMemory (this process's own unless a ScopedUserMemory is active).
UserMemory& current_user_memory() noexcept;

// Makes `memory` the calling thread's UserMemory for the scope's lifetime.
class ScopedUserMemory {
 public:
  explicit ScopedUserMemory(UserMemory* memory) noexcept;
  ~ScopedUserMemory();
  ScopedUserMemory(const ScopedUserMemory&) = delete;
  ScopedUserMemory& operator=(const ScopedUserMemory&) = delete;

 private:
  UserMemory* previous_;
};

// 0 or -EFAULT (null, unmapped or unreadable source).
int copy_from_user(void* dst, uint64_t user_src, size_t size) noexcept;
// 0 or -EFAULT (null, unmapped or read-only destination).
int copy_to_user(uint64_t user_dst, const void* src, size_t size) noexcept;
// True when every page of [addr, addr + size) is mapped in the caller and readable
// (get_user_pages' view: reads one byte of each page, so its cost grows with the range).
bool user_range_mapped(uint64_t addr, uint64_t size) noexcept;
// True when [addr, addr + size) lies in mappings of the caller, whatever their protection
// (find_vma's view); touches no page, costs the number of mappings.
bool user_range_has_vmas(uint64_t addr, uint64_t size) noexcept;
// KFD-MEM-3 through the caller's UserMemory: 0 and *out, or -EFAULT.
int pin_user_pages(uint64_t user, uint64_t size, bool writable, std::unique_ptr<UserptrPin>* out) noexcept;

// This process's own memory, as above (what current_user_memory() is by default).
int own_copy_from_user(void* dst, uint64_t user_src, size_t size) noexcept;
int own_copy_to_user(uint64_t user_dst, const void* src, size_t size) noexcept;
bool own_range_mapped(uint64_t addr, uint64_t size) noexcept;
bool own_range_has_vmas(uint64_t addr, uint64_t size) noexcept;

}  // namespace rocref::kfd
