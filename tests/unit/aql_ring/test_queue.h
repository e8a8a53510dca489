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
#include <cstdlib>
#include <cstring>
#include <memory>

#include "common/aql_ring.h"

namespace rocref::testing {

class TestQueue {
 public:
  explicit TestQueue(uint32_t size, uint64_t start = 0, uint64_t doorbell = 0) {
    ring_ = static_cast<uint8_t*>(std::aligned_alloc(64, size_t{size} * aql::kPacketBytes));
    std::memset(ring_, 0, size_t{size} * aql::kPacketBytes);
    aql::invalidate_ring(ring_, size);
    std::memset(&queue_, 0, sizeof queue_);
    std::memset(&bell_signal_, 0, sizeof bell_signal_);
    bell_word_ = doorbell;
    bell_signal_.kind = AMD_SIGNAL_KIND_DOORBELL;
    bell_signal_.hardware_doorbell_ptr = &bell_word_;
    bell_signal_.queue_ptr = &queue_;
    queue_.hsa_queue.type = HSA_QUEUE_TYPE_MULTI;
    queue_.hsa_queue.base_address = ring_;
    queue_.hsa_queue.size = size;
    queue_.hsa_queue.doorbell_signal.handle = reinterpret_cast<uintptr_t>(&bell_signal_);
    queue_.write_dispatch_id = start;
    queue_.read_dispatch_id = start;
  }
  ~TestQueue() { std::free(ring_); }
  TestQueue(const TestQueue&) = delete;
  TestQueue& operator=(const TestQueue&) = delete;

  amd_queue_t* queue() { return &queue_; }
  aql::QueueRing ring() { return aql::QueueRing(&queue_); }
  uint8_t* base() { return ring_; }
  // Moves the doorbell to another 64-bit word (e.g. on a page of its own), keeping its value.
  void move_doorbell(uint64_t* word) {
    *word = bell_word_;
    bell_signal_.hardware_doorbell_ptr = word;
  }
  uint32_t size() const { return queue_.hsa_queue.size; }

  // The header word of packet id's slot, acquire-loaded as the processor would.
  uint16_t header(uint64_t id) {
    return std::atomic_ref<uint16_t>(*reinterpret_cast<uint16_t*>(ring().slot(id))).load(std::memory_order_acquire);
  }
  uint32_t header_setup(uint64_t id) {
    return std::atomic_ref<uint32_t>(*reinterpret_cast<uint32_t*>(ring().slot(id))).load(std::memory_order_acquire);
  }

 private:
  alignas(64) amd_queue_t queue_;
  alignas(64) amd_signal_t bell_signal_;
  alignas(64) uint64_t bell_word_ = 0;
  uint8_t* ring_ = nullptr;
};

}  // namespace rocref::testing
