// tests/unit/aql_ring/aql_ring_test.cpp - the producer core of common/aql_ring.h, step by step.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <set>
#include <thread>
#include <vector>

#include "common/aql_ring.h"
#include "common/engine_wake.h"
#include "doorbell_trap.h"
#include "test_queue.h"

namespace rocref::aql {
namespace {

using rocref::testing::DoorbellTrap;
using rocref::testing::TestQueue;

hsa_kernel_dispatch_packet_t dispatch_packet(uint64_t tag) {
  hsa_kernel_dispatch_packet_t p{};
  p.header = make_header(HSA_PACKET_TYPE_KERNEL_DISPATCH, false, HSA_FENCE_SCOPE_SYSTEM, HSA_FENCE_SCOPE_SYSTEM);
  p.setup = 1;
  p.workgroup_size_x = p.workgroup_size_y = p.workgroup_size_z = 1;
  p.grid_size_x = p.grid_size_y = p.grid_size_z = 1;
  p.kernel_object = tag;
  p.kernarg_address = reinterpret_cast<void*>(tag * 64);
  return p;
}

TEST(AqlRing, AQL_INV_3_InvalidateRingSetsEveryHeaderInvalid) {
  TestQueue q(16);
  std::memset(q.base(), 0xab, 16 * kPacketBytes);
  invalidate_ring(q.base(), 16);
  for (uint64_t id = 0; id < 16; ++id) {
    EXPECT_EQ(q.header(id), kInvalidHeader) << "slot " << id;
    EXPECT_EQ(header_type(q.header(id)), HSA_PACKET_TYPE_INVALID);
  }
}

TEST(AqlRing, AQL_IDX_1_FetchAddHandsOutConsecutiveIds) {
  TestQueue q(8, 100);
  QueueRing r = q.ring();
  EXPECT_EQ(r.reserve_fetch_add(1), 100u);
  EXPECT_EQ(r.reserve_fetch_add(3), 101u);  // k slots at once
  EXPECT_EQ(r.reserve_fetch_add(1), 104u);
  EXPECT_EQ(r.load_write_index(MemoryOrder::Relaxed), 105u);
  EXPECT_EQ(r.load_read_index(MemoryOrder::Relaxed), 100u);
  // fetch_add may run past a full ring (AQL-IDX-4): 105 + 8 > 100 + 8.
  EXPECT_EQ(r.reserve_fetch_add(8), 105u);
  EXPECT_FALSE(r.has_room(105, 8));
}

TEST(AqlRing, AQL_IDX_1_ConcurrentReservationsAreDisjoint) {
  constexpr int kThreads = 4, kEach = 2000;
  TestQueue q(kThreads * kEach * 2);  // room for every id: CAS never fails for lack of room
  QueueRing r = q.ring();
  std::vector<std::vector<uint64_t>> got(kThreads);
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      for (int i = 0; i < kEach; ++i) {
        if (i % 2) {
          got[t].push_back(r.reserve_fetch_add(1));
        } else {
          std::optional<uint64_t> id = r.try_reserve_cas(1);
          ASSERT_TRUE(id);
          got[t].push_back(*id);
        }
      }
    });
  }
  for (auto& t : threads) t.join();
  std::set<uint64_t> all;
  for (const auto& v : got) all.insert(v.begin(), v.end());
  EXPECT_EQ(all.size(), size_t{kThreads} * kEach) << "two producers were handed one id";
  EXPECT_EQ(*all.rbegin(), uint64_t{kThreads} * kEach - 1);
}

TEST(AqlRing, AQL_IDX_2_HasRoomCountsEveryReservedSlot) {
  TestQueue q(4, 10);
  QueueRing r = q.ring();
  EXPECT_TRUE(r.has_room(10, 4));
  EXPECT_FALSE(r.has_room(10, 5));
  EXPECT_TRUE(r.has_room(13, 1));
  EXPECT_FALSE(r.has_room(14, 1));  // id == read + size: full (PRM)
  r.store_read_index(11, MemoryOrder::Release);
  EXPECT_TRUE(r.has_room(14, 1));
}

