// tests/unit/aql_fast/aql_fast_mutant_test.cpp - the checks of aql_fast_test catch CachedProducer's planted bugs.
#include <gtest/gtest.h>

#include "common/mutant.h"
#include "tests/unit/aql_fast/aql_fast_queue.h"
#include "tests/unit/aql_ring/doorbell_trap.h"

namespace rocref::aql::testing {
namespace {

TEST(AqlFastMutant, AQL_IDX_2_SkipFullCheckIsCaught) {
  EXPECT_FALSE(submits_into_full_ring(8));
  EXPECT_FALSE(submits_into_full_ring<SingleProducer>(8));
  ScopedMutant bug(Mutant::SkipFullCheck);
  EXPECT_TRUE(submits_into_full_ring(8)) << "the full-ring check did not notice a producer writing into a full ring";
  EXPECT_TRUE(submits_into_full_ring<SingleProducer>(8)) << "SingleProducer's full-ring check";
}

// The cached bound (room_limit): one id too many lets a producer overwrite the packet at
// read_index. Only visible where the ring fills before the producer's lap ends.
TEST(AqlFastMutant, AQL_IDX_2_RoomLimitPastRingIsCaught) {
  EXPECT_FALSE(submits_into_full_ring(8, 4));
  EXPECT_FALSE(submits_into_full_ring<SingleProducer>(8, 4));
  ScopedMutant bug(Mutant::RoomLimitPastRing);
  EXPECT_TRUE(submits_into_full_ring(8, 4)) << "CachedProducer's cached bound let id read_index + size through";
  EXPECT_TRUE(submits_into_full_ring<SingleProducer>(8, 4)) << "SingleProducer's cached bound";
}

TEST(AqlFastMutant, AQL_INV_4_IdleReaderPollsSlotIsCaught) {
  EXPECT_FALSE(drained_reader_reads_unreserved_slot());
  ScopedMutant bug(Mutant::IdleReaderPollsSlot);
  EXPECT_TRUE(drained_reader_reads_unreserved_slot()) << "a drained reader polling the slot went unnoticed";
}

// AQL-DB-1 is about the instant of the doorbell store: trap each store and
// look then at the header of the newest packet of the batch it announces.
struct AtDoorbell {
  FastQueue* queue = nullptr;
  uint64_t newest = 0;
  bool published = false;
  static void check(void* context) {
    auto* self = static_cast<AtDoorbell*>(context);
    const uint16_t header = std::atomic_ref<uint16_t>(const_cast<uint16_t&>(self->queue->slot(self->newest).header))
                                .load(std::memory_order_acquire);
    self->published = header_type(header) != HSA_PACKET_TYPE_INVALID;
  }
};

// Batches of 1, 3 and 8 packets; returns how many doorbell stores named an unpublished packet.
uint32_t unpublished_doorbells() {
  FastQueue q(64);
  AtDoorbell seen{&q};
  rocref::testing::DoorbellTrap trap(q, &AtDoorbell::check, &seen);
  CachedProducer producer(&q.queue);
  uint32_t bad = 0;
  uint64_t next = 0;
  for (uint32_t count : {1u, 3u, 8u}) {
    std::vector<hsa_kernel_dispatch_packet_t> batch(count);
    for (uint32_t i = 0; i < count; ++i) batch[i] = dispatch(0, next + i);
    seen.newest = next + count - 1;
    trap.arm();
    producer.submit_batch(batch.data(), count);
    bad += seen.published ? 0 : 1;
    next += count;
  }
  EXPECT_EQ(trap.stores(), 3u);
  return bad;
}

TEST(AqlFastMutant, AQL_DB_1_DoorbellBeforeHeaderIsCaught) {
  EXPECT_EQ(unpublished_doorbells(), 0u);
  ScopedMutant bug(Mutant::DoorbellBeforeHeader);
  EXPECT_EQ(unpublished_doorbells(), 3u) << "a doorbell rung before the header went unnoticed";
}

// The memory orders of the publication accesses are the spec's. On x86 no run shows a relaxed
// one (ThreadSanitizer does: scripts/sanitize thread, outside the default ctest), so the
// orders every producer and the processor take from common/aql_protocol.h are pinned here.
// covers: AQL-PUB-3, AQL-DB-1, AQL-IDX-2
TEST(AqlFastMutant, AQL_PUB_1_PublicationMemoryOrdersAreTheSpecs) {
  auto orders_are_the_specs = [] {
    return header_store_order(ConcreteDomain{}) == std::memory_order_release &&  // AQL-PUB-1
           kHeaderLoadOrder == std::memory_order_acquire &&                      // AQL-PUB-3
           kDoorbellStoreOrder == std::memory_order_release &&                   // AQL-DB-1
           kReadIndexStoreOrder == std::memory_order_release &&                  // AQL-IDX-2, AQL-RET-2
           kReadIndexLoadOrder == std::memory_order_acquire;
  };
  EXPECT_TRUE(orders_are_the_specs());
  ScopedMutant bug(Mutant::RelaxedHeaderStore);
  EXPECT_FALSE(orders_are_the_specs()) << "a relaxed header store went unnoticed";
}

}  // namespace
}  // namespace rocref::aql::testing
