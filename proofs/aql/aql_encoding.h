// proofs/aql/aql_encoding.h - the AQL queue model's state and transitions as Z3 terms.
//
// The state and the clause checks follow models/aql_queue_model.cpp (the
// specification); the protocol's decisions - full check, producer step order,
// doorbell value and max-store, launch guard, retirement order - are not
// retyped here but instantiated from src/'s common/aql_protocol.h over the Z3
// domain (z3_domain.h), so what is proved is the code that runs. Every index
// is a 64-bit bit-vector compared by modular distance.
// tests/unit/proofs checks that this encoding and the model agree on random
// concrete states and steps: a refinement check of the code's decisions
// against the specification.
#pragma once

#include <z3++.h>

#include <optional>
#include <string>
#include <vector>

#include "models/aql_queue_model.h"
#include "proofs/aql/z3_domain.h"

namespace rocref::proofs {

struct SymSlot {
  z3::expr header, header_id, body_id, has_body, barrier, barrier_value;  // header: bv2 (SlotHeader)
};
struct SymProducer {
  z3::expr pc, id, remaining;  // pc: bv3 (ProducerPc), remaining: bv8
};
struct SymInFlight {
  z3::expr id, decrement_read, observed, barrier_packet;
};

struct SymState {
  z3::expr write_index, read_index, doorbell, doorbell_rung;
  std::vector<SymSlot> slots;
  std::vector<SymProducer> producers;
  z3::expr processor, launching;  // processor: bv2 (ProcessorPc)
  std::vector<SymInFlight> in_flight;
  z3::expr in_flight_count;       // bv8
  z3::expr launched, completed, signal, signal_initial;
  z3::expr dependency;            // the BARRIER_VALUE dependency signal (AQL-BAR-4)

  // Every variable, in a fixed order (for equality, substitution and printing).
  std::vector<z3::expr> vars() const;
};

struct Clause {
  std::string id;   // e.g. "AQL-PUB-3"
  z3::expr broken;  // true when this step breaks the clause
};

// The transition of one time step: the chosen action's guard, next state, violations.
struct SymStep {
  z3::expr enabled;
  SymState next;
  std::vector<Clause> violations;  // model order: the first true one is the model's violation
};

class AqlEncoding {
 public:
  static constexpr uint32_t kProducerActionCount = 6;

  AqlEncoding(z3::context& ctx, const model::AqlConfig& config, uint32_t in_flight_capacity = 0);

  z3::context& ctx() const { return ctx_; }
  const model::AqlConfig& config() const { return config_; }
  uint32_t capacity() const { return capacity_; }

  // Actions are numbered: producer p's six actions (model::Action from Reserve to
  // StoreWriteIndex; a producer takes those its program has), the processor's three,
  // one completion per in-flight position, the host's dependency store, and a
  // stutter (nothing happens).
  uint32_t choice_count() const { return kProducerActionCount * config_.producers + 3 + capacity_ + 2; }
  uint32_t stutter_choice() const { return choice_count() - 1; }
  std::optional<model::Step> step_of(uint32_t choice) const;  // nullopt for the stutter
  uint32_t choice_of(const model::Step& step) const;

  SymState fresh_state(const std::string& prefix) const;
  SymState concrete(const model::AqlState& state) const;  // numerals
  // Initial state with every index at `start` (0: the model's initial_state).
  z3::expr initial(const SymState& s, uint64_t start = 0) const;

  // One concrete choice: guard, next state, violations (before merging).
  SymStep apply(const SymState& s, uint32_t choice) const;
  // The whole transition relation for a choice variable: next is constrained equal to the chosen update.
  SymStep transition(const SymState& s, const z3::expr& choice) const;

  // check_invariants(), in the model's order.
  std::vector<Clause> invariants(const SymState& s) const;
  z3::expr is_final(const SymState& s) const;
  z3::expr equal(const SymState& a, const SymState& b) const;  // in-flight entries beyond the count ignored

  // Reads a state back from a Z3 model (for counterexamples).
  model::AqlState decode(const z3::model& m, const SymState& s) const;

  z3::expr bv(uint64_t v, unsigned width = 64) const { return ctx_.bv_val(v, width); }
  // Whether packet `id` is a BARRIER_VALUE (config.barrier_value_every).
  z3::expr is_barrier_value(const z3::expr& id) const;
  // The producer's actions in the order common/aql_protocol.h takes them.
  std::vector<model::Action> producer_steps() const;

 private:
  model::ProducerPc pc_after(model::Action a) const;
  z3::expr slot_field(const SymState& s, const z3::expr& id, z3::expr SymSlot::*field) const;
  z3::expr slot_is(const z3::expr& id, uint32_t k) const;
  z3::expr has_barrier(const z3::expr& id) const;

  z3::context& ctx_;
  model::AqlConfig config_;
  Z3Domain dom_;
  uint32_t capacity_;
};

}  // namespace rocref::proofs
