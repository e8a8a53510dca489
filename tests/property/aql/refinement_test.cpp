// tests/property/aql/refinement_test.cpp - the real producer core and packet processor refine the
// protocol model, and the queue properties of spec/aql-queue.md hold on random interleavings.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <algorithm>
#include <set>

#include "gen.h"
#include "lockstep.h"

namespace rocref::prop {
namespace {

// covers: AQL-IDX-1, AQL-IDX-2, AQL-PUB-2, AQL-RET-1, AQL-SIG-2
RC_GTEST_PROP(AqlProperty, RealCodeRefinesModel, ()) {
  const LockstepConfig c = draw_config();
  const Trace t = run_lockstep(c, draw_program(), true);
  RC_LOG() << t.all();
  RC_ASSERT(t.failures.empty());
  RC_ASSERT(t.final);
}

RC_GTEST_PROP(AqlProperty, AQL_IDX_3_CasKeepsWriteWithinOneRingOfRead, ()) {
  ConfigShape shape;
  shape.any_reservation = false;
  shape.reservation = model::Reservation::Cas;
  const LockstepConfig c = draw_config(shape);
  const Trace t = run_lockstep(c, draw_program(), true);
  RC_CLASSIFY(t.steps.size() > 50, "long run");
  RC_ASSERT(t.first("AQL-IDX-3").empty());
  RC_ASSERT(t.max_write_lead <= c.model.ring_size);
}

RC_GTEST_PROP(AqlProperty, AQL_IDX_4_FetchAddWriterOwnsIndexInWindow, ()) {
  ConfigShape shape;
  shape.any_reservation = false;
  const LockstepConfig c = draw_config(shape);
  const Trace t = run_lockstep(c, draw_program(), true);
  RC_ASSERT(t.first("AQL-IDX-4").empty());
  RC_ASSERT(t.first("AQL-IDX-2").empty());
}

// AQL-IDX-7: the plain load+store reservation of a queue's one producer refines the model.
RC_GTEST_PROP(AqlProperty, AQL_IDX_7_PlainReservationOfOneProducerRefinesModel, ()) {
  ConfigShape shape;
  shape.any_reservation = false;
  shape.reservation = model::Reservation::Plain;
  shape.near_wrap = *rc::gen::arbitrary<bool>();
  LockstepConfig c = draw_config(shape);
  c.model.producers = 1;
  c.model.single_queue = true;
  const Trace t = run_lockstep(c, draw_program(), true);
  RC_LOG() << t.all();
  RC_ASSERT(t.failures.empty());
  RC_ASSERT(t.final);
}

// AQL-IDX-7: two producers on the plain form both load write_index before either stores
// it: they own the same packet id, and the second overwrites the first's slot. The model
// and the real ring agree that this loses a packet.
TEST(AqlPropertyScript, AQL_IDX_7_TwoPlainProducersLoseAPacket) {
  LockstepConfig c;
  c.model.producers = 2;
  c.model.ring_size = 4;
  c.model.packets_per_producer = 1;
  c.model.reservation = model::Reservation::Plain;
  using model::Action;
  using model::Actor;
  const std::vector<model::Step> script = {
      {Actor::Producer, Action::Reserve, 0},         {Actor::Producer, Action::Reserve, 1},
      {Actor::Producer, Action::StoreWriteIndex, 0}, {Actor::Producer, Action::StoreWriteIndex, 1},
      {Actor::Producer, Action::CheckRoom, 0},       {Actor::Producer, Action::CheckRoom, 1},
      {Actor::Producer, Action::WriteBody, 0},       {Actor::Producer, Action::Publish, 0},
      {Actor::Producer, Action::WriteBody, 1}};
  const Trace t = run_script(c, script, false);
  EXPECT_FALSE(t.first("AQL-IDX-2").empty()) << t.all();
}

// With fetch_add, reserving more packets than the ring holds is allowed; nobody writes past the window.
RC_GTEST_PROP(AqlProperty, AQL_IDX_4_FetchAddWriteIndexRunsPastFullRing, ()) {
  LockstepConfig c = draw_config(ConfigShape{false, model::Reservation::FetchAdd, true, {}, false, 3});
  c.model.ring_size = 2;
  std::vector<model::Step> script;
  for (uint32_t p = 0; p < c.model.producers; ++p) script.push_back({model::Actor::Producer, model::Action::Reserve, p});
  const Trace reserved = run_script(c, script, false);
  RC_ASSERT(reserved.failures.empty());
  RC_ASSERT(reserved.max_write_lead == c.model.producers);
  RC_ASSERT(reserved.max_write_lead > c.model.ring_size);
  const Trace t = run_script(c, script, true);
  RC_LOG() << t.all();
  RC_ASSERT(t.failures.empty());
  RC_ASSERT(t.first("AQL-IDX-4").empty());
  RC_ASSERT(t.final);
}

RC_GTEST_PROP(AqlProperty, AQL_IDX_5_ProtocolHoldsAcrossTwoToThe64, ()) {
  ConfigShape shape;
  shape.near_wrap = true;
  const LockstepConfig c = draw_config(shape);
  const Trace t = run_lockstep(c, draw_program(), true);
  RC_LOG() << t.all();
  RC_ASSERT(t.failures.empty());
  RC_ASSERT(t.final);
  // The run crossed 2^64 whenever it launched enough packets.
  const uint64_t total = uint64_t{c.model.producers} * c.model.packets_per_producer;
  RC_ASSERT(t.launches.size() == total);
  RC_ASSERT(t.launches.front() == c.start);
}

RC_GTEST_PROP(AqlProperty, AQL_RET_2_EveryPacketConsumedOnceInOrder, ()) {
  const LockstepConfig c = draw_config();
  const Trace t = run_lockstep(c, draw_program(), true);
  RC_ASSERT(t.first("AQL-RET-2").empty());
  const uint64_t total = uint64_t{c.model.producers} * c.model.packets_per_producer;
  RC_ASSERT(t.launches.size() == total);
  for (uint64_t k = 0; k < t.launches.size(); ++k) RC_ASSERT(t.launches[k] == c.start + k);
  std::vector<uint64_t> ran = t.kernel_log;
  std::sort(ran.begin(), ran.end());
  for (uint64_t k = 0; k < ran.size(); ++k) RC_ASSERT(ran[k] == k);  // each body exactly once
  RC_ASSERT(ran.size() == total);
}

RC_GTEST_PROP(AqlProperty, AQL_PUB_3_NoPacketConsumedBeforeHeaderValid, ()) {
  const LockstepConfig c = draw_config();
  const Trace t = run_lockstep(c, draw_program(), true);
  RC_ASSERT(t.first("AQL-PUB-3").empty());
  RC_ASSERT(t.first("AQL-INV-1").empty());
  RC_ASSERT(t.kernel_log == t.completions);  // each completion ran its own packet's body
}

RC_GTEST_PROP(AqlProperty, AQL_INV_1_InvalidHeaderNeverConsumed, ()) {
  const LockstepConfig c = draw_config();
  // Many processor polls: choices that favour the last option (the idle poll when the model allows nothing).
  std::vector<uint32_t> program = draw_program();
  for (uint32_t& choice : program) choice = choice % 3 == 0 ? UINT32_MAX : choice;
  const Trace t = run_lockstep(c, program, true);
  RC_ASSERT(t.first("AQL-INV-1").empty());
  RC_ASSERT(t.first("REFINE").empty());
}

RC_GTEST_PROP(AqlProperty, AQL_DB_2_SingleQueueDoorbellNeverDecreases, ()) {
  LockstepConfig c = draw_config(ConfigShape{true, {}, false, model::DoorbellStore::Plain, false, 1});
  c.model.producers = 1;
  c.model.single_queue = true;
  const Trace t = run_lockstep(c, draw_program(), true);
  RC_LOG() << t.all();
  RC_ASSERT(t.failures.empty());
  for (size_t k = 1; k < t.doorbells.size(); ++k) RC_ASSERT(t.doorbells[k] - c.start > t.doorbells[k - 1] - c.start);
}

RC_GTEST_PROP(AqlProperty, AQL_DB_2_MaxStoreDoorbellMonotonicWithManyProducers, ()) {
  const LockstepConfig c = draw_config(ConfigShape{true, {}, false, model::DoorbellStore::Max, false, 2});
  const Trace t = run_lockstep(c, draw_program(), true);
  RC_LOG() << t.all();
  RC_ASSERT(t.failures.empty());
  for (size_t k = 1; k < t.doorbells.size(); ++k) RC_ASSERT(t.doorbells[k] - c.start >= t.doorbells[k - 1] - c.start);
}

// The doorbell is a hint on a MULTI queue: two producers' plain stores land out of order.
TEST(AqlProperty, AQL_DB_2_PlainStoresFromTwoProducersGoBackwards) {
  LockstepConfig c;
  c.model.producers = 2;
  c.model.ring_size = 4;
  c.model.packets_per_producer = 1;
  c.model.doorbell = model::DoorbellStore::Plain;
  using model::Action;
  auto p = [](uint32_t i, Action a) { return model::Step{model::Actor::Producer, a, i}; };
  // Producer 0 reserves first, producer 1 publishes and rings first, then producer 0 rings.
  const std::vector<model::Step> script = {
      p(0, Action::Reserve),   p(1, Action::Reserve), p(0, Action::CheckRoom), p(1, Action::CheckRoom),
      p(1, Action::WriteBody), p(1, Action::Publish), p(1, Action::RingDoorbell),
      p(0, Action::WriteBody), p(0, Action::Publish), p(0, Action::RingDoorbell)};
  const Trace t = run_script(c, script, true);
  ASSERT_TRUE(t.failures.empty()) << t.all();
  ASSERT_GE(t.doorbells.size(), 2u);
  EXPECT_EQ(t.doorbells[0], 1u);
  EXPECT_EQ(t.doorbells[1], 0u) << "the second plain store went back";
  EXPECT_TRUE(t.final) << "the processor relies on headers, not the doorbell";
  // The max-store variant keeps the larger value on the same interleaving.
  c.model.doorbell = model::DoorbellStore::Max;
  const Trace m = run_script(c, script, true);
  ASSERT_TRUE(m.failures.empty()) << m.all();
  EXPECT_EQ(m.doorbells[1], 1u);
}

RC_GTEST_PROP(AqlProperty, AQL_DB_3_DoorbellNamesOnlyPublishedPackets, ()) {
  const LockstepConfig c = draw_config();
  const Trace t = run_lockstep(c, draw_program(), true);
  RC_ASSERT(t.first("AQL-DB-3").empty());
  RC_ASSERT(t.doorbells.size() == uint64_t{c.model.producers} * c.model.packets_per_producer);
}

RC_GTEST_PROP(AqlProperty, AQL_BAR_1_BarrierPacketLaunchesOnlyAfterEarlierCompletions, ()) {
  LockstepConfig c = draw_config();
  c.model.barrier_every = *rc::gen::element<uint32_t>(1, 2, 3);
  const Trace t = run_lockstep(c, draw_program(), true);
  RC_ASSERT(t.first("AQL-BAR-1").empty());
  RC_ASSERT(t.first("REFINE").empty());
}

RC_GTEST_PROP(AqlProperty, AQL_LIVE_1_FairScheduleDrainsEveryPacket, ()) {
  const LockstepConfig c = draw_config();
  const Trace t = run_lockstep(c, draw_program(), true);
  RC_LOG() << t.all();
  RC_ASSERT(t.failures.empty());
  RC_ASSERT(t.final);
  RC_ASSERT(t.completions.size() == uint64_t{c.model.producers} * c.model.packets_per_producer);
}

RC_GTEST_PROP(AqlProperty, AQL_SIG_2_CompletionSignalMatchesSequentialModel, ()) {
  const LockstepConfig c = draw_config();
  const Trace t = run_lockstep(c, draw_program(), true);
  RC_ASSERT(t.first("AQL-SIG-2").empty());
  RC_ASSERT(t.completions.size() == uint64_t{c.model.producers} * c.model.packets_per_producer);
}

}  // namespace
}  // namespace rocref::prop
