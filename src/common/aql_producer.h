// common/aql_producer.h - a per-thread AQL producer that caches what QueueRing re-reads.
//
// Same ring, same protocol as QueueRing::submit (AQL-IDX-1/2, AQL-PUB-1/2,
// AQL-DB-1): fetch_add reservation, full check, body, 32-bit release header
// store, doorbell. What it saves, measured in bench/queue: the ring base, mask
// and doorbell address are read once, not through amd_queue_t's first cache
// line (which every reservation dirties); each reservation is tested with one
// compare against a cached bound, the earlier of read_index + size for a
// read_index seen earlier (read_index only grows, so a stale bound is
// conservative) and the end of the lap its slots are addressed in (slot =
// lap bias + id * 64, no mask); the full check and read_dispatch_id are taken
// again only when the bound says no; a batch of k packets takes one fetch_add and
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
        read_seen_(atomic_field(queue->read_dispatch_id).load(kReadIndexLoadOrder)),
        limit_(read_seen_) {}  // no id is before it: the first reservation refreshes

  uint32_t size() const noexcept { return size_; }

  // One packet; returns its id. Its slot is lap_bias_ + (id + kBiasShift) * 64 (no mask, no base).
  ROCREF_PROTOCOL_INLINE uint64_t submit(const void* packet) noexcept { return program<true>(packet, 1); }

  // `count` consecutive packets (1 <= count <= size()) under one reservation
  // and one doorbell store; returns the first id. Headers are published in id
  // order, so the processor may start on the first while later bodies are written.
  ROCREF_PROTOCOL_INLINE uint64_t submit_batch(const void* packets, uint32_t count) noexcept {
    return program<false>(packets, count);
  }

 private:
  // The plain form has id + 1 in hand (the write index it stores); fetch_add has id.
  static constexpr uint64_t kBiasShift = How == Reservation::Plain ? 1 : 0;

  template <bool kOne>
  ROCREF_PROTOCOL_INLINE uint64_t program(const void* packets, uint32_t count) noexcept {
    struct Ops {
      BasicCachedProducer& self;
      const uint8_t* const bytes;
      const uint32_t packets;
      uint64_t first = 0;
      // Copies, taken after the full check: the slot writes below may alias any
      // member as far as the compiler knows.
      uintptr_t lap_bias = 0;  // kOne
      uint8_t* base = nullptr;
      uint64_t mask = 0;
      uint8_t* slot(uint32_t i) const noexcept {
        if constexpr (kOne) {
          // Plain: from first + 1, the sum just stored as the write index and dead after,
          // so the shift takes it in place (no copy of first).
          return reinterpret_cast<uint8_t*>(lap_bias + static_cast<uintptr_t>(first + kBiasShift) * kPacketBytes);
        } else {
          return base + ((first + i) & mask) * kPacketBytes;
        }
      }
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
      // AQL-IDX-2: one compare against the cached bound; room_for itself off this path.
      ROCREF_PROTOCOL_INLINE void wait_for_room() noexcept {
        if (!is_before(ConcreteDomain{}, first + packets - 1, self.limit_)) [[unlikely]] {
          self.refresh(first, packets);
        }
        if constexpr (kOne) {
          lap_bias = self.lap_bias_;
        } else {
          base = self.base_;
          mask = self.mask_;
        }
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

  // AQL-IDX-2 (common/aql_protocol.h room_for): [first, first+count) is free once
  // first + count <= read_index + size. read_seen_ is a read_index seen earlier;
  // read_index only grows, so the cached check is conservative. Then the next
  // bound: the earlier of room_limit (room ends) and the end of first's lap (where
  // lap_bias_ stops naming the slot), so one compare covers both.
  __attribute__((noinline)) void refresh(uint64_t first, uint32_t count) noexcept {
    const uint64_t last = first + count - 1;
    if (!room_for(ConcreteDomain{}, read_seen_, last, uint64_t{size_})) {
      Backoff backoff;
      for (;;) {
        // Acquire: the processor's reads of the old packets happen before our writes.
        read_seen_ = atomic_field(queue_->read_dispatch_id).load(kReadIndexLoadOrder);
        if (room_for(ConcreteDomain{}, read_seen_, last, uint64_t{size_})) break;
        backoff.pause();
      }
    }
    const uint64_t lap = first & ~mask_;
    const uint64_t lap_end = lap + size_;
    const uint64_t room_end = room_limit(ConcreteDomain{}, read_seen_, uint64_t{size_});
    limit_ = is_before(ConcreteDomain{}, room_end, lap_end) ? room_end : lap_end;
    // Modular: base + (id - lap) * 64 = lap_bias_ + (id + kBiasShift) * 64 for every id of the lap.
    lap_bias_ = reinterpret_cast<uintptr_t>(base_) - static_cast<uintptr_t>(lap + kBiasShift) * kPacketBytes;
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
  uint64_t limit_;          // ids before it have room and lie in lap_bias_'s lap
  uintptr_t lap_bias_ = 0;  // slot of id = lap_bias_ + (id + kBiasShift) * 64 while id is before limit_
};

using CachedProducer = BasicCachedProducer<DoorbellStore::Plain>;
// Many producers on one queue that want a doorbell that never goes back (AQL-DB-3).
using CachedMaxProducer = BasicCachedProducer<DoorbellStore::Max>;
// The one producer of a queue (AQL-IDX-7): no locked instruction per reservation.
using SingleProducer = BasicCachedProducer<DoorbellStore::Plain, Reservation::Plain>;

}  // namespace rocref::aql
