// tests/unit/aql_fast/aql_fast_queue.h - a small AQL queue in ROCR's layout, and the checks both test files share.
#pragma once

#include <hsa/amd_hsa_queue.h>
#include <hsa/amd_hsa_signal.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstring>
#include <thread>
#include <vector>

#include "common/aql_producer.h"
#include "common/aql_reader.h"
#include "common/aql_ring.h"

namespace rocref::aql::testing {

struct FastQueue {
  explicit FastQueue(uint32_t size) : ring(size) {
    signal.kind = AMD_SIGNAL_KIND_DOORBELL;
    signal.hardware_doorbell_ptr = &doorbell;
    queue.hsa_queue.base_address = ring.data();
    queue.hsa_queue.size = size;
    queue.hsa_queue.doorbell_signal.handle = reinterpret_cast<uintptr_t>(&signal);
    invalidate_ring(ring.data(), size);
  }
  uint64_t read_index() const { return atomic_field(const_cast<amd_queue_t&>(queue).read_dispatch_id).load(); }
  // Before any producer is built: producers cache the doorbell address.
  void move_doorbell(uint64_t* word) {
    *word = doorbell_value();
    signal.hardware_doorbell_ptr = word;
  }
  uint64_t doorbell_value() const {
    return std::atomic_ref<uint64_t>(*const_cast<uint64_t*>(signal.hardware_doorbell_ptr)).load();
  }
  const hsa_kernel_dispatch_packet_t& slot(uint64_t id) const { return ring[id % ring.size()]; }

  std::vector<hsa_kernel_dispatch_packet_t> ring;
  alignas(64) amd_queue_t queue{};
  alignas(64) amd_signal_t signal{};
  alignas(64) uint64_t doorbell = 0;
};

inline hsa_kernel_dispatch_packet_t dispatch(uint32_t producer, uint64_t seq) {
  hsa_kernel_dispatch_packet_t p{};
  p.header = make_header(HSA_PACKET_TYPE_KERNEL_DISPATCH, false, HSA_FENCE_SCOPE_SYSTEM, HSA_FENCE_SCOPE_SYSTEM);
  p.setup = 1;
  p.private_segment_size = producer;
  p.kernel_object = seq;
  return p;
}

// AQL-INV-4: a reader that found the ring drained (nothing reserved past read_index) must
// not look at the slot there. A header is planted in that slot without reserving its id (no
// correct producer does this; it makes a slot poll visible). True if the reader took it.
inline bool drained_reader_reads_unreserved_slot() {
  FastQueue q(8);
  RingReader reader(&q.queue, 1);
  hsa_kernel_dispatch_packet_t out{};
  EXPECT_FALSE(reader.try_fetch(&out));  // drained: parks on the write index
  const auto planted = dispatch(0, 77);
  std::memcpy(reinterpret_cast<uint8_t*>(&q.ring[0]) + 4, reinterpret_cast<const uint8_t*>(&planted) + 4, 60);
  uint32_t header_setup;
  std::memcpy(&header_setup, &planted, sizeof header_setup);
  std::atomic_ref<uint32_t>(*reinterpret_cast<uint32_t*>(&q.ring[0])).store(header_setup, std::memory_order_release);
  const bool took = reader.try_fetch(&out);
  if (!took) {
    // Reserving the id makes the same packet the reader's to take.
    atomic_field(q.queue.write_dispatch_id).store(1);
    EXPECT_TRUE(reader.try_fetch(&out)) << "a reserved, published packet must end the parked wait";
    EXPECT_EQ(out.kernel_object, 77u);
  }
  return took;
}

// AQL-IDX-2: fills the ring, then submits one more from another thread while
// nothing is consumed. True if that submit finished (wrote its packet) before
// any slot was released; a correct producer waits until the reader frees one.
// `start`: the first id; from mid-lap the ring is full before a cached producer's
// lap ends, so its cached bound, not the lap's end, must stop it.
template <typename Producer = CachedProducer>
inline bool submits_into_full_ring(uint32_t size, uint64_t start = 0) {
  FastQueue q(size);
  q.queue.write_dispatch_id = start;
  q.queue.read_dispatch_id = start;
  Producer producer(&q.queue);
  for (uint32_t i = 0; i < size; ++i) {
    const auto p = dispatch(0, i);
    producer.submit(&p);
  }
  std::atomic<bool> done{false};
  std::thread extra([&] {
    const auto p = dispatch(0, size);
    producer.submit(&p);
    done.store(true);
  });
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(50);
  while (!done.load() && std::chrono::steady_clock::now() < deadline) std::this_thread::yield();
  const bool finished_early = done.load();
  RingReader reader(&q.queue);
  hsa_kernel_dispatch_packet_t out{};
  for (int tries = 0; tries < 100000 && !reader.try_fetch(&out);) ++tries;  // frees slot 0
  extra.join();
  return finished_early;
}

}  // namespace rocref::aql::testing
