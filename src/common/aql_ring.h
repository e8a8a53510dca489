// common/aql_ring.h - the lock-free multi-producer AQL submission core.
//
// Operates on the real ROCR queue layout (amd_queue_t from amd_hsa_queue.h):
// the ring lives at hsa_queue.base_address, the packet ids in
// write_dispatch_id / read_dispatch_id, and the doorbell is the amd_signal_t
// named by hsa_queue.doorbell_signal. Both the HSA runtime (producer) and the
// GPU model (processor) use this one definition of the ring.
//
// The producer steps are separate functions so that a deterministic driver can
// interleave them (spec/aql-queue.md AQL-IDX-*, AQL-PUB-*, AQL-DB-*); submit()
// composes them in the order of aql::producer_program. Their decisions (full
// check, doorbell value, memory orders) come from common/aql_protocol.h, the
// text the Z3 proofs instantiate.
#pragma once

#include <hsa/amd_hsa_queue.h>
#include <hsa/amd_hsa_signal.h>

#include <atomic>
#include <cstdint>
#include <cstring>
#include <optional>

#include "common/aql_packet.h"
#include "common/aql_protocol.h"
#include "common/backoff.h"
#include "common/engine_wake.h"
#include "common/memory_order.h"
#include "common/mutant.h"

namespace rocref::aql {

static_assert(offsetof(amd_queue_t, hsa_queue) == 0);
static_assert(offsetof(amd_queue_t, write_dispatch_id) == 56);
static_assert(offsetof(amd_queue_t, read_dispatch_id) == 128);
static_assert(sizeof(amd_queue_t) == 256);
static_assert(offsetof(amd_signal_t, value) == 8);
static_assert(offsetof(amd_signal_t, event_mailbox_ptr) == 16);
static_assert(offsetof(amd_signal_t, event_id) == 24);
static_assert(sizeof(amd_signal_t) == 64);

// FetchAdd and Cas: any number of producers. Plain (AQL-IDX-7): a load and a store of
// write_index, for a queue with one producer (HSA_QUEUE_TYPE_SINGLE).
enum class Reservation { FetchAdd, Cas, Plain };

// How a producer stores the doorbell (AQL-DB-2, AQL-DB-3).
enum class DoorbellStore {
  Plain,  // store the id (SINGLE queues, and ROCR's MULTI behaviour: may go backwards)
  Max,    // store max(current, id): monotonic even with many producers
};

// modular distance: how far `later` is past `earlier`, correct across 2^64 wrap-around.
constexpr uint64_t index_distance(uint64_t earlier, uint64_t later) noexcept {
  return later - earlier;
}

inline amd_signal_t* signal_from_handle(hsa_signal_t signal) noexcept {
  return reinterpret_cast<amd_signal_t*>(static_cast<uintptr_t>(signal.handle));
}

// AQL-DB-1..3: stores a doorbell value with release, then wakes a sleeping engine
// (AQL-DB-4). Max: a CAS loop keeps the newest value by modular distance (AQL-IDX-5).
inline void store_doorbell(uint64_t& word, uint64_t value, DoorbellStore how) noexcept {
  std::atomic_ref<uint64_t> bell(word);
  if (how == DoorbellStore::Max) {
    uint64_t current = bell.load(std::memory_order_relaxed);
    while (max_doorbell(ConcreteDomain{}, true, current, value) != current &&
           !bell.compare_exchange_weak(current, value, kDoorbellStoreOrder, std::memory_order_relaxed)) {
    }
  } else {
    bell.store(value, kDoorbellStoreOrder);
  }
  notify_doorbell_listeners();
}

class QueueRing {
 public:
  explicit QueueRing(amd_queue_t* queue) noexcept : queue_(queue) {}

  amd_queue_t* queue() const noexcept { return queue_; }
  uint32_t size() const noexcept { return queue_->hsa_queue.size; }
  uint8_t* slot(uint64_t id) const noexcept {
    return static_cast<uint8_t*>(queue_->hsa_queue.base_address) + (id & (size() - 1)) * kPacketBytes;
  }

  // --- index operations, every order the HSA API offers ---------------------
  uint64_t load_write_index(MemoryOrder order) const noexcept {
    return atomic_field(queue_->write_dispatch_id).load(load_order(order));
  }
  void store_write_index(uint64_t value, MemoryOrder order) noexcept {
    atomic_field(queue_->write_dispatch_id).store(value, store_order(order));
  }
  // Returns the previous value.
  uint64_t add_write_index(uint64_t count, MemoryOrder order) noexcept {
    return atomic_field(queue_->write_dispatch_id).fetch_add(count, rmw_order(order));
  }
  // Returns the value observed (== expected on success), as hsa_queue_cas_write_index does.
  uint64_t cas_write_index(uint64_t expected, uint64_t desired, MemoryOrder order) noexcept {
    atomic_field(queue_->write_dispatch_id)
        .compare_exchange_strong(expected, desired, rmw_order(order), load_order(order));
    return expected;
  }
  uint64_t load_read_index(MemoryOrder order) const noexcept {
    return atomic_field(queue_->read_dispatch_id).load(load_order(order));
  }
  void store_read_index(uint64_t value, MemoryOrder order) noexcept {
    atomic_field(queue_->read_dispatch_id).store(value, store_order(order));
  }

  // --- producer steps -------------------------------------------------------
  // AQL-IDX-2: ids [first, first+count) may be written once first+count <= read_index + size.
  bool has_room(uint64_t first, uint32_t count) const noexcept {
    const uint64_t read = atomic_field(queue_->read_dispatch_id).load(kReadIndexLoadOrder);
    return count != 0 && room_for(ConcreteDomain{}, read, first + count - 1, uint64_t{size()});
  }

