// tests/property/aql/lockstep.h - runs the real code and the model in lockstep (refinement).
//
// A program is a list of choice numbers. At each step the model's enabled
// steps (models/aql_queue_model.h), plus an idle poll of the processor when
// the model allows it nothing, are listed in a fixed order; the choice picks
// one, the model takes it, and the real code takes the same step through its
// step functions (QueueRing producer steps, PacketProcessor::step_fetch /
// step_complete). After every step the real state, projected (indices,
// doorbell, slot headers and bodies, in-flight ids, phase, signal), must equal
// the model's, and the real guards (has_room) must agree with the model's.
// Failures start with the clause they break; refinement mismatches with "REFINE".
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "models/aql_queue_model.h"

namespace rocref::prop {

struct LockstepConfig {
  model::AqlConfig model;
  uint64_t start = 0;  // real index = model index + start (a multiple of 8: same slots)
};

struct Trace {
  std::vector<std::string> failures;  // every broken check, in order, each starting with its clause
  std::vector<model::Step> steps;
  std::vector<uint64_t> doorbells;    // the real doorbell value after each doorbell store
  std::vector<uint64_t> launches;     // real ids, in launch order
  std::vector<uint64_t> completions;  // model ids, in completion order
  std::vector<uint64_t> kernel_log;   // model ids whose bodies the kernel ran
  uint64_t max_write_lead = 0;        // the largest write - read seen
  uint64_t published = 0;             // header stores done
  bool final = false;                 // every packet submitted and completed

  bool failed(const std::string& clause) const;
  std::string first(const std::string& clause) const;  // the first failure of that clause, or ""
  std::string all() const;
};

// Runs `choices`, then, if `drain`, a fair round-robin schedule until the model is final.
Trace run_lockstep(const LockstepConfig& config, const std::vector<uint32_t>& choices, bool drain);
// Runs the given model steps (each must be enabled: else a "SCRIPT" failure), then drains if asked.
Trace run_script(const LockstepConfig& config, const std::vector<model::Step>& steps, bool drain);

}  // namespace rocref::prop
