// tests/unit/gpu/adversarial_test.cpp - the adversarial mode of the packet processor and the
// engine scheduler (gpu/adversary.h), stepped on the test's thread so every run of a seed
// makes the same choices: completion order, doorbell delivery, deferred writes below system
// scope, the doorbell checks, and liveness without a poll interval.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdlib>
#include <string>
#include <thread>
#include <vector>

#include "common/engine_wake.h"
#include "gpu/adversary.h"
#include "gpu/engine_scheduler.h"
#include "gpu/packet_processor.h"
#include "queue_fixture.h"

namespace rocref::gpu {
namespace {

using testing::barrier_packet;
using testing::dispatch_packet;
using testing::header_setup;
using testing::TestKernelObject;
using testing::TestQueue;
using testing::TestSignal;

struct OrderArgs {
  uint32_t index;
  std::vector<uint32_t>* order;  // the kernel appends its index (kernels run on the stepping thread)
};
void order_kernel(const void* kernarg) {
  const auto& a = *static_cast<const OrderArgs*>(kernarg);
  a.order->push_back(a.index);
}
uint64_t order_kernel_id() {
  static const uint64_t id = kernel_abi::register_kernel("adversarial_order", &order_kernel);
  return id;
}

struct StoreArgs {
  uint32_t* out;
  uint32_t value;
};
void store_kernel(const void* kernarg) {
  const auto& a = *static_cast<const StoreArgs*>(kernarg);
  std::atomic_ref<uint32_t>(*a.out).store(a.value, std::memory_order_release);
}
uint64_t store_kernel_id() {
  static const uint64_t id = kernel_abi::register_kernel("adversarial_store", &store_kernel);
  return id;
}

bool logged(const char* clause) {
  const std::vector<std::string> log = adversary::violation_log();
  return std::any_of(log.begin(), log.end(), [&](const std::string& l) { return l.find(clause) != std::string::npos; });
}

class AdversarialGpu : public ::testing::Test {
 protected:
  void SetUp() override { adversary::clear_violations(); }
  void TearDown() override { adversary::disable(); }
  QueueBinding binding() {
    QueueBinding b;
    b.queue = &q.queue;
    b.memory = &memory;
    b.on_error = [this](hsa_status_t, uint64_t) { ++errors; };
    return b;
  }
  // Runs n non-barrier dispatches (barrier bit as given) on a fresh processor; their order.
  std::vector<uint32_t> completion_order(uint64_t seed, uint32_t n, bool barrier_bit) {
    adversary::enable(seed);
    TestQueue queue(32);
    FlatMemory flat;
    QueueBinding b;
    b.queue = &queue.queue;
    b.memory = &flat;
    PacketProcessor p(std::move(b));
    TestKernelObject kernel(order_kernel_id(), 0, sizeof(OrderArgs));
    std::vector<uint32_t> order;
    std::vector<OrderArgs> args(n);
    std::vector<TestSignal> done(n);
    for (uint32_t i = 0; i < n; ++i) {
      args[i] = OrderArgs{i, &order};
      queue.submit(dispatch_packet(kernel.address(), done[i].handle(), 1, 1, &args[i], barrier_bit));
    }
    for (int k = 0; k < 10000 && order.size() < n; ++k) p.step();
    adversary::disable();
    return order;
  }

