// proofs/gpuvm/vm_z3_domain.h - the Z3 value domain for gpu/vm/vm_rules.h.
//
// Instantiating src/'s GPUVM rules with this domain turns them into Z3 terms:
// 64-bit bit-vectors for addresses and PTEs, Z3 booleans for decisions, and a
// set of VmMutant switches chosen per proof (the same switches the test-only
// rocref_gpuvm_mutable turns on at run time), so a planted bug takes the same
// branch in the code and in the proof.
#pragma once

#include <z3++.h>

#include <bitset>

#include "gpu/vm/vm_rules.h"

namespace rocref::proofs::gpuvm {

using rocref::gpu::vm::VmMutant;

struct VmZ3Domain {
  using U64 = z3::expr;
  using Bool = z3::expr;

  z3::context* ctx;
  std::bitset<static_cast<size_t>(VmMutant::kCount)> mutants;

  U64 u64(uint64_t v) const { return ctx->bv_val(v, 64); }
  Bool truth(bool v) const { return ctx->bool_val(v); }
  Bool ult(const U64& a, const U64& b) const { return z3::ult(a, b); }
  Bool ule(const U64& a, const U64& b) const { return z3::ule(a, b); }
  U64 shr(const U64& a, unsigned n) const { return z3::lshr(a, static_cast<int>(n)); }
  U64 shl(const U64& a, unsigned n) const { return z3::shl(a, static_cast<int>(n)); }
  U64 ite(const Bool& c, const U64& a, const U64& b) const { return z3::ite(c, a, b); }
  bool mutant(VmMutant m) const { return mutants.test(static_cast<size_t>(m)); }
};

inline VmZ3Domain z3_domain(z3::context& c, std::initializer_list<VmMutant> on = {}) {
  VmZ3Domain d{&c, {}};
  for (VmMutant m : on) d.mutants.set(static_cast<size_t>(m));
  return d;
}

}  // namespace rocref::proofs::gpuvm
