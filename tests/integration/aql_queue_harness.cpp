// tests/integration/aql_queue_harness.cpp - an AQL queue built the way ROCR builds one, over hsakmt.h.
#include "aql_queue_harness.h"

#include <cstring>

#include "common/aql_packet.h"
#include "common/aql_ring.h"

namespace rocref::integration {
namespace {

constexpr uint64_t kRingBytes = AqlQueueHarness::kPackets * aql::kPacketBytes;
constexpr uint64_t kQueueOffset = kRingBytes;            // amd_queue_t, 256 bytes, 64-aligned
constexpr uint64_t kDoorbellOffset = kQueueOffset + 256;  // doorbell amd_signal_t
constexpr uint64_t kCompletionOffset = kDoorbellOffset + 64;
constexpr uint64_t kBytes = kRingBytes + 4096;

}  // namespace

uint32_t find_gpu_node(const HsaSystemProperties& sys) {
  for (uint32_t n = 0; n < sys.NumNodes; ++n) {
    HsaNodeProperties p{};
    if (hsaKmtGetNodeProperties(n, &p) == HSAKMT_STATUS_SUCCESS && p.NumFComputeCores > 0) return n;
  }
  return sys.NumNodes;
}

void AqlQueueHarness::fail(const std::string& what, HSAKMT_STATUS st) {
  if (error_.empty()) error_ = what + " returned " + std::to_string(st);
}

AqlQueueHarness::AqlQueueHarness(uint32_t node) {
  HsaMemFlags host{};
  host.ui32.HostAccess = 1;
  void* mem = nullptr;
  HSAKMT_STATUS st = hsaKmtAllocMemory(0, kBytes, host, &mem);
  if (st != HSAKMT_STATUS_SUCCESS) {
    fail("hsaKmtAllocMemory(ring)", st);
    return;
  }
  memory_ = static_cast<uint8_t*>(mem);
  bytes_ = kBytes;
  std::memset(memory_, 0, kBytes);
  st = hsaKmtMapMemoryToGPU(memory_, kBytes, nullptr);
  if (st != HSAKMT_STATUS_SUCCESS) {
    fail("hsaKmtMapMemoryToGPU(ring)", st);
    return;
  }

  HsaEventDescriptor desc{};
  desc.EventType = HSA_EVENTTYPE_SIGNAL;
  desc.NodeId = node;
  st = hsaKmtCreateEvent(&desc, false, false, &event_);
  if (st != HSAKMT_STATUS_SUCCESS) {
    fail("hsaKmtCreateEvent", st);
    return;
  }

  queue_ = reinterpret_cast<amd_queue_t*>(memory_ + kQueueOffset);
  doorbell_ = reinterpret_cast<amd_signal_t*>(memory_ + kDoorbellOffset);
  completion_ = reinterpret_cast<amd_signal_t*>(memory_ + kCompletionOffset);
  aql::invalidate_ring(memory_, kPackets);
  queue_->hsa_queue.type = HSA_QUEUE_TYPE_MULTI;
  queue_->hsa_queue.base_address = memory_;
  queue_->hsa_queue.size = kPackets;
  queue_->hsa_queue.doorbell_signal.handle = reinterpret_cast<uintptr_t>(doorbell_);

  resource_.QueueRptrValue = reinterpret_cast<uintptr_t>(&queue_->read_dispatch_id);
  resource_.QueueWptrValue = reinterpret_cast<uintptr_t>(&queue_->write_dispatch_id);
  st = hsaKmtCreateQueue(node, HSA_QUEUE_COMPUTE_AQL, 100, HSA_QUEUE_PRIORITY_NORMAL, memory_, kRingBytes,
                         nullptr, &resource_);
  if (st != HSAKMT_STATUS_SUCCESS) {
    fail("hsaKmtCreateQueue", st);
    return;
  }
  created_ = true;

  // ROCR's doorbell signal: DOORBELL kind, hardware_doorbell_ptr in the thunk's doorbell page.
  doorbell_->kind = AMD_SIGNAL_KIND_DOORBELL;
  doorbell_->hardware_doorbell_ptr = resource_.Queue_DoorBell_aql;
  doorbell_->queue_ptr = queue_;
  // An interrupt signal: the GPU writes event_id to the mailbox and raises the interrupt.
  completion_->kind = AMD_SIGNAL_KIND_USER;
  completion_->value = 1;
  completion_->event_mailbox_ptr = event_->EventData.HWData2;
  completion_->event_id = event_->EventId;
}

AqlQueueHarness::~AqlQueueHarness() {
  if (created_) hsaKmtDestroyQueue(resource_.QueueId);
  if (event_) hsaKmtDestroyEvent(event_);
  if (memory_) {
    hsaKmtUnmapMemoryToGPU(memory_);
    hsaKmtFreeMemory(memory_, bytes_);
  }
}

}  // namespace rocref::integration
