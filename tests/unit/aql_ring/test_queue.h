// tests/unit/aql_ring/test_queue.h - a queue in ROCR's layout for tests: amd_queue_t, ring, doorbell.
//
// The ring and indices are what hsa_queue_create would set up: every header
// INVALID (AQL-INV-3), write == read == `start` (tests pick starts near 2^64 to
// exercise wrap-around, AQL-IDX-5), and a DOORBELL-kind amd_signal_t whose
// hardware_doorbell_ptr names a 64-bit doorbell word.
#pragma once

#include <hsa/amd_hsa_queue.h>
#include <hsa/amd_hsa_signal.h>

#include <cstdint>

#include "common/aql_ring.h"
#include "common/host_aql_queue.h"

namespace rocref::testing {

class TestQueue {
 public:
  explicit TestQueue(uint32_t size, uint64_t start = 0, uint64_t doorbell = 0)
      : q_(size, HSA_QUEUE_TYPE_MULTI, start) {
    q_.doorbell_word = doorbell;
  }

  amd_queue_t* queue() { return &q_.queue; }
  aql::QueueRing ring() { return aql::QueueRing(&q_.queue); }
  uint8_t* base() { return static_cast<uint8_t*>(q_.ring_memory); }
  // Moves the doorbell to another 64-bit word (e.g. on a page of its own), keeping its value.
  void move_doorbell(uint64_t* word) {
    *word = *q_.doorbell.hardware_doorbell_ptr;
    q_.doorbell.hardware_doorbell_ptr = word;
  }
  uint32_t size() const { return q_.queue.hsa_queue.size; }

  // The header word of packet id's slot, acquire-loaded as the processor would.
  uint16_t header(uint64_t id) {
    return std::atomic_ref<uint16_t>(*reinterpret_cast<uint16_t*>(ring().slot(id))).load(std::memory_order_acquire);
  }
  uint32_t header_setup(uint64_t id) {
    return std::atomic_ref<uint32_t>(*reinterpret_cast<uint32_t*>(ring().slot(id))).load(std::memory_order_acquire);
  }

 private:
  aql::HostAqlQueue q_;
};

}  // namespace rocref::testing
