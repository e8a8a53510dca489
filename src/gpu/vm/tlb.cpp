// gpu/vm/tlb.cpp - direct-mapped TLB with explicit invalidation.
#include "gpu/vm/tlb.h"

#include "gpu/vm/vm_mutant.h"

namespace rocref::gpu::vm {

void Tlb::insert(uint64_t va, uint64_t pte) noexcept {
  const uint64_t vpn = va >> kPageShift;
  entries_[slot(vpn)].set(vpn, pte);
}

void Tlb::invalidate_all() noexcept {
  if (vm_mutant_active(VmMutant::TlbInvalidateIgnored)) return;
  for (Entry& e : entries_) e.set(0, 0);
}

void Tlb::invalidate_range(uint64_t va, uint64_t size) noexcept {
  if (vm_mutant_active(VmMutant::TlbInvalidateIgnored)) return;
  const uint64_t first = va >> kPageShift;
  const uint64_t last = (va + (size ? size - 1 : 0)) >> kPageShift;
  for (Entry& e : entries_) {
    const uint64_t vpn = e.vpn.load(std::memory_order_relaxed);
    if (e.pte.load(std::memory_order_relaxed) != 0 && vpn >= first && vpn <= last) e.set(0, 0);
  }
}

}  // namespace rocref::gpu::vm