  // AQL-IDX-1, fetch_add form: always succeeds; the id may lie past a full ring.
  uint64_t reserve_fetch_add(uint32_t count) noexcept {
    return add_write_index(count, MemoryOrder::Relaxed);
  }

  // AQL-IDX-1, CAS form: never moves write_index past read_index + size.
  std::optional<uint64_t> try_reserve_cas(uint32_t count) noexcept {
    uint64_t write = load_write_index(MemoryOrder::Relaxed);
    for (;;) {
      if (!has_room(write, count)) return std::nullopt;
      const uint64_t seen = cas_write_index(write, write + count, MemoryOrder::Relaxed);
      if (seen == write) return write;
      write = seen;
    }
  }

  // AQL-IDX-2: bounded spin, then yield; never a pure spin (two-core machines).
  void wait_for_room(uint64_t first, uint32_t count) const noexcept {
    Backoff backoff;
    while (!has_room(first, count)) backoff.pause();
  }

  // AQL-PUB-2: bytes 4..63 first; the processor must not read them before the header.
  void write_body(uint64_t id, const void* packet) noexcept {
    std::memcpy(slot(id) + 4, static_cast<const uint8_t*>(packet) + 4, kPacketBytes - 4);
  }

  // AQL-PUB-1: header and setup together, one 32-bit release store.
  void publish(uint64_t id, uint32_t header_setup) noexcept {
    std::atomic_ref<uint32_t>(*reinterpret_cast<uint32_t*>(slot(id))).store(header_setup, header_store_order(ConcreteDomain{}));
  }

  // AQL-DB-1..3: the doorbell signal's value, then wake a sleeping engine (AQL-DB-4).
  void ring_doorbell(uint64_t id, DoorbellStore how = DoorbellStore::Plain) noexcept {
    store_doorbell(doorbell_word(), doorbell_value(ConcreteDomain{}, id, uint64_t{size()}), how);
  }

  uint64_t load_doorbell() const noexcept {
    return std::atomic_ref<uint64_t>(doorbell_word()).load(std::memory_order_acquire);
  }

  // The whole producer path, in aql::producer_program's order: reserve, wait
  // for room, body, header, doorbell. `d`: the domain whose mutant points the
  // program asks (a layer's own planted bugs, e.g. the HSA runtime's blit).
  template <typename D = ConcreteDomain>
  uint64_t submit(const void* packet, Reservation how = Reservation::FetchAdd,
                  DoorbellStore bell = DoorbellStore::Plain, const D& d = D{}) noexcept {
    if (how == Reservation::Plain) {
      PlainSubmit ops{{*this, packet, bell}};
      producer_program(d, ops);
      return ops.id;
    }
    SharedSubmit ops{{*this, packet, bell}, how};
    producer_program(d, ops);
    return ops.id;
  }

 private:
  // submit()'s steps after the reservation, the same for every reservation form.
  struct SubmitSteps {
    QueueRing& ring;
    const void* packet;
    DoorbellStore bell;
    uint64_t id = 0;
    uint32_t count() const noexcept { return 1; }
    ROCREF_PROTOCOL_INLINE void write_body(uint32_t) noexcept { ring.write_body(id, packet); }
    ROCREF_PROTOCOL_INLINE void publish(uint32_t) noexcept {
      uint32_t header_setup;
      std::memcpy(&header_setup, packet, sizeof header_setup);
      ring.publish(id, header_setup);
    }
    ROCREF_PROTOCOL_INLINE void ring_doorbell() noexcept { ring.ring_doorbell(id, bell); }
  };
  // AQL-IDX-1: one atomic read-modify-write, any number of producers.
  struct SharedSubmit : SubmitSteps {
    Reservation how;
    ROCREF_PROTOCOL_INLINE void reserve() noexcept {
      if (how == Reservation::FetchAdd) {
        id = ring.reserve_fetch_add(1);
        return;
      }
      Backoff backoff;
      std::optional<uint64_t> got;
      while (!(got = ring.try_reserve_cas(1))) backoff.pause();
      id = *got;
    }
    ROCREF_PROTOCOL_INLINE void wait_for_room() noexcept {
      if (how == Reservation::FetchAdd) ring.wait_for_room(id, 1);
    }
  };
  // AQL-IDX-7: the one producer of a SINGLE queue loads and stores write_index.
  struct PlainSubmit : SubmitSteps {
    ROCREF_PROTOCOL_INLINE void load_write_index() noexcept { id = ring.load_write_index(MemoryOrder::Relaxed); }
    ROCREF_PROTOCOL_INLINE void store_write_index() noexcept { ring.store_write_index(id + 1, MemoryOrder::Relaxed); }
    ROCREF_PROTOCOL_INLINE void wait_for_room() noexcept { ring.wait_for_room(id, 1); }
  };

  // The doorbell signal of an AQL queue is a DOORBELL-kind amd_signal_t whose
  // hardware_doorbell_ptr points into the process's doorbell page.
  uint64_t& doorbell_word() const noexcept {
    amd_signal_t* bell = signal_from_handle(queue_->hsa_queue.doorbell_signal);
    return *const_cast<uint64_t*>(bell->hardware_doorbell_ptr);
  }

  amd_queue_t* queue_;
};

// Puts every slot's header to INVALID, as queue creation must (AQL-INV-3).
inline void invalidate_ring(void* base, uint32_t size) noexcept {
  auto* bytes = static_cast<uint8_t*>(base);
  for (uint32_t i = 0; i < size; ++i) {
    std::atomic_ref<uint16_t>(*reinterpret_cast<uint16_t*>(bytes + i * kPacketBytes))
        .store(kInvalidHeader, std::memory_order_relaxed);
  }
  std::atomic_thread_fence(std::memory_order_release);
}

}  // namespace rocref::aql
