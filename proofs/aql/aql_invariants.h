// proofs/aql/aql_invariants.h - auxiliary invariants that make the queue's safety clauses inductive.
//
// With these, "invariant(s) and one step" implies "invariant(s') and no clause
// broken", so the clauses hold at every depth, not only up to the BMC bound.
// Written for the correct protocol (no mutants) with every index starting at
// `start`; offsets o(x) = x - start are compared unsigned because a run submits
// finitely many packets (AQL-IDX-1 keeps every offset below that count).
#pragma once

#include <string>
#include <vector>

#include "proofs/aql/aql_encoding.h"

namespace rocref::proofs {

struct NamedFact {
  std::string name;
  z3::expr holds;
};

// The conjuncts, named for diagnostics when an induction step fails.
std::vector<NamedFact> auxiliary_invariants(const AqlEncoding& enc, const SymState& s, uint64_t start);

}  // namespace rocref::proofs
