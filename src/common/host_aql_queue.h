// common/host_aql_queue.h - an AQL queue in host memory, laid out as ROCR lays it out.
//
// amd_queue_t, a 64-byte-aligned ring whose headers start INVALID, and a
// DOORBELL-kind amd_signal_t whose hardware_doorbell_ptr names a word of
// its own. For everything that drives QueueRing and the packet processor
// without a KFD: the queue demo, the replay of model traces, unit tests.
#pragma once

#include <hsa/amd_hsa_queue.h>
#include <hsa/amd_hsa_signal.h>

#include <cstdint>
#include <cstdlib>
#include <cstring>

#include "common/aql_packet.h"
#include "common/aql_ring.h"

namespace rocref::aql {

struct HostAqlQueue {
  // `start`: the initial read and write index (near 2^64 to exercise wrap-around).
  explicit HostAqlQueue(uint32_t size, hsa_queue_type32_t type = HSA_QUEUE_TYPE_MULTI, uint64_t start = 0) {
    ring_memory = std::aligned_alloc(64, size_t{size} * kPacketBytes);
    std::memset(ring_memory, 0, size_t{size} * kPacketBytes);
    invalidate_ring(ring_memory, size);
    doorbell.kind = AMD_SIGNAL_KIND_DOORBELL;
    doorbell.hardware_doorbell_ptr = &doorbell_word;
    doorbell.queue_ptr = &queue;
    queue.hsa_queue.type = type;
    queue.hsa_queue.base_address = ring_memory;
    queue.hsa_queue.size = size;
    queue.hsa_queue.doorbell_signal.handle = reinterpret_cast<uint64_t>(&doorbell);
    queue.write_dispatch_id = start;
    queue.read_dispatch_id = start;
  }
  ~HostAqlQueue() { std::free(ring_memory); }
  HostAqlQueue(const HostAqlQueue&) = delete;
  HostAqlQueue& operator=(const HostAqlQueue&) = delete;

  alignas(64) amd_queue_t queue{};
  alignas(64) amd_signal_t doorbell{};
  alignas(64) uint64_t doorbell_word = 0;
  void* ring_memory = nullptr;
};

}  // namespace rocref::aql
