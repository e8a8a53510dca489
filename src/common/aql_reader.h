// common/aql_reader.h - the consumer half of the AQL ring: fetch packets in id order.
//
// The packet processor's fetch without the launch: acquire-load the header at
// read_index, stop at INVALID (AQL-INV-1), copy the packet out, set the slot
// back to INVALID, then advance read_index (AQL-RET-1). Used where packets are
// only moved (benchmarks, host-side drains) and as the measured form of two
// processor-side savings: read_dispatch_id published once per `release_batch`
// packets or when the ring runs empty, whichever comes first (producers that
// wait for room see progress no later than when the reader would otherwise
// sit idle), and the ring's base and mask kept out of amd_queue_t's first
// cache line, which every producer's reservation dirties. One reader per queue.
#pragma once

#include <hsa/amd_hsa_queue.h>

#include <atomic>
#include <cstdint>
#include <cstring>

#include "common/aql_packet.h"
#include "common/aql_protocol.h"
#include "common/memory_order.h"

namespace rocref::aql {

class RingReader {
 public:
  explicit RingReader(amd_queue_t* queue, uint32_t release_batch = 1) noexcept
      : queue_(queue),
        base_(static_cast<uint8_t*>(queue->hsa_queue.base_address)),
        mask_(queue->hsa_queue.size - 1),
        batch_(release_batch == 0 ? 1 : (release_batch > queue->hsa_queue.size ? queue->hsa_queue.size
                                                                                : release_batch)),
        read_(atomic_field(queue->read_dispatch_id).load(std::memory_order_relaxed)),
        published_(read_),
        until_publish_(batch_) {}

  // Copies the packet at read_index into `out` (64 bytes) and releases its
  // slot; false, after publishing any held-back progress, when it is INVALID.
  bool try_fetch(void* out) noexcept {
    uint8_t* slot = base_ + (read_ & mask_) * kPacketBytes;
    const uint32_t header_setup =
        std::atomic_ref<uint32_t>(*reinterpret_cast<uint32_t*>(slot)).load(kHeaderLoadOrder);
    if (header_type(static_cast<uint16_t>(header_setup)) == HSA_PACKET_TYPE_INVALID) {
      publish_read_index();
      return false;
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
        ++reader.read_;
        if (--reader.until_publish_ == 0) reader.publish_read_index();
      }
    } ops{*this, slot};
    retire_program(ConcreteDomain{}, ops);
    return true;
  }

  // AQL-RET-1: every fetched slot is released to producers.
  void publish_read_index() noexcept {
    until_publish_ = batch_;
    if (published_ == read_) return;
    atomic_field(queue_->read_dispatch_id).store(read_, kReadIndexStoreOrder);
    published_ = read_;
  }

  uint64_t read_index() const noexcept { return read_; }

 private:
  amd_queue_t* queue_;
  uint8_t* base_;
  uint64_t mask_;
  uint32_t batch_;
  uint64_t read_;
  uint64_t published_;
  uint32_t until_publish_;  // fetches left before read_index is published
};

}  // namespace rocref::aql
