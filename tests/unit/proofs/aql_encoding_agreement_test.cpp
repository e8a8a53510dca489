// tests/unit/proofs/aql_encoding_agreement_test.cpp - the Z3 encoding and the C++ model agree.
//
// One source of truth: on random reachable states (also shifted across 2^64
// wrap-around) and for every action, the encoding's guard, next state,
// violations and state invariants equal what models/aql_queue_model computes.
#include <gtest/gtest.h>

#include <random>

#include "proofs/aql/aql_encoding.h"

namespace rocref::proofs {
namespace {

model::AqlState shifted(const model::AqlState& s, uint64_t by) {
  model::AqlState t = s;
  t.write_index += by;
  t.read_index += by;
  t.doorbell += by;
  t.launching += by;
  t.launched += by;
  for (auto& k : t.slots) {
    k.header_id += by;
    k.body_id += by;
  }
  for (auto& p : t.producers) p.id += by;
  for (auto& f : t.in_flight) f.id += by;
  return t;
}

std::string first_clause(const std::vector<Clause>& clauses) {
  for (const Clause& c : clauses) {
    if (c.broken.simplify().is_true()) return c.id;
  }
  return "";
}

void check_agreement(const model::AqlConfig& cfg, uint32_t walks, uint32_t length, uint64_t seed, uint64_t shift) {
  z3::context ctx;
  AqlEncoding enc(ctx, cfg, cfg.producers * cfg.packets_per_producer + 1);
  std::mt19937_64 rng(seed);
  uint64_t compared = 0;
  for (uint32_t w = 0; w < walks; ++w) {
    model::AqlState state = shifted(model::initial_state(cfg), shift);
    for (uint32_t i = 0; i < length; ++i) {
      const SymState sym = enc.concrete(state);
      // Every action: guard agrees; for enabled ones, next state and violation agree.
      for (uint32_t c = 0; c + 1 < enc.choice_count(); ++c) {
        const model::Step step = *enc.step_of(c);
        const bool enabled = model::is_enabled(cfg, state, step);
        const SymStep sym_step = enc.apply(sym, c);
        ASSERT_EQ(sym_step.enabled.simplify().is_true(), enabled) << model::describe(step) << " in " << model::describe(cfg, state);
        if (!enabled) continue;
        const model::StepResult r = model::step(cfg, state, step);
        ASSERT_TRUE(enc.equal(enc.concrete(r.next), sym_step.next).simplify().is_true())
            << model::describe(step) << " from " << model::describe(cfg, state);
        ASSERT_EQ(first_clause(sym_step.violations), r.violation ? r.violation->clause : "") << model::describe(step);
        const auto inv = model::check_invariants(cfg, r.next);
        ASSERT_EQ(first_clause(enc.invariants(enc.concrete(r.next))), inv ? inv->clause : "");
        ++compared;
      }
      const auto steps = model::enabled_steps(cfg, state);
      if (steps.empty()) break;
      state = model::step(cfg, state, steps[rng() % steps.size()]).next;
    }
  }
  EXPECT_GT(compared, walks);
}

model::AqlConfig base(uint32_t producers, uint32_t ring) {
  model::AqlConfig c;
  c.producers = producers;
  c.ring_size = ring;
  c.packets_per_producer = 3;
  c.barrier_every = 2;
  return c;
}

TEST(AqlEncodingAgreement, CorrectProtocolEveryForm) {
  for (auto r : {model::Reservation::FetchAdd, model::Reservation::Cas}) {
    for (auto d : {model::DoorbellStore::Plain, model::DoorbellStore::Max}) {
      model::AqlConfig c = base(2, 2);
      c.reservation = r;
      c.doorbell = d;
      c.single_queue = d == model::DoorbellStore::Plain;
      check_agreement(c, 12, 40, 7, 0);
      check_agreement(c, 6, 40, 8, ~uint64_t{0} - 4);  // indices wrap around 2^64
      c.barrier_value_every = 3;  // AQL-BAR-4: BARRIER_VALUE packets and the host's dependency store
      check_agreement(c, 8, 40, 9, 0);
    }
  }
}

TEST(AqlEncodingAgreement, EveryModelMutant) {
  bool model::AqlMutants::*flags[] = {
      &model::AqlMutants::skip_full_check,          &model::AqlMutants::doorbell_before_header,
      &model::AqlMutants::doorbell_over_advance,    &model::AqlMutants::header_reset_after_read_index,
      &model::AqlMutants::body_write_clears_header, &model::AqlMutants::invalid_header_consumed,
      &model::AqlMutants::ignore_barrier_bit,       &model::AqlMutants::non_atomic_signal_decrement,
      &model::AqlMutants::barrier_packet_does_not_block, &model::AqlMutants::barrier_value_ignores_condition};
  uint64_t seed = 100;
  for (auto flag : flags) {
    model::AqlConfig c = base(2, 2);
    c.mutants.*flag = true;
    c.barrier_value_every = 2;
    check_agreement(c, 8, 40, ++seed, 0);
  }
}

TEST(AqlEncodingAgreement, ThreeProducersRingFour) {
  model::AqlConfig c = base(3, 4);
  c.packets_per_producer = 2;
  check_agreement(c, 6, 40, 3, 0);
}

// The check itself can fail: a planted disagreement is detected.
TEST(AqlEncodingAgreement, DetectsAPlantedDisagreement) {
  z3::context ctx;
  model::AqlConfig c = base(1, 2);
  AqlEncoding enc(ctx, c);
  model::AqlState s = model::initial_state(c);
  const model::StepResult r = model::step(c, s, model::Step{model::Actor::Producer, model::Action::Reserve, 0});
  model::AqlState wrong = r.next;
  wrong.write_index += 1;
  const SymStep sym = enc.apply(enc.concrete(s), enc.choice_of({model::Actor::Producer, model::Action::Reserve, 0}));
  EXPECT_TRUE(enc.equal(enc.concrete(r.next), sym.next).simplify().is_true());
  EXPECT_FALSE(enc.equal(enc.concrete(wrong), sym.next).simplify().is_true());
}

// AQL-IDX-2 as a bound: for every read, size (1..2^32) and newest id not behind read by
// less than 2^63 (AQL-IDX-1, AQL-IDX-5), the cached producers' one compare
// is_before(last, room_limit(read, size)) is room_for(read, last, size). Z3 proves it over
// all 64-bit values; with RoomLimitPastRing planted it finds the id the bound lets through.
bool bound_is_room_for(std::bitset<static_cast<size_t>(Mutant::kCount)> mutants) {
  z3::context ctx;
  const Z3Domain z{&ctx, mutants};
  const z3::expr read = ctx.bv_const("read", 64), last = ctx.bv_const("last", 64), size = ctx.bv_const("size", 64);
  z3::solver solver(ctx);
  solver.add(z3::ule(z.u64(1), size) && z3::ule(size, z.u64(uint64_t{1} << 32)));
  solver.add(z3::ult(last - read, z.u64(uint64_t{1} << 63)));
  solver.add(aql::is_before(z, last, aql::room_limit(z, read, size)) != aql::room_for(z, read, last, size));
  return solver.check() == z3::unsat;
}

TEST(AqlEncodingSource, AQL_IDX_2_CachedBoundIsTheFullCheck) {
  EXPECT_TRUE(bound_is_room_for({}));
  std::bitset<static_cast<size_t>(Mutant::kCount)> planted;
  planted.set(static_cast<size_t>(Mutant::RoomLimitPastRing));
  EXPECT_FALSE(bound_is_room_for(planted)) << "the off-by-one bound went unnoticed";
}

}  // namespace
}  // namespace rocref::proofs

