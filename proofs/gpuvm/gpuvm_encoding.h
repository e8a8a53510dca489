// proofs/gpuvm/gpuvm_encoding.h - GPUVM's rules on Z3 bit-vectors (the same rules as src/gpu/vm).
//
// Addresses are 48-bit vectors split 9/9/9/9/12 (VM-VA-1); PTEs are 64-bit
// vectors with the page address in bits 47..12 and the gfx9 flag bits
// (VM-PTE-1). The page-table state of the sequence proofs is an array from a
// 36-bit virtual page number to an entry (bit 36 valid, bits 35..0 the host
// frame); the TLB is a pair of arrays keyed the same way.
#pragma once

#include <z3++.h>

#include <array>

namespace rocref::proofs::gpuvm {

inline constexpr unsigned kVpnBits = 36;
inline constexpr unsigned kEntryBits = 37;  // valid + frame

// VM-VA-1: the four table indices and the page offset. `last_shift` is 12 in the
// real rules; the mutant passes 11.
std::array<z3::expr, 5> split_va(const z3::expr& va, unsigned last_shift = 12);
z3::expr compose_va(const std::array<z3::expr, 5>& parts);

// VM-PTE-1: encode / decode; `addr_hi` is 47 in the real rules (the mutant drops bit 47).
z3::expr pte_encode(z3::context& c, const z3::expr& host_page, const z3::expr& flags, unsigned addr_hi = 47);
z3::expr pte_address(z3::context& c, const z3::expr& pte, unsigned addr_hi = 47);
z3::expr pte_flags(z3::context& c, const z3::expr& pte);

z3::expr entry_valid(const z3::expr& entry);
z3::expr make_entry(z3::context& c, const z3::expr& frame);
z3::expr empty_table(z3::context& c);

}  // namespace rocref::proofs::gpuvm
