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
// argument so the per-packet path carries no test for it.
#pragma once

#include <hsa/amd_hsa_queue.h>
#include <hsa/amd_hsa_signal.h>

#include <atomic>
#include <cstdint>
#include <cstring>

#include "common/aql_packet.h"
#include "common/aql_ring.h"
#include "common/backoff.h"
#include "common/engine_wake.h"
#include "common/memory_order.h"
#include "common/mutant.h"

namespace rocref::aql {

template <DoorbellStore Bell>
class BasicCachedProducer {
 public:
  explicit BasicCachedProducer(amd_queue_t* queue) noexcept
      : queue_(queue),
        base_(static_cast<uint8_t*>(queue->hsa_queue.base_address)),
        size_(queue->hsa_queue.size),
        mask_(queue->hsa_queue.size - 1),
        doorbell_(const_cast<uint64_t*>(signal_from_handle(queue->hsa_queue.doorbell_signal)->hardware_doorbell_ptr)),
        limit_(atomic_field(queue->read_dispatch_id).load(std::memory_order_acquire) + size_) {}

  uint32_t size() const noexcept { return size_; }

  // One packet; returns its id.
  uint64_t submit(const void* packet) noexcept { return submit_batch(packet, 1); }

  // `count` consecutive packets (1 <= count <= size()) under one reservation
  // and one doorbell store; returns the first id. Headers are published in id
  // order, so the processor may start on the first while later bodies are written.
  uint64_t submit_batch(const void* packets, uint32_t count) noexcept {
    // AQL-IDX-1: fetch_add form.
    const uint64_t first = atomic_field(queue_->write_dispatch_id).fetch_add(count, std::memory_order_relaxed);
    wait_for_room(first, count);
    // Locals: the slot writes below may alias any member as far as the compiler knows.
    uint8_t* const base = base_;
    const uint64_t mask = mask_;
    const auto* bytes = static_cast<const uint8_t*>(packets);
    if (mutant_active(Mutant::DoorbellBeforeHeader)) ring_doorbell(first + count - 1);
    for (uint32_t i = 0; i < count; ++i) {
      const uint8_t* packet = bytes + size_t{i} * kPacketBytes;
      uint8_t* slot = base + ((first + i) & mask) * kPacketBytes;
      // AQL-PUB-2: bytes 4..63 before the header.
      std::memcpy(slot + 4, packet + 4, kPacketBytes - 4);
      uint32_t header_setup;
      std::memcpy(&header_setup, packet, sizeof header_setup);
      // AQL-PUB-1: header and setup in one 32-bit release store.
      std::atomic_ref<uint32_t> word(*reinterpret_cast<uint32_t*>(slot));
      word.store(header_setup, mutant_active(Mutant::RelaxedHeaderStore) ? std::memory_order_relaxed
                                                                         : std::memory_order_release);
    }
    if (!mutant_active(Mutant::DoorbellBeforeHeader)) ring_doorbell(first + count - 1);
    return first;
  }

 private:
  // AQL-IDX-2: [first, first+count) is free once first + count <= read_index + size.
  // limit_ is a read_index seen earlier plus size; read_index only grows, so
  // it is never past the true limit. Compared by modular distance: a
  // reservation is at most size past the limit and ids wrap at 2^64.
  void wait_for_room(uint64_t first, uint32_t count) noexcept {
    if (mutant_active(Mutant::SkipFullCheck)) return;
    if (static_cast<int64_t>(first + count - limit_) <= 0) return;
    wait_for_room_slow(first, count);
  }

  __attribute__((noinline)) void wait_for_room_slow(uint64_t first, uint32_t count) noexcept {
    Backoff backoff;
    for (;;) {
      // Acquire: the processor's reads of the old packets happen before our writes.
      const uint64_t read = atomic_field(queue_->read_dispatch_id).load(std::memory_order_acquire);
      limit_ = read + size_;
      if (index_distance(read, first) + count <= size_) return;
      backoff.pause();
    }
  }

  // AQL-DB-1..3: the newest id of the batch, then wake a sleeping engine (AQL-DB-4).
  void ring_doorbell(uint64_t id) noexcept {
    std::atomic_ref<uint64_t> bell(*doorbell_);
    if constexpr (Bell == DoorbellStore::Max) {
      uint64_t current = bell.load(std::memory_order_relaxed);
      while (current < id &&
             !bell.compare_exchange_weak(current, id, std::memory_order_release, std::memory_order_relaxed)) {
      }
    } else {
      bell.store(id, std::memory_order_release);
    }
    notify_doorbell_listeners();
  }

  amd_queue_t* queue_;
  uint8_t* base_;
  uint32_t size_;
  uint64_t mask_;
  uint64_t* doorbell_;
  uint64_t limit_;
};

using CachedProducer = BasicCachedProducer<DoorbellStore::Plain>;
// Many producers on one queue that want a doorbell that never goes back (AQL-DB-3).
using CachedMaxProducer = BasicCachedProducer<DoorbellStore::Max>;

}  // namespace rocref::aql
