// common/aql_reader.h - the consumer half of the AQL ring: fetch packets in id order.
//
// The packet processor's fetch without the launch: acquire-load the header at
// read_index, stop at INVALID (AQL-INV-1), copy the packet out, set the slot
// back to INVALID, then advance read_index (AQL-RET-1). Used where packets are
// only moved (benchmarks, host-side drains) and as the measured form of two
// processor-side savings: read_dispatch_id published once per `release_batch`
// packets or when the ring runs empty, whichever comes first (producers that
// wait for room see progress no later than when the reader would otherwise
// sit idle), and the ring kept out of amd_queue_t's first cache line, which
// every producer's reservation dirties. The fetch path walks a slot pointer,
// not an id: read_index is derived from it when it is published, and the one
// compare per packet (stop_) covers both the ring's end and the next
// publication. One reader per queue.
//
// Idle polling (AQL-INV-4): once the ring is drained (the slot at read_index is
// INVALID and write_dispatch_id == read_index), the reader polls the write index,
// not the slot: that slot is the next one a producer writes, and a poll of it
// pulls its cache line away from the producer in the middle of the write. The
// reader parks its slot pointer on a private INVALID word (base on it, mask 0),
// so the per-packet path keeps its one header test and gains no branch; the
// first id reserved past read_index unparks it.
#pragma once

#include <hsa/amd_hsa_queue.h>

#include <atomic>
#include <cstdint>
#include <cstring>

#include "common/aql_packet.h"
#include "common/aql_protocol.h"
#include "common/memory_order.h"
#include "common/mutant.h"

namespace rocref::aql {

class RingReader {
 public:
  explicit RingReader(amd_queue_t* queue, uint32_t release_batch = 1) noexcept
      : queue_(queue),
        ring_(static_cast<uint8_t*>(queue->hsa_queue.base_address)),
        ring_end_(ring_ + size_t{queue->hsa_queue.size} * kPacketBytes),
        mask_(queue->hsa_queue.size - 1),
        batch_(release_batch == 0 ? 1
                                  : (release_batch > queue->hsa_queue.size ? queue->hsa_queue.size : release_batch)),
        batch_bytes_(batch_ * kPacketBytes),
        published_(atomic_field(queue->read_dispatch_id).load(std::memory_order_relaxed)) {
    cursor_ = slot_of(published_);
    set_stop();
  }
  // A parked reader points into itself.
  RingReader(const RingReader&) = delete;
  RingReader& operator=(const RingReader&) = delete;

  // Copies the packet at read_index into `out` (64 bytes) and releases its
  // slot; false, after publishing any held-back progress, when it is INVALID.
  // Per packet: one header test, the copy, the reset, a pointer step and one
  // compare against stop_ (the next publication or the ring's end); the id is
  // derived from the pointer only off that path.
  bool try_fetch(void* out) noexcept {
    uint8_t* slot = cursor_;
    const uint32_t header_setup =
        std::atomic_ref<uint32_t>(*reinterpret_cast<uint32_t*>(slot)).load(kHeaderLoadOrder);
    if (header_type(static_cast<uint16_t>(header_setup)) == HSA_PACKET_TYPE_INVALID) [[unlikely]] {
      return fetch_after_invalid(out);
    }
    // The whole slot, header included: no producer writes it until read_index
    // passes it, so after the acquire above the plain copy races with nothing.
    std::memcpy(out, slot, kPacketBytes);
    // AQL-RET-1 (aql::retire_program): the slot is INVALID before read_index
    // passes it; the release store of read_index orders this store and the copy before it.
    struct Retire {
      RingReader& reader;
      uint8_t* slot;
      ROCREF_PROTOCOL_INLINE void reset_header() noexcept {
        std::atomic_ref<uint16_t>(*reinterpret_cast<uint16_t*>(slot)).store(kInvalidHeader, std::memory_order_relaxed);
      }
      ROCREF_PROTOCOL_INLINE void advance_read() noexcept {
        uint8_t* next = slot + kPacketBytes;
        reader.cursor_ = next;
        if (next == reader.stop_) reader.settle(next);
      }
    } ops{*this, slot};
    retire_program(ConcreteDomain{}, ops);
    return true;
  }

