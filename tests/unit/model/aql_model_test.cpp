// tests/unit/aql_model_test.cpp - the AQL protocol model: correct configurations are
// exhaustively clean, and every model mutant yields a counterexample naming its clause.
#include <gtest/gtest.h>

#include "models/explore.h"

namespace rocref::model {
namespace {

AqlConfig small() {
  AqlConfig c;
  c.producers = 2;
  c.ring_size = 2;
  c.packets_per_producer = 3;
  c.barrier_every = 2;
  return c;
}

TEST(AqlModel, CorrectProtocolIsExhaustivelyClean) {
  for (Reservation r : {Reservation::FetchAdd, Reservation::Cas}) {
    for (DoorbellStore d : {DoorbellStore::Plain, DoorbellStore::Max}) {
      AqlConfig c = small();
      c.reservation = r;
      c.doorbell = d;
      ExploreResult result = explore(c, 200);
      EXPECT_FALSE(result.counterexample) << result.counterexample->violation.message;
      EXPECT_TRUE(result.exhausted);
    }
  }
}

TEST(AqlModel, AQL_DB_2_PlainDoorbellFromTwoProducersGoesBackwards) {
  AqlConfig c = small();
  c.single_queue = true;
  ExploreResult result = explore(c, 200);
  ASSERT_TRUE(result.counterexample);
  EXPECT_EQ(result.counterexample->violation.clause, "AQL-DB-2");
}

struct MutantCase {
  const char* name;
  bool AqlMutants::*flag;
  Reservation reservation;
  const char* clause;
};

TEST(AqlModel, EveryMutantIsCaught) {
  const MutantCase cases[] = {
      {"skip_full_check", &AqlMutants::skip_full_check, Reservation::FetchAdd, "AQL-IDX-4"},
      {"skip_full_check/cas", &AqlMutants::skip_full_check, Reservation::Cas, "AQL-IDX-3"},
      {"doorbell_before_header", &AqlMutants::doorbell_before_header, Reservation::FetchAdd, "AQL-DB-1"},
      {"doorbell_over_advance", &AqlMutants::doorbell_over_advance, Reservation::FetchAdd, "AQL-DB-3"},
      {"header_reset_after_read_index", &AqlMutants::header_reset_after_read_index, Reservation::FetchAdd, "AQL-IDX-2"},
      {"body_write_clears_header", &AqlMutants::body_write_clears_header, Reservation::FetchAdd, "AQL-INV-2"},
      {"invalid_header_consumed", &AqlMutants::invalid_header_consumed, Reservation::FetchAdd, "AQL-INV-1"},
      {"ignore_barrier_bit", &AqlMutants::ignore_barrier_bit, Reservation::FetchAdd, "AQL-BAR-1"},
      {"non_atomic_signal_decrement", &AqlMutants::non_atomic_signal_decrement, Reservation::FetchAdd, "AQL-SIG-2"},
  };
  for (const MutantCase& m : cases) {
    AqlConfig c = small();
    c.reservation = m.reservation;
    c.mutants.*(m.flag) = true;
    ExploreResult result = explore(c, 200);
    ASSERT_TRUE(result.counterexample) << m.name << " was not caught";
    EXPECT_EQ(result.counterexample->violation.clause, m.clause) << m.name;
    // The counterexample replays to the same violation.
    Counterexample again = replay(c, result.counterexample->steps);
    EXPECT_EQ(again.violation.clause, m.clause) << m.name;
  }
}

}  // namespace
}  // namespace rocref::model
