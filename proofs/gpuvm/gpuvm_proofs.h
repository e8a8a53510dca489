// proofs/gpuvm/gpuvm_proofs.h - Z3 proofs of the GPUVM clauses, each paired with a mutant.
//
// Every proof is run twice: on the encoding of the real rules (must be proved,
// or bounded without a violation) and on a planted bug (must give a
// counterexample). `rocref verify` calls run_gpuvm_proofs(); quick = smaller
// bounds for CI.
#pragma once

#include <string>
#include <vector>

#include "proofs/common/verdict.h"

namespace rocref::proofs::gpuvm {

struct ProofResult {
  std::string check;    // the name the spec's Checks lines use, e.g. "gpuvm/VM-TLB-2"
  std::string clause;   // e.g. "VM-TLB-2"
  std::string name;     // what is proved
  Verdict verdict;      // on the real rules: Proved or Bounded
  std::string mutant;   // the planted bug
  Verdict mutant_verdict;  // on the bug: Counterexample
  bool ok() const {
    return (verdict.outcome == Outcome::Proved || verdict.outcome == Outcome::Bounded) &&
           mutant_verdict.outcome == Outcome::Counterexample;
  }
};

std::vector<ProofResult> run_gpuvm_proofs(bool quick);

}  // namespace rocref::proofs::gpuvm