TEST(AqlRing, AQL_IDX_2_WaitForRoomReturnsOnceReadIndexAdvances) {
  TestQueue q(2);
  QueueRing r = q.ring();
  const uint64_t id = r.reserve_fetch_add(3) + 2;  // id 2: one ring past read 0
  std::atomic<bool> done{false};
  std::thread producer([&] {
    r.wait_for_room(id, 1);
    done.store(true);
  });
  std::this_thread::sleep_for(std::chrono::milliseconds(5));
  EXPECT_FALSE(done.load()) << "producer passed the full check on a full ring";
  r.store_read_index(1, MemoryOrder::Release);
  producer.join();
  EXPECT_TRUE(done.load());
}

TEST(AqlRing, AQL_IDX_3_CasReservationFailsOnFullRingAndChangesNothing) {
  TestQueue q(4, 7);
  QueueRing r = q.ring();
  EXPECT_EQ(r.try_reserve_cas(3), std::optional<uint64_t>(7));
  EXPECT_FALSE(r.try_reserve_cas(2));  // 10 + 2 > 7 + 4
  EXPECT_EQ(r.load_write_index(MemoryOrder::Relaxed), 10u);
  EXPECT_EQ(r.try_reserve_cas(1), std::optional<uint64_t>(10));
  EXPECT_FALSE(r.try_reserve_cas(1));
  EXPECT_EQ(r.load_write_index(MemoryOrder::Relaxed), 11u);
}

TEST(AqlRing, AQL_IDX_5_FullCheckUsesModularDistanceAcrossWrap) {
  const uint64_t start = UINT64_MAX - 2;  // the ring's ids run ..., 2^64-1, 0, 1, ...
  TestQueue q(4, start);
  QueueRing r = q.ring();
  EXPECT_EQ(index_distance(start, start + 4), 4u);
  EXPECT_EQ(r.try_reserve_cas(4), std::optional<uint64_t>(start));
  EXPECT_EQ(r.load_write_index(MemoryOrder::Relaxed), 1u);  // wrapped
  EXPECT_FALSE(r.try_reserve_cas(1));
  EXPECT_FALSE(r.has_room(1, 1));
  EXPECT_TRUE(r.has_room(start + 3, 1));  // == 0 after wrap, the last slot of the window
  r.store_read_index(start + 2, MemoryOrder::Release);  // == UINT64_MAX
  EXPECT_TRUE(r.has_room(1, 1));
  EXPECT_EQ(r.slot(start), r.slot(start + 4));  // same slot one ring later, across the wrap
}

TEST(AqlRing, AQL_IDX_6_IndexOperationsInEveryMemoryOrder) {
  for (MemoryOrder o : {MemoryOrder::Relaxed, MemoryOrder::Acquire, MemoryOrder::Release, MemoryOrder::AcqRel}) {
    TestQueue q(8, 5);
    QueueRing r = q.ring();
    EXPECT_EQ(r.load_write_index(o), 5u);
    r.store_write_index(6, o);
    EXPECT_EQ(r.add_write_index(2, o), 6u);
    EXPECT_EQ(r.cas_write_index(7, 20, o), 8u);  // fails: returns what it saw
    EXPECT_EQ(r.cas_write_index(8, 9, o), 8u);   // succeeds: returns expected
    EXPECT_EQ(r.load_write_index(o), 9u);
    r.store_read_index(9, o);
    EXPECT_EQ(r.load_read_index(o), 9u);
  }
  // A load cannot release, a store cannot acquire: they weaken, never strengthen into UB.
  static_assert(load_order(MemoryOrder::Release) == std::memory_order_relaxed);
  static_assert(load_order(MemoryOrder::AcqRel) == std::memory_order_acquire);
  static_assert(store_order(MemoryOrder::Acquire) == std::memory_order_relaxed);
  static_assert(store_order(MemoryOrder::AcqRel) == std::memory_order_release);
  static_assert(rmw_order(MemoryOrder::AcqRel) == std::memory_order_acq_rel);
}

TEST(AqlRing, AQL_PUB_1_PublishStoresHeaderAndSetupAsOneWord) {
  TestQueue q(4);
  QueueRing r = q.ring();
  const uint16_t header = make_header(HSA_PACKET_TYPE_KERNEL_DISPATCH, true, HSA_FENCE_SCOPE_AGENT,
                                      HSA_FENCE_SCOPE_SYSTEM);
  r.publish(2, make_header_setup(header, 3));
  EXPECT_EQ(q.header_setup(2), make_header_setup(header, 3));
  EXPECT_EQ(header_type(q.header(2)), HSA_PACKET_TYPE_KERNEL_DISPATCH);
  EXPECT_TRUE(header_barrier(q.header(2)));
  EXPECT_EQ(header_acquire_scope(q.header(2)), HSA_FENCE_SCOPE_AGENT);
  EXPECT_EQ(header_release_scope(q.header(2)), HSA_FENCE_SCOPE_SYSTEM);
  for (uint64_t other : {0, 1, 3}) EXPECT_EQ(q.header(other), kInvalidHeader);
}

