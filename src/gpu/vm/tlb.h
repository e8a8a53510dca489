// gpu/vm/tlb.h - a VMID's translation cache: entries stay until explicitly invalidated.
//
// Like the GPU's UTCL1/UTCL2, a cached translation is used even after the page
// table changes; only invalidate_all() or invalidate_range() drops it (VM-TLB-1).
// The KFD invalidates after every unmap, so no stale translation is used (VM-TLB-2).
// Not thread-safe: GpuVm serialises access.
#pragma once

#include <array>
#include <atomic>
#include <cstdint>

#include "gpu/vm/pte.h"

namespace rocref::gpu::vm {

class Tlb {
 public:
  static constexpr unsigned kEntries = 64;  // direct mapped by a hash of the virtual page number

  // The cached PTE for the page of va, or 0 on a miss. Inline: a hit is the common case of
  // every engine access, as a UTCL1 hit is on the hardware. With the VM's lock held.
  uint64_t lookup(uint64_t va) noexcept {
    const uint64_t pte = peek(va);
    ++(pte != 0 ? hits_ : misses_);
    return pte;
  }
  // lookup() without the counts, for a read without the lock (VmLock::read): relaxed loads
  // only, which a writer's section may tear; the lock's sequence discards such a read.
  uint64_t peek(uint64_t va) const noexcept {
    const uint64_t vpn = va >> kPageShift;
    const Entry& e = entries_[slot(vpn)];
    const uint64_t pte = e.pte.load(std::memory_order_relaxed);
    return pte != 0 && e.vpn.load(std::memory_order_relaxed) == vpn ? pte : 0;
  }
  void insert(uint64_t va, uint64_t pte) noexcept;
  void invalidate_all() noexcept;
  void invalidate_range(uint64_t va, uint64_t size) noexcept;

  uint64_t hits() const noexcept { return hits_; }
  uint64_t misses() const noexcept { return misses_; }

 private:
  // Buffers start 2 MiB aligned, so their first pages share the low VPN bits: the 2 MiB and
  // 1 GiB frame numbers are folded in, or the ring, the signals and the kernargs evict each other.
  static constexpr unsigned slot(uint64_t vpn) noexcept {
    return static_cast<unsigned>((vpn ^ (vpn >> kBitsPerLevel) ^ (vpn >> (2 * kBitsPerLevel))) % kEntries);
  }
  struct Entry {
    std::atomic<uint64_t> vpn{0};
    std::atomic<uint64_t> pte{0};  // 0 = empty
    void set(uint64_t v, uint64_t p) noexcept {
      vpn.store(v, std::memory_order_relaxed);
      pte.store(p, std::memory_order_relaxed);
    }
  };
  std::array<Entry, kEntries> entries_{};
  uint64_t hits_ = 0;
  uint64_t misses_ = 0;
};

}  // namespace rocref::gpu::vm