namespace rocref::proofs {
namespace {

// AQL-SRC-1: the encoding's producer step order is the one src/'s
// aql::producer_program runs, and src/'s planted branch changes it.
TEST(AqlEncodingSource, AQL_SRC_1_ProducerOrderComesFromTheCode) {
  z3::context ctx;
  model::AqlConfig cfg;
  using model::Action;
  EXPECT_EQ(AqlEncoding(ctx, cfg).producer_steps(),
            (std::vector<Action>{Action::Reserve, Action::CheckRoom, Action::WriteBody, Action::Publish,
                                 Action::RingDoorbell}));
  cfg.reservation = model::Reservation::Cas;
  EXPECT_EQ(AqlEncoding(ctx, cfg).producer_steps(),
            (std::vector<Action>{Action::Reserve, Action::WriteBody, Action::Publish, Action::RingDoorbell}));
  cfg.mutants.doorbell_before_header = true;  // Mutant::DoorbellBeforeHeader in producer_program
  EXPECT_EQ(AqlEncoding(ctx, cfg).producer_steps(),
            (std::vector<Action>{Action::Reserve, Action::WriteBody, Action::RingDoorbell, Action::Publish}));
}

// AQL-SRC-1: the encoding's full check and doorbell value are src/'s functions
// over Z3 terms: on numerals they evaluate to what the concrete instantiation returns.
TEST(AqlEncodingSource, AQL_SRC_1_DecisionsEvaluateLikeTheConcreteCode) {
  z3::context ctx;
  const Z3Domain z{&ctx, {}};
  const aql::ConcreteDomain c;
  const uint64_t samples[] = {0, 1, 2, 3, 7, 8, 1ull << 63, UINT64_MAX - 1, UINT64_MAX};
  for (uint64_t read : samples) {
    for (uint64_t first : samples) {
      const bool want = aql::room_for(c, read, first, uint64_t{8});
      EXPECT_EQ(aql::room_for(z, z.u64(read), z.u64(first), z.u64(8)).simplify().is_true(), want) << read << " " << first;
      const bool rung = (read & 1) != 0;
      uint64_t got = 0;
      aql::max_doorbell(z, z.truth(rung), z.u64(read), z.u64(first)).simplify().is_numeral_u64(got);
      EXPECT_EQ(got, aql::max_doorbell(c, rung, read, first)) << read << " " << first;
    }
  }
}

}  // namespace
}  // namespace rocref::proofs