  // AQL-RET-1: every fetched slot is released to producers.
  void publish_read_index() noexcept {
    if (parked()) return;  // it published when it parked and has fetched nothing since
    if (const uint64_t held = pending(); held != 0) store_read_index(published_ + held);
    set_stop();
  }

  // The id of the next packet to fetch.
  uint64_t read_index() const noexcept { return parked() ? published_ : published_ + pending(); }

  // Whether the reader polls the write index instead of the slot at read_index (AQL-INV-4).
  bool parked() const noexcept { return cursor_ == parked_slot(); }

 private:
  // The fetch path reached stop_. Short of the ring's end, stop_ is where a batch falls
  // due (set_stop): read_index is published_ + batch_, with no further test.
  ROCREF_PROTOCOL_INLINE void settle(uint8_t* next) noexcept {
    uint8_t* const end = ring_end_;
    if (next == end) [[unlikely]] {
      wrap();
      return;
    }
    // Everything into locals first: the index store below may alias any member.
    const uint64_t read = published_ + batch_;
    const auto to_end = static_cast<size_t>(end - next);
    stop_ = next + (batch_bytes_ < to_end ? batch_bytes_ : to_end);
    store_read_index(read);
  }

  // At the ring's end: the fetches since the last publication run from published_'s slot
  // to the end (1..size of them: the reader wraps here every lap).
  __attribute__((noinline)) void wrap() noexcept {
    const uint64_t held = (mask_ + 1) - (published_ & mask_);
    cursor_ = ring_;
    // held == size is always >= batch_: pending() would read it as 0.
    if (held >= batch_) store_read_index(published_ + held);
    set_stop();
  }

  ROCREF_PROTOCOL_INLINE void store_read_index(uint64_t read) noexcept {
    published_ = read;
    atomic_field(queue_->read_dispatch_id).store(read, kReadIndexStoreOrder);
  }

  // Fetched but not yet published: fewer than batch_ (less than a ring) outside settle().
  uint64_t pending() const noexcept {
    return (static_cast<uint64_t>(cursor_ - ring_) / kPacketBytes - published_) & mask_;
  }

  // The fast path stops at the ring's end or where read_index is next due, whichever is first.
  void set_stop() noexcept {
    const size_t due = (batch_ - pending()) * kPacketBytes;  // at least one packet
    const auto to_end = static_cast<size_t>(ring_end_ - cursor_);
    stop_ = cursor_ + (due < to_end ? due : to_end);
  }

  uint8_t* slot_of(uint64_t id) const noexcept { return ring_ + (id & mask_) * kPacketBytes; }

  // The header at read_index read INVALID: the ring's own (nothing published
  // there yet) or the parked word (AQL-INV-4). Off the per-packet path.
  __attribute__((noinline)) bool fetch_after_invalid(void* out) noexcept {
    // The write index is a hint: a reserved id may still be unpublished, and the
    // header (acquire) stays the only proof of publication (AQL-PUB-3).
    if (parked()) {
      if (atomic_field(queue_->write_dispatch_id).load(std::memory_order_relaxed) == published_) return false;
      cursor_ = slot_of(published_);
      set_stop();
      return try_fetch(out);  // unparked: a second INVALID ends below, parked no more
    }
    publish_read_index();
    if (atomic_field(queue_->write_dispatch_id).load(std::memory_order_relaxed) == published_ &&
        !mutant_active(Mutant::IdleReaderPollsSlot)) {
      cursor_ = parked_slot();
    }
    return false;
  }

  uint8_t* parked_slot() const noexcept { return reinterpret_cast<uint8_t*>(&parked_header_); }

  uint8_t* cursor_;  // the slot of read_index, or parked_slot() while parked
  uint8_t* stop_;    // where the fetch path calls settle()
  amd_queue_t* queue_;
  uint8_t* ring_;
  uint8_t* ring_end_;
  uint64_t mask_;
  uint64_t batch_;      // read_index is published every batch_ packets
  size_t batch_bytes_;  // batch_ * 64
  uint64_t published_;  // read_index as producers last saw it
  // Where a parked reader's header load goes: INVALID forever, in the reader's own memory.
  mutable uint32_t parked_header_ = make_header_setup(kInvalidHeader, 0);
};

}  // namespace rocref::aql
