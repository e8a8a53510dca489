// tests/unit/aql_fast/aql_fast_test.cpp - CachedProducer + RingReader keep the AQL protocol and FIFO order.
#include <gtest/gtest.h>

#include <thread>

#include "common/engine_wake.h"
#include "tests/unit/aql_fast/aql_fast_queue.h"

namespace rocref::aql::testing {
namespace {

bool sanitized() {
#if defined(__SANITIZE_THREAD__) || defined(__SANITIZE_ADDRESS__)
  return true;
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer) || __has_feature(address_sanitizer)
  return true;
#endif
#endif
  return false;
}

TEST(AqlFast, AQL_IDX_1_BatchTakesConsecutiveIdsAndOneDoorbell) {
  FastQueue q(16);
  CachedProducer producer(&q.queue);
  hsa_kernel_dispatch_packet_t batch[5];
  for (uint64_t i = 0; i < 5; ++i) batch[i] = dispatch(0, i);
  EXPECT_EQ(producer.submit_batch(batch, 5), 0u);
  EXPECT_EQ(producer.submit_batch(batch, 3), 5u);
  EXPECT_EQ(atomic_field(q.queue.write_dispatch_id).load(), 8u);
  EXPECT_EQ(q.doorbell_value(), 7u) << "AQL-DB-1: the doorbell names the newest packet of the batch";
  for (uint64_t id = 0; id < 8; ++id) {
    EXPECT_EQ(header_type(q.slot(id).header), HSA_PACKET_TYPE_KERNEL_DISPATCH);
    EXPECT_EQ(q.slot(id).kernel_object, id < 5 ? id : id - 5);
  }
}

TEST(AqlFast, AQL_RET_1_ReaderResetsHeaderThenAdvancesReadIndex) {
  FastQueue q(8);
  CachedProducer producer(&q.queue);
  RingReader reader(&q.queue, 1);
  const auto p = dispatch(3, 42);
  producer.submit(&p);
  hsa_kernel_dispatch_packet_t out{};
  ASSERT_TRUE(reader.try_fetch(&out));
  EXPECT_EQ(std::memcmp(&out, &p, sizeof p), 0) << "the whole packet, header included, is copied out";
  EXPECT_EQ(q.slot(0).header, kInvalidHeader);
  EXPECT_EQ(q.read_index(), 1u);
  EXPECT_FALSE(reader.try_fetch(&out)) << "AQL-INV-1: an INVALID slot is never consumed";
  EXPECT_EQ(q.read_index(), 1u);
}

TEST(AqlFast, AQL_RET_1_BatchedReadIndexIsPublishedByBatchOrWhenEmpty) {
  FastQueue q(16);
  CachedProducer producer(&q.queue);
  RingReader reader(&q.queue, 4);
  for (uint64_t i = 0; i < 6; ++i) {
    const auto p = dispatch(0, i);
    producer.submit(&p);
  }
  hsa_kernel_dispatch_packet_t out{};
  for (int i = 0; i < 3; ++i) ASSERT_TRUE(reader.try_fetch(&out));
  EXPECT_EQ(q.read_index(), 0u) << "held back below the batch";
  ASSERT_TRUE(reader.try_fetch(&out));
  EXPECT_EQ(q.read_index(), 4u) << "published at the batch";
  ASSERT_TRUE(reader.try_fetch(&out));
  ASSERT_TRUE(reader.try_fetch(&out));
  EXPECT_EQ(q.read_index(), 4u);
  EXPECT_FALSE(reader.try_fetch(&out));
  EXPECT_EQ(q.read_index(), 6u) << "an empty ring publishes everything fetched";
}

TEST(AqlFast, AQL_INV_4_DrainedReaderPollsWriteIndexNotSlot) { EXPECT_FALSE(drained_reader_reads_unreserved_slot()); }

// AQL-INV-4 with AQL-IDX-5: drained, parked, unparked by the next reservation, across 2^64;
// and a reserved id whose header is not yet published keeps the reader on the slot.
TEST(AqlFast, AQL_INV_4_ParkedReaderResumesAcrossWrap) {
  FastQueue q(4);
  q.queue.write_dispatch_id = UINT64_MAX - 2;
  q.queue.read_dispatch_id = UINT64_MAX - 2;
  CachedProducer producer(&q.queue);
  RingReader reader(&q.queue, 2);
  hsa_kernel_dispatch_packet_t out{};
  for (uint64_t i = 0; i < 10; ++i) {
    EXPECT_FALSE(reader.try_fetch(&out));
    EXPECT_TRUE(reader.parked()) << "nothing reserved: the reader waits on the write index";
    EXPECT_EQ(q.read_index(), UINT64_MAX - 2 + i) << "AQL-RET-1: everything fetched is published once drained";
    const auto p = dispatch(0, i);
    producer.submit(&p);
    ASSERT_TRUE(reader.try_fetch(&out));
    EXPECT_EQ(out.kernel_object, i);
  }
  atomic_field(q.queue.write_dispatch_id).fetch_add(1);  // reserved, header still INVALID
  EXPECT_FALSE(reader.try_fetch(&out));
  EXPECT_FALSE(reader.parked()) << "an id is reserved: its header, not the write index, decides";
}

TEST(AqlFast, AQL_IDX_2_ProducerWaitsForRoomInFullRing) {
  EXPECT_FALSE(submits_into_full_ring(8));
  EXPECT_FALSE(submits_into_full_ring(8, 4)) << "full before the lap ends";
  EXPECT_FALSE(submits_into_full_ring<SingleProducer>(8));
  EXPECT_FALSE(submits_into_full_ring<SingleProducer>(8, 4)) << "full before the lap ends";
}

// The cached producers name a slot by the lap of their last refresh (lap_bias_): every
// packet must still land in slot id % size, lap after lap, across 2^64 too.
template <typename Producer>
void cached_read_index_survives_wrap_around() {
  FastQueue q(4);
  q.queue.write_dispatch_id = UINT64_MAX - 1;  // ids wrap past 2^64 during the test
  q.queue.read_dispatch_id = UINT64_MAX - 1;
  Producer producer(&q.queue);
  RingReader reader(&q.queue, 2);
  hsa_kernel_dispatch_packet_t out{};
  for (uint64_t i = 0; i < 12; ++i) {
    const auto p = dispatch(0, i);
    EXPECT_EQ(producer.submit(&p), UINT64_MAX - 1 + i);
    EXPECT_EQ(q.slot(UINT64_MAX - 1 + i).kernel_object, i) << "AQL-IDX-2: the packet of id " << i << " is in its slot";
    ASSERT_TRUE(reader.try_fetch(&out));
    EXPECT_EQ(out.kernel_object, i);
  }
}

TEST(AqlFast, AQL_IDX_2_CachedReadIndexSurvivesWrapAround) { cached_read_index_survives_wrap_around<CachedProducer>(); }
TEST(AqlFast, AQL_IDX_7_SingleProducerSurvivesWrapAround) { cached_read_index_survives_wrap_around<SingleProducer>(); }

// A producer whose next id lies laps past its last one (other producers took the ids
// between) writes the slot of that id, not one of its cached lap.
TEST(AqlFast, AQL_IDX_2_CachedProducerFollowsIdsOtherProducersSkipped) {
  FastQueue q(4);
  CachedProducer a(&q.queue), b(&q.queue);
  RingReader reader(&q.queue, 1);
  hsa_kernel_dispatch_packet_t out{};
  uint64_t seq = 0;
  for (uint32_t round = 0; round < 4; ++round) {
    for (uint32_t k = 0; k < 1 + round * 3; ++k) {  // b takes 1, 4, 7, 10 ids: a's next id skips laps
      const auto p = dispatch(1, seq);
      const uint64_t id = b.submit(&p);
      EXPECT_EQ(q.slot(id).kernel_object, seq++);
      ASSERT_TRUE(reader.try_fetch(&out));
    }
    const auto p = dispatch(0, seq);
    const uint64_t id = a.submit(&p);
    EXPECT_EQ(q.slot(id).kernel_object, seq) << "AQL-IDX-2: packet " << id << " of the producer that skipped laps";
    ASSERT_TRUE(reader.try_fetch(&out));
    EXPECT_EQ(out.kernel_object, seq++);
  }
}

// Fetches producers * per_producer packets (dispatch(t, seq): kernel_object seq, private
// segment size t) and counts those out of their producer's order.
uint64_t fetch_checking_fifo(RingReader& reader, uint32_t producers, uint64_t per_producer) {
  std::vector<uint64_t> next(producers, 0);
  hsa_kernel_dispatch_packet_t out{};
  uint64_t got = 0, errors = 0;
  Backoff backoff;
  while (got < producers * per_producer) {
    if (!reader.try_fetch(&out)) {
      backoff.pause();
      continue;
    }
    backoff.reset();
    ++got;
    const uint32_t from = out.private_segment_size;
    if (from >= producers || out.kernel_object != next[from]++) ++errors;
  }
  return errors;
}

// Single packets from several producers (each one's ids jump by the others' and cross
// laps at any point): every packet arrives once, each producer's in order.
TEST(AqlFast, AQL_IDX_1_ConcurrentSinglePacketsKeepPerProducerFifo) {
  const uint32_t producers = 3;
  const uint64_t per_producer = sanitized() ? 3000 : 60000;
  FastQueue q(8);
  RingReader reader(&q.queue, 4);
  std::vector<std::thread> threads;
  for (uint32_t t = 0; t < producers; ++t) {
    threads.emplace_back([&, t] {
      CachedProducer producer(&q.queue);
      for (uint64_t seq = 0; seq < per_producer; ++seq) {
        const auto p = dispatch(t, seq);
        producer.submit(&p);
      }
    });
  }
  const uint64_t errors = fetch_checking_fifo(reader, producers, per_producer);
  for (auto& t : threads) t.join();
  hsa_kernel_dispatch_packet_t out{};
  EXPECT_FALSE(reader.try_fetch(&out));
  EXPECT_EQ(errors, 0u);
  EXPECT_EQ(q.read_index(), producers * per_producer);
}

// AQL-IDX-5 / AQL-DB-2 across 2^64: every producer form's doorbell keeps naming
// the newest packet when ids wrap (a max-store that compares ids as plain
// integers sticks at 2^64-1 and the processor never hears of packet 0).
template <typename Producer>
void doorbell_follows_ids_across_wrap() {
  FastQueue q(4);
  q.queue.write_dispatch_id = UINT64_MAX - 2;
  q.queue.read_dispatch_id = UINT64_MAX - 2;
  q.doorbell = UINT64_MAX - 3;  // the last id rung before the test
  Producer producer(&q.queue);
  RingReader reader(&q.queue, 1);
  hsa_kernel_dispatch_packet_t out{};
  for (uint64_t i = 0; i < 6; ++i) {
    const auto p = dispatch(0, i);
    const uint64_t id = producer.submit(&p);
    EXPECT_EQ(id, UINT64_MAX - 2 + i);
    EXPECT_EQ(q.doorbell_value(), id) << "AQL-DB-2: doorbell after packet " << id;
    ASSERT_TRUE(reader.try_fetch(&out));
    EXPECT_EQ(out.kernel_object, i);
  }
  // A batch that straddles the wrap rings once, for its last id.
  hsa_kernel_dispatch_packet_t batch[3] = {dispatch(0, 10), dispatch(0, 11), dispatch(0, 12)};
  q.queue.write_dispatch_id = UINT64_MAX - 1;
  q.queue.read_dispatch_id = UINT64_MAX - 1;
  q.doorbell = UINT64_MAX - 2;
  Producer second(&q.queue);
  RingReader reader2(&q.queue, 1);
  EXPECT_EQ(second.submit_batch(batch, 3), UINT64_MAX - 1);
  EXPECT_EQ(q.doorbell_value(), 0u) << "AQL-DB-2: the batch's newest id, past the wrap";
  for (uint64_t i = 0; i < 3; ++i) {
    ASSERT_TRUE(reader2.try_fetch(&out));
    EXPECT_EQ(out.kernel_object, 10 + i);
  }
}

TEST(AqlFast, AQL_DB_2_CachedProducerDoorbellAcrossWrap) { doorbell_follows_ids_across_wrap<CachedProducer>(); }
TEST(AqlFast, AQL_DB_2_CachedMaxProducerDoorbellAcrossWrap) { doorbell_follows_ids_across_wrap<CachedMaxProducer>(); }
TEST(AqlFast, AQL_DB_2_SingleProducerDoorbellAcrossWrap) { doorbell_follows_ids_across_wrap<SingleProducer>(); }

TEST(AqlFast, AQL_DB_2_QueueRingDoorbellAcrossWrap) {
  for (DoorbellStore bell : {DoorbellStore::Plain, DoorbellStore::Max}) {
    for (Reservation how : {Reservation::FetchAdd, Reservation::Cas}) {
      FastQueue q(4);
      q.queue.write_dispatch_id = UINT64_MAX - 1;
      q.queue.read_dispatch_id = UINT64_MAX - 1;
      q.doorbell = UINT64_MAX - 2;
      QueueRing ring(&q.queue);
      RingReader reader(&q.queue, 1);
      hsa_kernel_dispatch_packet_t out{};
      for (uint64_t i = 0; i < 5; ++i) {
        const auto p = dispatch(0, i);
        const uint64_t id = ring.submit(&p, how, bell);
        EXPECT_EQ(q.doorbell_value(), id) << "AQL-DB-2 after packet " << id;
        ASSERT_TRUE(reader.try_fetch(&out));
        EXPECT_EQ(out.kernel_object, i);
      }
    }
  }
}

// Several producers with batches, one reader with batched read_index: every
// packet arrives once, each producer's in order (and ids are handed out in order).
TEST(AqlFast, AQL_IDX_1_ConcurrentBatchesKeepPerProducerFifo) {
  const uint32_t producers = 3;
  const uint64_t per_producer = sanitized() ? 3000 : 60000;
  FastQueue q(64);
  RingReader reader(&q.queue, 16);
  std::vector<std::thread> threads;
  for (uint32_t t = 0; t < producers; ++t) {
    threads.emplace_back([&, t] {
      CachedMaxProducer producer(&q.queue);
      hsa_kernel_dispatch_packet_t batch[5];
      for (uint64_t seq = 0; seq < per_producer;) {
        const uint32_t n = static_cast<uint32_t>(std::min<uint64_t>(1 + seq % 5, per_producer - seq));
        for (uint32_t i = 0; i < n; ++i) batch[i] = dispatch(t, seq + i);
        producer.submit_batch(batch, n);
        seq += n;
      }
    });
  }
  const uint64_t errors = fetch_checking_fifo(reader, producers, per_producer);
  for (auto& t : threads) t.join();
  hsa_kernel_dispatch_packet_t out{};
  EXPECT_FALSE(reader.try_fetch(&out));  // empty: publishes the held-back read_index
  EXPECT_EQ(errors, 0u);
  EXPECT_EQ(q.read_index(), producers * per_producer);
  EXPECT_EQ(q.doorbell_value(), producers * per_producer - 1) << "AQL-DB-3: Max doorbell ends at the newest id";
}

TEST(AqlFast, AQL_DB_4_NotifyWithoutListenersSkipsAndWithOneWakes) {
  WakeChannel channel;
  notify_doorbell_listeners();  // no listener: nothing to wake, nothing to crash
  EXPECT_EQ(detail::g_doorbell_fence_needed.load(), 0u);
  register_doorbell_listener(&channel);
  EXPECT_GE(detail::g_doorbell_fence_needed.load(), 1u) << "a listener turns the fenced path on";
  channel.announce_sleep();
  notify_doorbell_listeners();
  EXPECT_EQ(channel.wakeups(), 1u);
  unregister_doorbell_listener(&channel);
  channel.announce_sleep();
  notify_doorbell_listeners();
  EXPECT_EQ(channel.wakeups(), 1u) << "an unregistered channel is not woken";
  channel.cancel_sleep();
}

}  // namespace
}  // namespace rocref::aql::testing
