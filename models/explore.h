// models/explore.h - exhaustive explicit-state search of the AQL queue model.
//
// Breadth-first over every interleaving up to a depth; returns the shortest
// trace to a state that breaks a clause (or to a deadlock: no step enabled and
// not final). A cheap complement to the Z3 proofs and the seed of readable
// counterexamples.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "models/aql_queue_model.h"

namespace rocref::model {

struct Counterexample {
  std::vector<Step> steps;
  std::vector<AqlState> states;  // states[i] is the state after steps[i]
  Violation violation;
};

struct ExploreResult {
  std::optional<Counterexample> counterexample;
  uint64_t states_visited = 0;
  uint32_t depth_reached = 0;
  bool exhausted = false;  // every reachable state was visited
};

ExploreResult explore(const AqlConfig& config, uint32_t max_depth, uint64_t max_states = 2'000'000);

// Replays steps from the initial state; returns the first violation and the states passed.
Counterexample replay(const AqlConfig& config, const std::vector<Step>& steps);

}  // namespace rocref::model