TEST(AqlRing, AQL_PUB_2_WriteBodyLeavesHeaderWordUntouched) {
  TestQueue q(4);
  QueueRing r = q.ring();
  const hsa_kernel_dispatch_packet_t p = dispatch_packet(42);
  r.write_body(1, &p);
  EXPECT_EQ(q.header(1), kInvalidHeader) << "the body write made the slot look valid";
  EXPECT_EQ(std::memcmp(r.slot(1) + 4, reinterpret_cast<const uint8_t*>(&p) + 4, kPacketBytes - 4), 0);
}

// The ring as the processor would see it at the instant of the doorbell store.
struct AtDoorbell {
  TestQueue* queue = nullptr;
  uint64_t id = 0;
  bool published = false;
  static void check(void* context) {
    auto* self = static_cast<AtDoorbell*>(context);
    self->published = header_type(self->queue->header(self->id)) == HSA_PACKET_TYPE_KERNEL_DISPATCH;
  }
};

TEST(AqlRing, AQL_DB_1_SubmitPublishesBeforeRinging) {
  TestQueue q(4, 40);
  AtDoorbell seen{&q};
  DoorbellTrap trap(q, &AtDoorbell::check, &seen);
  QueueRing r = q.ring();
  const hsa_kernel_dispatch_packet_t p = dispatch_packet(7);
  for (Reservation how : {Reservation::FetchAdd, Reservation::Cas}) {
    for (DoorbellStore bell : {DoorbellStore::Plain, DoorbellStore::Max}) {
      seen.id = r.load_write_index(MemoryOrder::Relaxed);
      seen.published = false;
      trap.arm();
      const uint64_t id = r.submit(&p, how, bell);
      EXPECT_EQ(id, seen.id);
      EXPECT_TRUE(seen.published) << "doorbell stored before the header of packet " << id;
      EXPECT_EQ(r.load_doorbell(), id);
      EXPECT_EQ(std::memcmp(r.slot(id), &p, kPacketBytes), 0);
      r.store_read_index(id + 1, MemoryOrder::Release);
    }
  }
  EXPECT_EQ(trap.stores(), 4u);
}

TEST(AqlRing, AQL_DB_2_MaxStoreNeverLowersDoorbell) {
  TestQueue q(8);
  QueueRing r = q.ring();
  r.ring_doorbell(5, DoorbellStore::Max);
  r.ring_doorbell(3, DoorbellStore::Max);
  EXPECT_EQ(r.load_doorbell(), 5u);
  r.ring_doorbell(6, DoorbellStore::Max);
  EXPECT_EQ(r.load_doorbell(), 6u);
  r.ring_doorbell(2, DoorbellStore::Plain);  // MULTI: a plain store may go back
  EXPECT_EQ(r.load_doorbell(), 2u);
}

TEST(AqlRing, AQL_DB_4_DoorbellWakesSleepingEngine) {
  TestQueue q(8);
  QueueRing r = q.ring();
  WakeChannel channel;
  register_doorbell_listener(&channel);
  std::atomic<bool> woke{false};
  std::chrono::steady_clock::duration slept{};
  std::thread engine([&] {
    const auto begin = std::chrono::steady_clock::now();
    channel.announce_sleep();
    if (r.load_doorbell() == 0) channel.sleep_for(std::chrono::seconds(30));  // re-check, then sleep
    slept = std::chrono::steady_clock::now() - begin;
    woke.store(true);
  });
  while (woke.load() == false && channel.wakeups() == 0) {
    r.ring_doorbell(1);
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  engine.join();
  unregister_doorbell_listener(&channel);
  EXPECT_TRUE(woke.load());
  EXPECT_LT(slept, std::chrono::seconds(10)) << "the doorbell store did not wake the sleeping engine";
  EXPECT_EQ(r.load_doorbell(), 1u);
}

}  // namespace
}  // namespace rocref::aql
