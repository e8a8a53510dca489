// common/aql_producer.h - a per-thread AQL producer that caches what QueueRing re-reads.
//
// Same ring, same protocol as QueueRing::submit (AQL-IDX-1/2, AQL-PUB-1/2,
// AQL-DB-1): fetch_add reservation, full check, body, 32-bit release header
// store, doorbell. What it saves, measured in bench/queue: the ring base, mask
// and doorbell address are read once, not through amd_queue_t's first cache
// line (which every reservation dirties); read_dispatch_id is re-read only
// when the cached copy says the ring is full (read_index only grows, so a
// stale copy is conservative); a batch of k packets takes one fetch_add and
// one doorbell store. One object per producer thread; any number of objects
// and QueueRing users may share a queue. The doorbell form is a template
// argument so the per-packet path carries no test for it. The step order and
// decisions are common/aql_protocol.h's, as QueueRing's and the proofs'.
//
// SingleProducer (Reservation::Plain, AQL-IDX-7) is the form for a queue with one
// producer (HSA_QUEUE_TYPE_SINGLE, or producers serialised by their caller): it
// reserves with a plain load and store of write_dispatch_id, no locked
// instruction, so nothing drains the store buffer per packet. Two of them on one
// queue lose packets.
#pragma once

#include <hsa/amd_hsa_queue.h>
#include <hsa/amd_hsa_signal.h>

#include <atomic>
#include <cstdint>
#include <cstring>

#include "common/aql_packet.h"
#include "common/aql_protocol.h"
#include "common/aql_ring.h"
#include "common/backoff.h"
#include "common/engine_wake.h"
#include "common/memory_order.h"
#include "common/mutant.h"

namespace rocref::aql {

template <DoorbellStore Bell, Reservation How = Reservation::FetchAdd>
class BasicCachedProducer {
  static_assert(How != Reservation::Cas, "a cached producer waits for room after reserving");

 public:
  explicit BasicCachedProducer(amd_queue_t* queue) noexcept
      : queue_(queue),
        base_(static_cast<uint8_t*>(queue->hsa_queue.base_address)),
        size_(queue->hsa_queue.size),
        mask_(queue->hsa_queue.size - 1),
        doorbell_(const_cast<uint64_t*>(signal_from_handle(queue->hsa_queue.doorbell_signal)->hardware_doorbell_ptr)),
        read_seen_(atomic_field(queue->read_dispatch_id).load(kReadIndexLoadOrder)) {}

  uint32_t size() const noexcept { return size_; }

  // One packet; returns its id.
  ROCREF_PROTOCOL_INLINE uint64_t submit(const void* packet) noexcept { return submit_batch(packet, 1); }

  // `count` consecutive packets (1 <= count <= size()) under one reservation
  // and one doorbell store; returns the first id. Headers are published in id
  // order, so the processor may start on the first while later bodies are written.
  ROCREF_PROTOCOL_INLINE uint64_t submit_batch(const void* packets, uint32_t count) noexcept {
    struct Ops {
      BasicCachedProducer& self;
      const uint8_t* const bytes;
      const uint32_t packets;
      uint64_t first = 0;
      // Copies, taken after the reservation: the slot writes below may alias any
      // member as far as the compiler knows.
      uint8_t* base = nullptr;
      uint64_t mask = 0;
      uint8_t* slot(uint32_t i) const noexcept { return base + ((first + i) & mask) * kPacketBytes; }
      // AQL-IDX-1: fetch_add form.
      ROCREF_PROTOCOL_INLINE void reserve() noexcept requires(How == Reservation::FetchAdd) {
        first = atomic_field(self.queue_->write_dispatch_id).fetch_add(packets, std::memory_order_relaxed);
      }
      // AQL-IDX-7: plain form, this producer being the queue's only one.
      ROCREF_PROTOCOL_INLINE void load_write_index() noexcept requires(How == Reservation::Plain) {
        first = atomic_field(self.queue_->write_dispatch_id).load(std::memory_order_relaxed);
      }
      ROCREF_PROTOCOL_INLINE void store_write_index() noexcept requires(How == Reservation::Plain) {
        atomic_field(self.queue_->write_dispatch_id).store(first + packets, std::memory_order_relaxed);
      }
      ROCREF_PROTOCOL_INLINE void wait_for_room() noexcept {
        self.wait_for_room(first, packets);
        base = self.base_;
        mask = self.mask_;
      }
      uint32_t count() const noexcept { return packets; }
      // AQL-PUB-2: bytes 4..63 before the header.
      ROCREF_PROTOCOL_INLINE void write_body(uint32_t i) noexcept {
        std::memcpy(slot(i) + 4, bytes + size_t{i} * kPacketBytes + 4, kPacketBytes - 4);
      }
      // AQL-PUB-1: header and setup in one 32-bit store.
      ROCREF_PROTOCOL_INLINE void publish(uint32_t i) noexcept {
        uint32_t header_setup;
        std::memcpy(&header_setup, bytes + size_t{i} * kPacketBytes, sizeof header_setup);
        std::atomic_ref<uint32_t>(*reinterpret_cast<uint32_t*>(slot(i))).store(header_setup, header_store_order(ConcreteDomain{}));
      }
      ROCREF_PROTOCOL_INLINE void ring_doorbell() noexcept { self.ring_doorbell(first + packets - 1); }
    } ops{*this, static_cast<const uint8_t*>(packets), count};
    producer_program(ConcreteDomain{}, ops);
    return ops.first;
  }

 private:
  // AQL-IDX-2 (common/aql_protocol.h room_for): [first, first+count) is free once
  // first + count <= read_index + size. read_seen_ is a read_index seen earlier;
  // read_index only grows, so the cached check is conservative.
  void wait_for_room(uint64_t first, uint32_t count) noexcept {
    if (room_for(ConcreteDomain{}, read_seen_, first + count - 1, uint64_t{size_})) return;
    wait_for_room_slow(first, count);
  }

  __attribute__((noinline)) void wait_for_room_slow(uint64_t first, uint32_t count) noexcept {
    Backoff backoff;
    for (;;) {
      // Acquire: the processor's reads of the old packets happen before our writes.
      read_seen_ = atomic_field(queue_->read_dispatch_id).load(kReadIndexLoadOrder);
      if (room_for(ConcreteDomain{}, read_seen_, first + count - 1, uint64_t{size_})) return;
      backoff.pause();
    }
  }

  // AQL-DB-1..3: the newest id of the batch, then wake a sleeping engine (AQL-DB-4).
  void ring_doorbell(uint64_t id) noexcept {
    store_doorbell(*doorbell_, doorbell_value(ConcreteDomain{}, id, uint64_t{size_}), Bell);
  }

  amd_queue_t* queue_;
  uint8_t* base_;
  uint32_t size_;
  uint64_t mask_;
  uint64_t* doorbell_;
  uint64_t read_seen_;
};

using CachedProducer = BasicCachedProducer<DoorbellStore::Plain>;
// Many producers on one queue that want a doorbell that never goes back (AQL-DB-3).
using CachedMaxProducer = BasicCachedProducer<DoorbellStore::Max>;
// The one producer of a queue (AQL-IDX-7): no locked instruction per reservation.
using SingleProducer = BasicCachedProducer<DoorbellStore::Plain, Reservation::Plain>;

}  // namespace rocref::aql
