// gpu/vm/gpu_vm.cpp - GPU address translation through TLB and page table, with fault reports.
#include "gpu/vm/gpu_vm.h"

#include <atomic>
#include <cerrno>
#include <cstdio>
#include <string>

#include "common/trace.h"
#include "common/trace_checks.h"
#include "gpu/vm/vm_rules.h"

namespace {
std::string to_hex(uint64_t v) {
  char text[24];
  std::snprintf(text, sizeof text, "%llx", static_cast<unsigned long long>(v));
  return text;
}
}  // namespace

namespace rocref::gpu::vm {

GpuVm::GpuVm(uint32_t vmid, VmFaultHandler on_fault) : vmid_(vmid), on_fault_(std::move(on_fault)) {}

int GpuVm::map(uint64_t va, uint64_t host, uint64_t size, uint64_t flags) {
  if (size == 0 || size > kVaLimit) return -EINVAL;
  const uint64_t npages = (size + kPageSize - 1) >> kPageShift;
  ROCREF_TRACE_EVENT(trace::Layer::Gpu, "GPUVM: page-table map",
                     "va=0x" + to_hex(va) + " pages=" + std::to_string(npages));
  std::lock_guard<VmLock> lock(mu_);
  return table_.map(va, host, npages, flags & ~kPteValid);
}

int GpuVm::map_userptr(uint64_t va, uint64_t host, uint64_t size, uint64_t flags, uint64_t user,
                       UserPresence present) {
  const int err = map(va, host, size, flags);
  if (err != 0 || present == nullptr) return err;
  std::lock_guard<VmLock> lock(mu_);
  userptr_[va] = UserRange{va + (((size + kPageSize - 1) >> kPageShift) << kPageShift), user, present, false};
  // Mutant VM-USERPTR-1: the shortcut of translate() is not told, so the new buffer goes unasked.
  if (!vm_mutant_active(VmMutant::UserptrAddedRangeUnseen)) userptr_changed();
  return 0;
}

int GpuVm::unmap(uint64_t va, uint64_t size) {
  if (size == 0 || size > kVaLimit) return -EINVAL;
  const uint64_t npages = (size + kPageSize - 1) >> kPageShift;
  ROCREF_TRACE_EVENT(trace::Layer::Gpu, "GPUVM: page-table unmap",
                     "va=0x" + to_hex(va) + " pages=" + std::to_string(npages));
  int err = 0;
  {
    std::lock_guard<VmLock> lock(mu_);
    err = table_.unmap(va, npages);
    if (err == 0) {
      auto first = userptr_.lower_bound(va), last = userptr_.lower_bound(va + (npages << kPageShift));
      if (first != last) {
        userptr_.erase(first, last);
        userptr_changed();
      }
    }
  }
  if (err == 0) unmapped(va, npages << kPageShift);  // GPU-GRAIN-4: the L2 drops its lines there
  return err;
}

namespace {
std::atomic<uint64_t> g_userptr_epoch{1};
// Whether some buffer was asked in the current epoch. Set after the asker loaded the epoch,
// cleared before the epoch moves: an ask is never left recorded in an epoch that is kept.
std::atomic<bool> g_userptr_epoch_asked{false};
}  // namespace

void GpuVm::new_userptr_epoch() noexcept {
  if (!g_userptr_epoch_asked.load(std::memory_order_acquire)) return;  // nobody could tell the next one from it
  if (!g_userptr_epoch_asked.exchange(false, std::memory_order_acq_rel)) return;
  g_userptr_epoch.fetch_add(1, std::memory_order_acq_rel);
}

// Recomputes the hull and the count of buffers asked (and not evicted) in the current epoch.
// Called with mu_ held whenever a buffer is added or removed: O(buffers), never per access.
void GpuVm::userptr_changed() noexcept {
  userptr_lo_.store(userptr_.empty() ? 0 : userptr_.begin()->first, std::memory_order_relaxed);
  userptr_hi_.store(userptr_.empty() ? 0 : userptr_.rbegin()->second.end, std::memory_order_relaxed);  // no overlaps
  asked_epoch_ = g_userptr_epoch.load(std::memory_order_acquire);
  asked_ = 0;
  for (const auto& [va, r] : userptr_) asked_ += (!r.evicted && r.checked_epoch == asked_epoch_) ? 1 : 0;
  settled_epoch_.store(asked_ == userptr_.size() ? asked_epoch_ : 0, std::memory_order_relaxed);
}

[[gnu::always_inline]] inline bool GpuVm::userptr_question_due(uint64_t page) const noexcept {
  if (page < userptr_lo_.load(std::memory_order_relaxed) || page >= userptr_hi_.load(std::memory_order_relaxed)) {
    return false;
  }
  return settled_epoch_.load(std::memory_order_relaxed) != g_userptr_epoch.load(std::memory_order_acquire);
}

// VM-USERPTR-1: the MMU notifier, asked at use. Called with mu_ held for a valid system page.
bool GpuVm::userptr_evicted(uint64_t page, uint64_t access_end, uint64_t* checked_end) noexcept {
  *checked_end = page + kPageSize;
  auto it = userptr_.upper_bound(page);
  if (it == userptr_.begin()) return false;
  --it;
  UserRange& r = it->second;
  if (page >= r.end) return false;
  *checked_end = access_end < r.end ? access_end : r.end;
  if (vm_mutant_active(VmMutant::UserptrEvictionIgnored)) return false;
  if (r.evicted) return true;
  const uint64_t epoch = g_userptr_epoch.load(std::memory_order_acquire);
  if (r.checked_epoch == epoch) return false;  // already asked since the GPU was last idle
  // The part of this access inside the buffer, in the application's addresses (any page of a
  // buffer gone evicts all of it, as amdkfd's notifier does): one question per buffer per epoch.
  const uint64_t end = access_end < r.end ? access_end : r.end;
  if (!r.present(r.user + (page - it->first), end - page)) r.evicted = true;
  r.checked_epoch = epoch;
  if (!g_userptr_epoch_asked.load(std::memory_order_relaxed))
    g_userptr_epoch_asked.store(true, std::memory_order_seq_cst);
  if (asked_epoch_ != epoch) {
    asked_epoch_ = epoch;
    asked_ = 0;
  }
  // No question is due until the epoch moves.
  if (!r.evicted && ++asked_ == userptr_.size()) settled_epoch_.store(epoch, std::memory_order_relaxed);
  return r.evicted;
}

void GpuVm::invalidate_tlb() noexcept {
  std::lock_guard<VmLock> lock(mu_);
  tlb_.invalidate_all();
}

void GpuVm::invalidate_tlb_range(uint64_t va, uint64_t size) noexcept {
  std::lock_guard<VmLock> lock(mu_);
  tlb_.invalidate_range(va, size);
}

Expected<void*, VmFault> GpuVm::resolve(uint64_t va, size_t size, Access access, bool use_tlb) noexcept {
  const VmConcreteDomain d;
  VmFault fault;
  fault.vmid = vmid_;
  fault.access = access;
  const uint64_t len = size ? size : 1;
  if (!range_in_va(d, va, len)) {
    fault.va = page_base(d, va);
    fault.not_present = true;
    return unexpected(fault);
  }
  // VM-XLATE-1..3, VM-PERM-1: the decision of vm_rules.h, folded over the range's pages in order
  // and stopping at the first fault (the Z3 encoding folds the same function over a bounded range).
  const uint64_t need = static_cast<uint64_t>(access);
  const uint64_t more = extra_pages(d, va, len);
  Xlate<VmConcreteDomain> x = xlate_start(d, va);
  uint64_t userptr_checked = 0;  // VM-USERPTR-1: one presence check per buffer per access
  for (uint64_t i = 0; i <= more && x.fault == kXlateOk; ++i) {
    const uint64_t page = page_base(d, va) + (i << kPageShift);
    uint64_t pte = use_tlb ? tlb_.lookup(page) : 0;
    if (pte == 0) {
      pte = table_.walk(page);
      if (use_tlb && (pte & kPteValid)) tlb_.insert(page, pte);
    }
    x = xlate_page(d, x, va, page, pte, need);
    // VM-USERPTR-1: a USERPTR buffer whose pages went away is evicted; the access faults.
    if (x.fault == kXlateOk && (pte & kPteSystem) && userptr_question_due(page) && page >= userptr_checked &&
        userptr_evicted(page, va + len, &userptr_checked)) {
      x.fault = kXlateNotPresent;
      x.fault_page = page;
    }
  }
  if (x.fault == kXlateOk) return reinterpret_cast<void*>(static_cast<uintptr_t>(xlate_address(d, x, va)));
  fault.va = x.fault_page;
  fault.not_present = x.fault == kXlateNotPresent || x.fault == kXlateNotReadable || x.fault == kXlateNotContiguous;
  fault.read_only = x.fault == kXlateReadOnly;
  fault.no_execute = x.fault == kXlateNoExecute;
  return unexpected(fault);
}

// The common case, as a UTCL1 hit: an access inside one page whose PTE the TLB holds and for
// which no USERPTR question is due. Decided by the same vm_rules.h functions as resolve(), which
// takes every other case (a miss, a page-crossing range, a fault, a question due).
[[gnu::always_inline]] inline void* GpuVm::translate_hit(uint64_t va, size_t size, Access access) noexcept {
  const VmConcreteDomain d;
  const uint64_t len = size ? size : 1;
  if (!range_in_va(d, va, len) || extra_pages(d, va, len) != 0) return nullptr;
  const uint64_t page = page_base(d, va);
  const uint64_t pte = tlb_.peek(page);
  if (pte == 0 || ((pte & kPteSystem) && userptr_question_due(page))) return nullptr;
  const Xlate<VmConcreteDomain> x = xlate_page(d, xlate_start(d, va), va, page, pte, static_cast<uint64_t>(access));
  if (x.fault != kXlateOk) return nullptr;
  return reinterpret_cast<void*>(static_cast<uintptr_t>(xlate_address(d, x, va)));
}

// Flattened: the sequence check, the TLB probe and xlate_page are inlined, and fold for a
// single page. VM-TLB-3: the hit is read without the lock and kept only if no locked section
// (map, unmap, invalidation, TLB fill) overlapped it; anything else takes the lock.
[[gnu::flatten]] void* GpuVm::translate(uint64_t va, size_t size, Access access) noexcept {
  if (void* hit = mu_.read<void*>([&] { return translate_hit(va, size, access); })) return hit;
  return translate_slow(va, size, access);
}

[[gnu::noinline]] void* GpuVm::translate_slow(uint64_t va, size_t size, Access access) noexcept {
  VmFault fault;
  VmFaultHandler handler;
  {
    std::lock_guard<VmLock> lock(mu_);
    ROCREF_CHECKED("VM-XLATE-1");  // a walk past the TLB: mapped, permitted, contiguous (VM-XLATE-1..3)
    Expected<void*, VmFault> r = resolve(va, size, access, true);
    if (r) return *r;
    fault = r.error();
    ++faults_;
    handler = on_fault_;
  }
  if (handler) handler(fault);  // outside the lock: the KFD takes its own locks
  return nullptr;
}

void* GpuVm::peek(uint64_t va, size_t size, Access access) noexcept {
  std::lock_guard<VmLock> lock(mu_);
  return resolve(va, size, access, false).value_or(nullptr);
}

void GpuVm::set_fault_handler(VmFaultHandler on_fault) {
  std::lock_guard<VmLock> lock(mu_);
  on_fault_ = std::move(on_fault);
}

// GPU-GRAIN-1: the MTYPE of the page's PTE (the TLB's copy, as the engines see it).
Grain GpuVm::grain(uint64_t va) noexcept {
  std::lock_guard<VmLock> lock(mu_);
  uint64_t pte = tlb_.lookup(page_of(va));
  if (pte == 0) pte = table_.walk(page_of(va));
  if ((pte & kPteValid) == 0 || (pte & kPteMtypeMask) == kPteMtypeUc) return Grain::Fine;
  return Grain::Coarse;
}

uint64_t GpuVm::pte(uint64_t va) const {
  std::lock_guard<VmLock> lock(mu_);
  return table_.walk(va);
}
size_t GpuVm::table_pages() const {
  std::lock_guard<VmLock> lock(mu_);
  return table_.table_pages();
}
size_t GpuVm::mapped_pages() const {
  std::lock_guard<VmLock> lock(mu_);
  return table_.mapped_pages();
}
uint64_t GpuVm::faults() const {
  std::lock_guard<VmLock> lock(mu_);
  return faults_;
}

}  // namespace rocref::gpu::vm
