// proofs/aql/aql_check.h - bounded model checking, k-induction and bounded liveness of the AQL queue.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "models/aql_queue_model.h"
#include "proofs/common/verdict.h"

namespace rocref::proofs {

// A Z3 counterexample as the model's own steps, from a (possibly shifted) initial state.
struct AqlTrace {
  model::AqlConfig config;
  model::AqlState initial;
  std::vector<model::Step> steps;
  std::string clause;
};

struct AqlCheckOptions {
  uint32_t depth = 30;
  uint64_t start = 0;       // every index starts here (2^64 - 3: the run wraps around)
  bool induction = true;    // try to prove the clauses that BMC did not break
  unsigned timeout_ms = 0;  // per solver call; 0: none
  double bmc_budget_s = 0;  // stop deepening once BMC has used this much CPU time (0: no limit); the depth reached is reported
  std::function<void(const std::string&)> progress;  // one line per depth or phase
};

struct AqlClauseResult {
  std::string clause;
  Verdict verdict;
  std::optional<AqlTrace> trace;
};

struct AqlRun {
  std::vector<AqlClauseResult> clauses;
  bool inductive = false;
  std::string induction_note;  // the auxiliary fact that failed, when induction did not close
  double bmc_seconds = 0, induction_seconds = 0;
};

// Every clause the model checks for this configuration.
std::vector<std::string> aql_clauses(const model::AqlConfig& config);

// BMC of `clauses` to options.depth, then (if asked and nothing broke) 1-induction with the
// auxiliary invariants. A clause broken by BMC gets its shortest counterexample.
AqlRun check_aql(const model::AqlConfig& config, const std::vector<std::string>& clauses, const AqlCheckOptions& options);

// Liveness under fairness, bounded (AQL-RET-3): once every producer is done (each rang the
// doorbell for its packets), the processor and completions, taking any enabled step, reach the
// final state within 4 steps per packet. With from_invariant the start is any state satisfying
// the auxiliary invariants (every reachable state, when they are inductive): PROVED; otherwise
// the start is reached from the initial state in up to options.depth steps: BOUNDED.
Verdict check_aql_liveness(const model::AqlConfig& config, const AqlCheckOptions& options, bool from_invariant,
                           std::optional<AqlTrace>* trace = nullptr);

// The readable interleaving: numbered steps, actor, what it read and wrote, the ring and indices
// after each step, and the clause broken (re-derived by running the C++ model).
std::string format_trace(const AqlTrace& trace);

}  // namespace rocref::proofs
