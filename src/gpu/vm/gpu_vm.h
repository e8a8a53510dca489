// gpu/vm/gpu_vm.h - one process's GPU virtual address space: page table, TLB, translation.
//
// GPU VA equals host VA in rocref, but a PTE maps each GPU page to the host
// page that backs it (a VRAM arena page, a GTT page, a userptr page), so the
// engines reach memory only through translate() (VM-XLATE-*). An access to an
// unmapped page or without the needed permission is a GPU page fault: it is
// reported to the fault handler (the KFD raises the VM-fault event and puts the
// faulting queue in error) and translate() returns nullptr (VM-FAULT-1).
// Thread-safe: the KFD maps and unmaps while engines translate.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <map>

#include "common/expected.h"
#include "gpu/memory_access.h"
#include "gpu/vm/page_table.h"
#include "gpu/vm/tlb.h"
#include "gpu/vm/vm_lock.h"

namespace rocref::gpu::vm {

struct VmFault {
  uint32_t vmid = 0;
  uint64_t va = 0;          // the first faulting address (page of the access)
  Access access = Access::Read;
  bool not_present = false;
  bool read_only = false;   // write to a page without the writeable bit
  bool no_execute = false;  // execute from a page without the executable bit
};

using VmFaultHandler = std::function<void(const VmFault&)>;
// Whether the application still maps [addr, addr + size) (the MMU notifier's question).
using UserPresence = bool (*)(uint64_t addr, uint64_t size) noexcept;

class GpuVm final : public MemoryAccess {
 public:
  explicit GpuVm(uint32_t vmid, VmFaultHandler on_fault = {});

  // Maps [va, va + size) onto host memory from host (both page aligned, size
  // rounded up to pages) with kPte* flags. 0, or -EINVAL (misaligned, outside
  // the 48-bit space, overlapping an existing mapping; nothing changes).
  int map(uint64_t va, uint64_t host, uint64_t size, uint64_t flags);
  // map() for a USERPTR buffer whose application pages start at `user` (VM-USERPTR-1):
  // the first translation into it in each userptr epoch asks present(user range); the first
  // "no" evicts the buffer for good (amdkfd's MMU-notifier eviction; restore finds no pages)
  // and every access to it is then a not-present fault. `host` is the driver's pinned view.
  int map_userptr(uint64_t va, uint64_t host, uint64_t size, uint64_t flags, uint64_t user, UserPresence present);
  // Unmaps [va, va + size): 0, or -EINVAL when any page is not mapped. Does
  // not touch the TLB: the caller invalidates (VM-TLB-1).
  int unmap(uint64_t va, uint64_t size);
  // Starts a new userptr epoch for every VM: the next translation into each USERPTR buffer
  // asks again whether its pages are present. The KFD starts one whenever the GPU was idle
  // (a time slice without progress), so a munmap made while the queues were idle is seen by
  // the next access, at the cost of one presence check per buffer per busy period. An epoch
  // in which no buffer was asked is kept: no buffer can tell it from a new one, and an idle
  // poll then costs a load instead of a global read-modify-write.
  static void new_userptr_epoch() noexcept;
  void invalidate_tlb() noexcept;
  void invalidate_tlb_range(uint64_t va, uint64_t size) noexcept;

  void* translate(uint64_t va, size_t size, Access access) noexcept override;
  Grain grain(uint64_t va) noexcept override;
  // Translation without a fault report or a TLB fill (for the KFD's own checks).
  void* peek(uint64_t va, size_t size, Access access) noexcept;

  void set_fault_handler(VmFaultHandler on_fault);
  uint32_t vmid() const noexcept { return vmid_; }
  uint64_t pte(uint64_t va) const;  // page-table entry (not the TLB), 0 when unmapped
  size_t table_pages() const;
  size_t mapped_pages() const;
  uint64_t faults() const;

 private:
  // The host address of va, or the fault that stopped the translation.
  Expected<void*, VmFault> resolve(uint64_t va, size_t size, Access access, bool use_tlb) noexcept;
  // translate()'s common case, or nullptr for resolve() to decide (and report).
  void* translate_hit(uint64_t va, size_t size, Access access) noexcept;
  void* translate_slow(uint64_t va, size_t size, Access access) noexcept;  // resolve() and the fault report
  // VM-USERPTR-1: whether an access to `page` may owe a presence question (O(1), conservative).
  bool userptr_question_due(uint64_t page) const noexcept;
  bool userptr_evicted(uint64_t page, uint64_t access_end, uint64_t* checked_end) noexcept;
  void userptr_changed() noexcept;  // after userptr_ gained or lost ranges

  struct UserRange {
    uint64_t end = 0;   // GPU VA past the buffer
    uint64_t user = 0;  // application address of the buffer's first page
    UserPresence present = nullptr;
    bool evicted = false;
    uint64_t checked_epoch = 0;  // the epoch of the last presence check (0: never)
  };

  const uint32_t vmid_;
  mutable VmLock mu_;
  PageTable table_;
  Tlb tlb_;
  VmFaultHandler on_fault_;
  uint64_t faults_ = 0;
  std::map<uint64_t, UserRange> userptr_;  // by GPU VA of the buffer's first page
  // What lets a translation skip userptr_'s lookup: pages outside [userptr_lo_, userptr_hi_)
  // are in no buffer; in epoch settled_epoch_ every buffer was asked and none is evicted
  // (0: no such epoch yet). asked_ counts the buffers asked in epoch asked_epoch_.
  // Atomic (relaxed): translate()'s hit reads them outside the lock (VmLock::read).
  std::atomic<uint64_t> userptr_lo_{0}, userptr_hi_{0};
  std::atomic<uint64_t> settled_epoch_{0};
  uint64_t asked_epoch_ = 0;
  size_t asked_ = 0;
};

}  // namespace rocref::gpu::vm
