// tests/unit/proofs/aql_bmc_test.cpp - BMC and induction of the queue: the correct protocol holds, mutants fail.
#include <gtest/gtest.h>

#include <cstdlib>
#include <iostream>

#include "proofs/aql/aql_check.h"

namespace rocref::proofs {
namespace {

model::AqlConfig config(uint32_t producers, uint32_t ring, uint32_t packets) {
  model::AqlConfig c;
  c.producers = producers;
  c.ring_size = ring;
  c.packets_per_producer = packets;
  c.barrier_every = 2;
  return c;
}

uint32_t env(const char* name, uint32_t fallback) {
  const char* d = std::getenv(name);
  return d ? static_cast<uint32_t>(std::atoi(d)) : fallback;
}

TEST(AqlBmc, CorrectProtocolHoldsAndIsInductive) {
  AqlCheckOptions o;
  o.depth = env("ROCREF_PROOF_DEPTH", 10);
  o.progress = [](const std::string& s) { std::cerr << s << "\n"; };
  for (auto r : {model::Reservation::FetchAdd, model::Reservation::Cas}) {
    model::AqlConfig c = config(env("ROCREF_PROOF_P", 2), env("ROCREF_PROOF_R", 2), env("ROCREF_PROOF_PPP", 2));
    c.reservation = r;
    const AqlRun run = check_aql(c, aql_clauses(c), o);
    EXPECT_TRUE(run.inductive) << run.induction_note;
    for (const auto& cl : run.clauses) {
      EXPECT_NE(cl.verdict.outcome, Outcome::Counterexample) << cl.clause << "\n" << cl.verdict.trace;
    }
    std::cerr << "bmc " << run.bmc_seconds << " s, induction " << run.induction_seconds << " s\n";
  }
}

}  // namespace
}  // namespace rocref::proofs

namespace rocref::proofs {
namespace {

// AQL-BAR-4: with BARRIER_VALUE packets among the others, the rules are inductive;
// each of the code's two planted BARRIER_VALUE bugs gives a counterexample naming the clause.
TEST(AqlProofs, AQL_BAR_4_BarrierValueRulesProvedAndMutantsCaught) {
  model::AqlConfig c;
  c.producers = 1;
  c.ring_size = 2;
  c.packets_per_producer = 3;
  c.barrier_value_every = 2;
  AqlCheckOptions o;
  o.depth = 6;
  const AqlRun safe = check_aql(c, aql_clauses(c), o);
  EXPECT_TRUE(safe.inductive) << safe.induction_note;
  for (const auto& cl : safe.clauses) EXPECT_EQ(cl.verdict.outcome, Outcome::Proved) << cl.clause;
  for (bool model::AqlMutants::*flag :
       {&model::AqlMutants::barrier_packet_does_not_block, &model::AqlMutants::barrier_value_ignores_condition}) {
    model::AqlConfig m = c;
    m.barrier_value_every = 1;
    m.mutants.*flag = true;
    AqlCheckOptions mo;
    mo.depth = 16;
    mo.induction = false;
    const AqlRun run = check_aql(m, {"AQL-BAR-4"}, mo);
    ASSERT_EQ(run.clauses.front().verdict.outcome, Outcome::Counterexample);
    EXPECT_NE(run.clauses.front().verdict.trace.find("AQL-BAR-4"), std::string::npos) << run.clauses.front().verdict.trace;
  }
}

}  // namespace
}  // namespace rocref::proofs
