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
