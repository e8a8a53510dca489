// bench/queue/aql_queue_memory.h - an AQL queue laid out as ROCR lays it out, for the AQL rings under test.
//
// amd_queue_t on its own 4 KiB page, the ring of kRingSize 64-byte slots with
// every header INVALID (AQL-INV-3), and a DOORBELL-kind amd_signal_t whose
// hardware_doorbell_ptr points at a word on its own cache line (the doorbell page).
#pragma once

#include <hsa/amd_hsa_queue.h>
#include <hsa/amd_hsa_signal.h>

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <new>

#include "bench/queue/packet.h"
#include "common/aql_ring.h"

namespace rocref::bench {

class AqlQueueMemory {
 public:
  AqlQueueMemory() {
    page_ = static_cast<uint8_t*>(std::aligned_alloc(4096, 4096));
    ring_ = std::aligned_alloc(4096, size_t{kRingSize} * sizeof(Packet));
    if (page_ == nullptr || ring_ == nullptr) throw std::bad_alloc();
    std::memset(page_, 0, 4096);
    queue_ = new (page_) amd_queue_t{};
    signal_ = new (page_ + 1024) amd_signal_t{};
    doorbell_ = reinterpret_cast<uint64_t*>(page_ + 2048);
    signal_->kind = AMD_SIGNAL_KIND_DOORBELL;
    signal_->hardware_doorbell_ptr = doorbell_;
    queue_->hsa_queue.type = HSA_QUEUE_TYPE_MULTI;
    queue_->hsa_queue.base_address = ring_;
    queue_->hsa_queue.size = kRingSize;
    queue_->hsa_queue.doorbell_signal.handle = reinterpret_cast<uintptr_t>(signal_);
    aql::invalidate_ring(ring_, kRingSize);
  }
  ~AqlQueueMemory() {
    std::free(ring_);
    std::free(page_);
  }
  AqlQueueMemory(const AqlQueueMemory&) = delete;
  AqlQueueMemory& operator=(const AqlQueueMemory&) = delete;

  amd_queue_t* queue() const noexcept { return queue_; }
  amd_signal_t* doorbell_signal() const noexcept { return signal_; }

 private:
  uint8_t* page_ = nullptr;
  void* ring_ = nullptr;
  amd_queue_t* queue_ = nullptr;
  amd_signal_t* signal_ = nullptr;
  uint64_t* doorbell_ = nullptr;
};

}  // namespace rocref::bench
