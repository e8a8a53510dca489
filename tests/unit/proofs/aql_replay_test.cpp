// tests/unit/proofs/aql_replay_test.cpp - Z3 counterexamples replayed on the real ring and processor.
//
// For every planted bug that exists in the real code at step granularity, the
// interleaving Z3 finds for the model's mutant reproduces the failure on
// QueueRing + PacketProcessor with the real mutant on, and does not with it off.
#include <gtest/gtest.h>

#include <random>

#include "common/mutant.h"
#include "proofs/replay/aql_replay.h"

namespace rocref::proofs {
namespace {

model::AqlConfig small() {
  model::AqlConfig c;
  c.producers = 1;
  c.ring_size = 2;
  c.packets_per_producer = 3;
  c.barrier_every = 2;
  return c;
}

AqlTrace counterexample(bool model::AqlMutants::*flag, const std::vector<std::string>& clauses) {
  model::AqlConfig c = small();
  c.mutants.*flag = true;
  // Every packet a barrier: the shortest way to launch one while another is in flight.
  if (flag == &model::AqlMutants::ignore_barrier_bit) c.barrier_every = 1;
  AqlCheckOptions o;
  o.depth = 16;
  o.induction = false;
  const AqlRun run = check_aql(c, clauses, o);
  for (const AqlClauseResult& r : run.clauses) {
    if (r.trace) return *r.trace;
  }
  ADD_FAILURE() << "Z3 found no counterexample";
  return AqlTrace{c, model::initial_state(c), {}, ""};
}

bool starts_with_any(const std::string& s, const std::vector<std::string>& prefixes) {
  for (const std::string& p : prefixes) {
    if (s.rfind(p, 0) == 0) return true;
  }
  return false;
}

struct Case {
  const char* name;
  bool model::AqlMutants::*model_flag;
  Mutant real;
  std::vector<std::string> clauses;
};

class Replay : public ::testing::TestWithParam<Case> {};

TEST_P(Replay, ReproducesWithTheMutantAndNotWithout) {
  const Case& c = GetParam();
  const AqlTrace trace = counterexample(c.model_flag, c.clauses);
  ASSERT_FALSE(trace.steps.empty());
  {
    ScopedMutant on(c.real);
    const ReplayResult r = replay_on_real_code(trace);
    ASSERT_TRUE(r.violation) << format_trace(trace) << r.log << r.divergence;
    EXPECT_TRUE(starts_with_any(*r.violation, c.clauses)) << *r.violation;
    EXPECT_FALSE(r.diverged) << r.log;
  }
  const ReplayResult off = replay_on_real_code(trace);
  EXPECT_FALSE(off.violation) << *off.violation << "\n" << off.log;
}

INSTANTIATE_TEST_SUITE_P(
    RealMutants, Replay,
    ::testing::Values(
        Case{"SkipFullCheck", &model::AqlMutants::skip_full_check, Mutant::SkipFullCheck, {"AQL-IDX-4", "AQL-IDX-2"}},
        Case{"DoorbellOverAdvance", &model::AqlMutants::doorbell_over_advance, Mutant::DoorbellOverAdvance, {"AQL-DB-3"}},
        Case{"HeaderResetAfterReadIndex", &model::AqlMutants::header_reset_after_read_index,
             Mutant::HeaderResetAfterReadIndex, {"AQL-RET-1", "AQL-IDX-2"}},
        Case{"InvalidHeaderConsumed", &model::AqlMutants::invalid_header_consumed, Mutant::InvalidHeaderConsumed,
             {"AQL-INV-1"}},
        Case{"IgnoreBarrierBit", &model::AqlMutants::ignore_barrier_bit, Mutant::IgnoreBarrierBit, {"AQL-BAR-1"}},
        Case{"VendorTypeAcceptedAsValid", &model::AqlMutants::body_write_clears_header, Mutant::VendorTypeAcceptedAsValid,
             {"AQL-INV-2"}}),
    [](const ::testing::TestParamInfo<Case>& info) { return std::string(info.param.name); });

// The replay is not vacuous: a complete correct run of the model replays step for step, clean.
TEST(ReplayCorrect, RandomCompleteModelRunsReplayCleanOnRealCode) {
  std::mt19937 rng(20261122);
  for (int run = 0; run < 20; ++run) {
    model::AqlConfig c = small();
    c.producers = 1 + run % 2;
    c.packets_per_producer = 2;
    AqlTrace trace{c, model::initial_state(c), {}, ""};
    model::AqlState s = trace.initial;
    while (!model::is_final(c, s)) {
      const auto steps = model::enabled_steps(c, s);
      ASSERT_FALSE(steps.empty());
      trace.steps.push_back(steps[rng() % steps.size()]);
      s = model::step(c, s, trace.steps.back()).next;
    }
    const ReplayResult r = replay_on_real_code(trace);
    EXPECT_FALSE(r.diverged) << r.divergence << "\n" << r.log;
    EXPECT_FALSE(r.violation) << *r.violation;
    EXPECT_EQ(r.steps_run, trace.steps.size());
  }
}

}  // namespace
}  // namespace rocref::proofs
