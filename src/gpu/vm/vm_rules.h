// gpu/vm/vm_rules.h - GPUVM's address split, PTE layout, permission check and translate decision,
// written once for every value domain.
//
// The functions below are templates over a value domain: VmConcreteDomain
// (uint64_t, bool) for src/ - PageTable indexes its radix tree and GpuVm
// decides every translation through them - and a Z3 domain
// (proofs/gpuvm/vm_z3_domain.h) from which proofs/gpuvm builds its bit-vector
// terms. So the text that runs is the text that is proved (spec/gpuvm.md,
// VM-SRC-1); every constant comes from pte.h.
//
// Rules for the bodies: branch on domain values only through d.ite(); compare
// with ==, d.ult, d.ule; shift with d.shr/d.shl by constant amounts; ask planted
// bugs through d.mutant(), so both instantiations take the same branch.
#pragma once

#include <cstdint>

#include "gpu/vm/pte.h"
#include "gpu/vm/vm_mutant.h"

namespace rocref::gpu::vm {

// The value domain of src/: plain integers and booleans; mutants as compiled in.
struct VmConcreteDomain {
  using U64 = uint64_t;
  using Bool = bool;
  static constexpr U64 u64(uint64_t v) noexcept { return v; }
  static constexpr Bool truth(bool v) noexcept { return v; }
  static constexpr Bool ult(U64 a, U64 b) noexcept { return a < b; }
  static constexpr Bool ule(U64 a, U64 b) noexcept { return a <= b; }
  static constexpr U64 shr(U64 a, unsigned n) noexcept { return a >> n; }
  static constexpr U64 shl(U64 a, unsigned n) noexcept { return a << n; }
  static constexpr U64 ite(Bool c, U64 a, U64 b) noexcept { return c ? a : b; }
  static bool mutant(VmMutant m) noexcept { return vm_mutant_active(m); }
};

// Why a translation failed; 0 = it did not. The KFD's fault report maps these onto
// VmFault's causes (gfx9 reports a non-readable page as a protection fault, which
// rocref shows as not_present, and so a non-contiguous range, VM-XLATE-3).
enum XlateFault : uint64_t {
  kXlateOk = 0,
  kXlateNotPresent = 1,    // no valid PTE (VM-FAULT-1), or outside the 48-bit space
  kXlateNotReadable = 2,   // read without READABLE (VM-PERM-1)
  kXlateReadOnly = 3,      // write without WRITEABLE (VM-PERM-1)
  kXlateNoExecute = 4,     // execute without EXECUTABLE (VM-PERM-1)
  kXlateNotContiguous = 5, // a later page not host-contiguous with the first (VM-XLATE-3)
};

// --- address split (VM-VA-1) ---------------------------------------------

// The index into the level-`level` table (0 = top) for va.
template <typename D>
typename D::U64 table_index(const D& d, typename D::U64 va, unsigned level) {
  // Mutant VM-VA-1: the last level indexed one bit too low, so neighbouring pages alias.
  if (level == kLevels - 1 && d.mutant(VmMutant::LevelIndexOffByOne))
    return d.shr(va, kPageShift - 1) & d.u64(kEntriesPerTable - 1);
  return d.shr(va, level_shift(level)) & d.u64(kEntriesPerTable - 1);
}

template <typename D>
typename D::U64 page_offset(const D& d, typename D::U64 va) {
  return va & d.u64(kPageSize - 1);
}

template <typename D>
typename D::U64 page_base(const D& d, typename D::U64 va) {
  return va & d.u64(~(kPageSize - 1));
}

// [va, va + len) lies inside the 48-bit space (len >= 1).
template <typename D>
typename D::Bool range_in_va(const D& d, typename D::U64 va, typename D::U64 len) {
  return d.ult(va, d.u64(kVaLimit)) && d.ule(len, d.u64(kVaLimit) - va);
}

// --- PTE layout (VM-PTE-1) -----------------------------------------------

template <typename D>
typename D::U64 pte_addr_mask(const D& d) {
  // Mutant VM-PTE-1: the address field loses bit 47, so pages at or above 2^47 decode wrong.
  if (d.mutant(VmMutant::PteAddressDropsBit47)) return d.u64(kPteAddrMask & ~(uint64_t{1} << (kVaBits - 1)));
  return d.u64(kPteAddrMask);
}

template <typename D>
typename D::U64 make_pte(const D& d, typename D::U64 host_page, typename D::U64 flags) {
  return (host_page & pte_addr_mask(d)) | (flags & d.u64(kPteFlagMask));
}

template <typename D>
typename D::U64 pte_host(const D& d, typename D::U64 pte) {
  return pte & pte_addr_mask(d);
}

template <typename D>
typename D::U64 pte_flag_bits(const D& d, typename D::U64 pte) {
  return pte & d.u64(kPteFlagMask);
}

// --- permission check (VM-PERM-1, VM-FAULT-1) ----------------------------

// The fault (or kXlateOk) one page's PTE gives an access needing `need`
// (Access bits: 1 read, 2 write, 4 execute), checked in the hardware's order.
template <typename D>
typename D::U64 page_fault(const D& d, typename D::U64 pte, typename D::U64 need) {
  auto has = [&](uint64_t bit) { return !((pte & d.u64(bit)) == d.u64(0)); };
  auto needs = [&](uint64_t bit) { return !((need & d.u64(bit)) == d.u64(0)); };
  typename D::U64 f = d.u64(kXlateOk);
  if (!d.mutant(VmMutant::PermissionIgnored)) {
    f = d.ite(needs(4) && !has(kPteExecutable), d.u64(kXlateNoExecute), f);
    f = d.ite(needs(2) && !has(kPteWriteable), d.u64(kXlateReadOnly), f);
    f = d.ite(needs(1) && !has(kPteReadable), d.u64(kXlateNotReadable), f);
  }
  return d.ite(has(kPteValid), f, d.u64(kXlateNotPresent));
}

// --- translate decision (VM-XLATE-1..3) ----------------------------------

// The translation of a range so far: the first fault and its page, and the host page of the range's first page.
template <typename D>
struct Xlate {
  typename D::U64 fault;
  typename D::U64 fault_page;
  typename D::U64 host;
};

// How many pages past the first the range [va, va + len) touches (len >= 1): the
// caller folds xlate_page over the first page and this many more.
template <typename D>
typename D::U64 extra_pages(const D& d, typename D::U64 va, typename D::U64 len) {
  // Mutant VM-XLATE-2: only the first page of a range is checked.
  if (d.mutant(VmMutant::TranslateChecksFirstPageOnly)) return d.u64(0);
  return d.shr(page_base(d, va + len - d.u64(1)) - page_base(d, va), kPageShift);
}

template <typename D>
Xlate<D> xlate_start(const D& d, typename D::U64 va) {
  return Xlate<D>{d.u64(kXlateOk), page_base(d, va), d.u64(0)};
}

// Folds page `page` of the range starting at va, whose PTE is `pte`, into the result so far.
// The first fault stays; a later page must be backed host-contiguously with the first.
template <typename D>
Xlate<D> xlate_page(const D& d, const Xlate<D>& so_far, typename D::U64 va, typename D::U64 page,
                    typename D::U64 pte, typename D::U64 need) {
  const typename D::U64 first = page_base(d, va);
  const typename D::Bool is_first = page == first;
  const typename D::U64 host = pte_host(d, pte);
  typename D::U64 f = page_fault(d, pte, need);
  f = d.ite(f == d.u64(kXlateOk) && !is_first && !(host == so_far.host + (page - first)),
            d.u64(kXlateNotContiguous), f);
  const typename D::Bool clean = so_far.fault == d.u64(kXlateOk);
  return Xlate<D>{d.ite(clean, f, so_far.fault), d.ite(clean, page, so_far.fault_page),
                  d.ite(clean && is_first, host, so_far.host)};
}

// The host address a clean translation of va gives.
template <typename D>
typename D::U64 xlate_address(const D& d, const Xlate<D>& x, typename D::U64 va) {
  return x.host + page_offset(d, va);
}

}  // namespace rocref::gpu::vm
