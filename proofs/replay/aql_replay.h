// proofs/replay/aql_replay.h - feeds a Z3 counterexample's interleaving to the real submission code.
//
// Producer steps go to aql::QueueRing (reserve, has_room, write_body, publish,
// ring_doorbell) and processor steps to gpu::PacketProcessor (step_fetch,
// step_complete) on a real amd_queue_t. Packets are AGENT_DISPATCH with no
// handler, so completion needs no kernel. After each step the real ring is
// checked against the clauses; with a planted bug switched on (rocref::Mutant,
// *_mutable libraries) the failure reproduces, with it off the interleaving
// either cannot happen (the real code refuses a step: "diverged") or runs clean.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "proofs/aql/aql_check.h"

namespace rocref::proofs {

struct ReplayResult {
  size_t steps_run = 0;
  bool diverged = false;           // the real code did not take the trace's next step
  std::string divergence;          // which step, and what the real code did instead
  std::optional<std::string> violation;  // "<clause>: what the real ring shows"
  std::string log;                 // one line per step run
};

// Requires a trace from the model's initial state (start index 0).
ReplayResult replay_on_real_code(const AqlTrace& trace);

}  // namespace rocref::proofs
