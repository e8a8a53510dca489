// proofs/aql/z3_domain.h - the Z3 value domain for common/aql_protocol.h.
//
// Instantiating src/'s protocol functions with this domain turns them into
// Z3 terms: 64-bit bit-vectors for indices, Z3 booleans for decisions, and a
// set of rocref::Mutant switches chosen per proof (the same switches the
// mutable libraries of src/ turn on at run time), so a planted bug takes the
// same branch in the code and in the proof.
#pragma once

#include <z3++.h>

#include <bitset>

#include "common/aql_protocol.h"
#include "common/mutant.h"

namespace rocref::proofs {

struct Z3Domain {
  using U64 = z3::expr;
  using Bool = z3::expr;

  z3::context* ctx;
  std::bitset<static_cast<size_t>(Mutant::kCount)> mutants;

  U64 u64(uint64_t v) const { return ctx->bv_val(v, 64); }
  Bool truth(bool v) const { return ctx->bool_val(v); }
  Bool ult(const U64& a, const U64& b) const { return z3::ult(a, b); }
  Bool ule(const U64& a, const U64& b) const { return z3::ule(a, b); }
  Bool slt(const U64& a, const U64& b) const { return z3::slt(a, b); }
  U64 ite(const Bool& c, const U64& a, const U64& b) const { return z3::ite(c, a, b); }
  bool mutant(Mutant m) const { return mutants.test(static_cast<size_t>(m)); }
};

}  // namespace rocref::proofs