  TestQueue q;
  FlatMemory memory;
  int errors = 0;
};

TEST_F(AdversarialGpu, AQL_ADV_1_NonBarrierPacketsCompleteInAnyOrder) {
  bool reordered = false;
  for (uint64_t seed = 1; seed <= 8; ++seed) {
    const std::vector<uint32_t> order = completion_order(seed, 8, false);
    ASSERT_EQ(order.size(), 8u) << "seed " << seed;
    reordered |= !std::is_sorted(order.begin(), order.end());
    // AQL-BAR-1: with the barrier bit every packet waits for all before it.
    const std::vector<uint32_t> in_order = completion_order(seed, 8, true);
    ASSERT_EQ(in_order.size(), 8u) << "seed " << seed;
    EXPECT_TRUE(std::is_sorted(in_order.begin(), in_order.end())) << "seed " << seed;
  }
  EXPECT_TRUE(reordered) << "eight seeds, eight packets each, and every run completed in order";
}

TEST_F(AdversarialGpu, AQL_ADV_1_SameSeedSameOrder) {
  EXPECT_EQ(completion_order(5, 8, false), completion_order(5, 8, false));
}

TEST_F(AdversarialGpu, AQL_ADV_2_PublishedPacketWaitsForARing) {
  adversary::enable(3);
  PacketProcessor p(binding());
  TestSignal first(1), second(1);
  q.submit(barrier_packet<hsa_barrier_and_packet_t>(HSA_PACKET_TYPE_BARRIER_AND, {}, first.handle()));
  for (int k = 0; k < 100 && first.value() != 0; ++k) p.step();
  ASSERT_EQ(first.value(), 0);
  // Packet 1 published, its doorbell not rung.
  aql::QueueRing ring = q.ring();
  const uint64_t id = ring.reserve_fetch_add(1);
  const auto packet = barrier_packet<hsa_barrier_and_packet_t>(HSA_PACKET_TYPE_BARRIER_AND, {}, second.handle());
  ring.write_body(id, &packet);
  ring.publish(id, header_setup(HSA_PACKET_TYPE_BARRIER_AND));
  for (int k = 0; k < 100; ++k) p.step();
  EXPECT_EQ(second.value(), 1) << "launched without a ring";
  ring.ring_doorbell(id);
  // AQL-ADV-3: delays and late delivery are bounded.
  for (int k = 0; k < 100 && second.value() != 0; ++k) p.step();
  EXPECT_EQ(second.value(), 0) << "the ring was never delivered";
}

TEST_F(AdversarialGpu, AQL_FEN_4_AgentScopeReleaseCompletesBeforeTheWrites) {
  adversary::enable(4);
  PacketProcessor p(binding());
  TestKernelObject kernel(store_kernel_id(), 0, sizeof(StoreArgs));
  uint32_t out = 0;
  StoreArgs args{&out, 7};
  TestSignal done(1), marker(1);
  auto packet = dispatch_packet(kernel.address(), done.handle(), 1, 1, &args);
  packet.header = aql::make_header(HSA_PACKET_TYPE_KERNEL_DISPATCH, false, HSA_FENCE_SCOPE_SYSTEM, HSA_FENCE_SCOPE_AGENT);
  q.submit(packet);
  for (int k = 0; k < 100 && done.value() != 0; ++k) p.step();
  ASSERT_EQ(done.value(), 0);
  EXPECT_EQ(out, 0u) << "agent-scope release: the host may see the signal before the writes";
  // AQL-FEN-5: a system-scope release on the agent makes them visible.
  q.submit(barrier_packet<hsa_barrier_and_packet_t>(HSA_PACKET_TYPE_BARRIER_AND, {}, marker.handle()));
  for (int k = 0; k < 100 && marker.value() != 0; ++k) p.step();
  ASSERT_EQ(marker.value(), 0);
  EXPECT_EQ(out, 7u);
}

TEST_F(AdversarialGpu, AQL_FEN_4_SystemScopeReleaseCompletesAfterTheWrites) {
  adversary::enable(4);
  PacketProcessor p(binding());
  TestKernelObject kernel(store_kernel_id(), 0, sizeof(StoreArgs));
  uint32_t out = 0;
  StoreArgs args{&out, 9};
  TestSignal done(1);
  q.submit(dispatch_packet(kernel.address(), done.handle(), 1, 1, &args));  // SYSTEM release
  for (int k = 0; k < 100 && done.value() != 0; ++k) p.step();
  ASSERT_EQ(done.value(), 0);
  EXPECT_EQ(out, 9u);
}

// AQL-FEN-6: n dispatches, one after the other, from one kernarg segment the host rewrites
// before each (the kernel stores the segment's value); how many read an older copy.
uint32_t stale_kernarg_reads(uint64_t seed, hsa_fence_scope_t acquire, uint32_t n) {
  adversary::enable(seed);
  TestQueue queue(32);
  FlatMemory flat;
  QueueBinding b;
  b.queue = &queue.queue;
  b.memory = &flat;
  PacketProcessor p(std::move(b));
  TestKernelObject kernel(store_kernel_id(), 0, sizeof(StoreArgs));
  uint32_t out = 0;
  StoreArgs args{};
  uint32_t stale = 0;
  for (uint32_t i = 0; i < n; ++i) {
    args = StoreArgs{&out, i + 1};
    TestSignal done(1);
    auto packet = dispatch_packet(kernel.address(), done.handle(), 1, 1, &args);
    packet.header = aql::make_header(HSA_PACKET_TYPE_KERNEL_DISPATCH, false, acquire, HSA_FENCE_SCOPE_SYSTEM);
    queue.submit(packet);
    for (int k = 0; k < 100 && done.value() != 0; ++k) p.step();
    EXPECT_EQ(done.value(), 0);
    if (out != i + 1) ++stale;
  }
  adversary::disable();
  return stale;
}

TEST_F(AdversarialGpu, AQL_FEN_6_SystemScopeAcquireReadsTheLatestKernarg) {
  for (uint64_t seed = 1; seed <= 8; ++seed) EXPECT_EQ(stale_kernarg_reads(seed, HSA_FENCE_SCOPE_SYSTEM, 16), 0u) << seed;
}

TEST_F(AdversarialGpu, AQL_FEN_6_NarrowAcquireMayReadAnOlderKernargCopy) {
  for (uint64_t seed = 1; seed <= 8; ++seed) {
    EXPECT_GT(stale_kernarg_reads(seed, HSA_FENCE_SCOPE_AGENT, 16), 0u) << seed;
    EXPECT_GT(stale_kernarg_reads(seed, HSA_FENCE_SCOPE_NONE, 16), 0u) << seed;
  }
}

// The doorbell checks run in the doorbell's notify, so a listener must be registered.
class AdversarialDoorbell : public AdversarialGpu {
 protected:
  void SetUp() override {
    AdversarialGpu::SetUp();
    register_doorbell_listener(&channel);
  }
  void TearDown() override {
    unregister_doorbell_listener(&channel);
    AdversarialGpu::TearDown();
  }
  WakeChannel channel;
};

TEST_F(AdversarialDoorbell, AQL_DB_1_DoorbellBeforeTheHeaderIsReported) {
  adversary::enable(6);
  PacketProcessor p(binding());
  TestSignal first(1);
  q.submit(barrier_packet<hsa_barrier_and_packet_t>(HSA_PACKET_TYPE_BARRIER_AND, {}, first.handle()));
  for (int k = 0; k < 100 && first.value() != 0; ++k) p.step();
  EXPECT_EQ(adversary::violations(), 0u);
  aql::QueueRing ring = q.ring();
  const uint64_t id = ring.reserve_fetch_add(1);
  const auto packet = barrier_packet<hsa_barrier_and_packet_t>(HSA_PACKET_TYPE_BARRIER_AND, {}, first.handle());
  ring.write_body(id, &packet);
  ring.ring_doorbell(id);  // before the header
  EXPECT_TRUE(logged("AQL-DB-1"));
  ring.publish(id, header_setup(HSA_PACKET_TYPE_BARRIER_AND));
  for (int k = 0; k < 10 && !p.in_error(); ++k) p.step();
  EXPECT_TRUE(p.in_error()) << "the violation puts the queue in error";
  ASSERT_TRUE(p.last_error().has_value());
  EXPECT_NE(p.last_error()->what.find("ROCREF_GPU_SEED=6"), std::string::npos) << p.last_error()->what;
}

TEST_F(AdversarialDoorbell, AQL_IDX_2_PacketOverAnUnreadSlotIsReported) {
  adversary::enable(7);
  PacketProcessor p(binding());
  for (int k = 0; k < 10; ++k) p.step();  // binds the queue (a step may be a seeded delay)
  aql::QueueRing ring = q.ring();
  TestSignal hold(1), done(1);
  // Slot 0 holds a packet the processor has not read (it is not stepped again).
  const auto packet = barrier_packet<hsa_barrier_and_packet_t>(HSA_PACKET_TYPE_BARRIER_AND, {}, done.handle());
  for (uint32_t i = 0; i < q.queue.hsa_queue.size; ++i) {
    const uint64_t id = ring.reserve_fetch_add(1);
    ring.write_body(id, &packet);
    ring.publish(id, header_setup(HSA_PACKET_TYPE_BARRIER_AND));
    ring.ring_doorbell(id);
  }
  EXPECT_EQ(adversary::violations(), 0u) << "a full ring is no violation";
  const uint64_t over = ring.reserve_fetch_add(1);  // id == size: slot 0, not yet read
  ring.ring_doorbell(over);
  EXPECT_TRUE(logged("AQL-IDX-2"));
}

TEST_F(AdversarialGpu, AQL_ADV_4_EveryRungPacketCompletesWithoutPolling) {
  for (uint64_t seed : {104u, 112u, 21u}) {
    adversary::enable(seed);
    TestQueue queue(16);
    FlatMemory flat;
    QueueBinding b;
    b.queue = &queue.queue;
    b.memory = &flat;
    PacketProcessor p(std::move(b));
    EngineScheduler engines;
    engines.add(p);
    engines.start();
    for (int i = 0; i < 200; ++i) {
      TestSignal done(1);
      queue.submit(barrier_packet<hsa_barrier_and_packet_t>(HSA_PACKET_TYPE_BARRIER_AND, {}, done.handle()));
      // A lost wake-up would leave this waiting (and the watchdog abort with the seed).
      while (done.value() != 0) std::this_thread::yield();
    }
    engines.stop();
    adversary::disable();
  }
}

// A producer whose doorbell stores notify nobody, on engines that do not poll: the first
// publication that finds the engines asleep is a lost wake-up, and the watchdog must report
// it with the seed (a spurious wake-up may find a packet first: then the next one).
void lose_a_wake_up() {
  setenv("ROCREF_GPU_WATCHDOG_MS", "300", 1);
  adversary::enable(9);
  TestQueue queue(16);
  FlatMemory flat;
  QueueBinding b;
  b.queue = &queue.queue;
  b.memory = &flat;
  PacketProcessor p(std::move(b));
  EngineScheduler engines;
  engines.add(p);
  engines.start();
  TestSignal first(1);
  queue.submit(barrier_packet<hsa_barrier_and_packet_t>(HSA_PACKET_TYPE_BARRIER_AND, {}, first.handle()));
  while (first.value() != 0) std::this_thread::yield();
  aql::QueueRing ring = queue.ring();
  for (int i = 0; i < 1000; ++i) {
    const uint64_t sleeps = engines.stats().sleeps;
    while (engines.stats().sleeps == sleeps) std::this_thread::yield();  // the engines went to sleep
    TestSignal done(1);
    const uint64_t id = ring.reserve_fetch_add(1);
    const auto packet = barrier_packet<hsa_barrier_and_packet_t>(HSA_PACKET_TYPE_BARRIER_AND, {}, done.handle());
    ring.write_body(id, &packet);
    ring.publish(id, header_setup(HSA_PACKET_TYPE_BARRIER_AND));
    std::atomic_ref<uint64_t>(queue.doorbell_word).store(id, std::memory_order_release);  // no notify
    while (done.value() != 0) std::this_thread::yield();
  }
}

TEST(AdversarialGpuDeathTest, AQL_ADV_5_LostWakeUpIsReportedWithTheSeed) {
  ::testing::FLAGS_gtest_death_test_style = "threadsafe";
  EXPECT_DEATH(lose_a_wake_up(), "AQL-ADV-5: hang.*ROCREF_GPU_SEED=9");
}

}  // namespace
}  // namespace rocref::gpu
