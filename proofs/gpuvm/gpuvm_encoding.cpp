// proofs/gpuvm/gpuvm_encoding.cpp - bit-vector address split, PTE encoding, page-table entries.
#include "proofs/gpuvm/gpuvm_encoding.h"

namespace rocref::proofs::gpuvm {

std::array<z3::expr, 5> split_va(const z3::expr& va, unsigned last_shift) {
  return {va.extract(47, 39), va.extract(38, 30), va.extract(29, 21), va.extract(last_shift + 8, last_shift),
          va.extract(11, 0)};
}

z3::expr compose_va(const std::array<z3::expr, 5>& p) {
  return z3::concat(z3::concat(z3::concat(p[0], p[1]), z3::concat(p[2], p[3])), p[4]);
}

namespace {
// kPteFlagMask of gpu/vm/pte.h: VALID 0, SYSTEM 1, EXECUTABLE 4, READABLE 5, WRITEABLE 6.
constexpr uint64_t kFlagMask = (1u << 0) | (1u << 1) | (1u << 4) | (1u << 5) | (1u << 6);

z3::expr addr_mask(z3::context& c, unsigned addr_hi) {
  const uint64_t mask = ((uint64_t{1} << (addr_hi + 1)) - 1) & ~uint64_t{0xfff};
  return c.bv_val(mask, 64);
}
}  // namespace

z3::expr pte_encode(z3::context& c, const z3::expr& host_page, const z3::expr& flags, unsigned addr_hi) {
  return (host_page & addr_mask(c, addr_hi)) | (flags & c.bv_val(kFlagMask, 64));
}

z3::expr pte_address(z3::context& c, const z3::expr& pte, unsigned addr_hi) { return pte & addr_mask(c, addr_hi); }

z3::expr pte_flags(z3::context& c, const z3::expr& pte) { return pte & c.bv_val(kFlagMask, 64); }

z3::expr entry_valid(const z3::expr& entry) { return entry.extract(kEntryBits - 1, kEntryBits - 1) == 1; }

z3::expr make_entry(z3::context& c, const z3::expr& frame) { return z3::concat(c.bv_val(1, 1), frame); }

z3::expr empty_table(z3::context& c) { return z3::const_array(c.bv_sort(kVpnBits), c.bv_val(0, kEntryBits)); }

}  // namespace rocref::proofs::gpuvm
