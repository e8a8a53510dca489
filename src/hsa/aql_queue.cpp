// hsa/aql_queue.cpp - AQL queue creation, inactivation, errors and destruction.
#include "hsa/aql_queue.h"

#include <cstring>
#include <new>
#include <vector>

#include <hsa/hsa_ext_amd.h>

#include <algorithm>

#include "common/aql_packet.h"
#include "common/cp_queue_error.h"
#include "hsa/agent.h"
#include "hsa/async_handler.h"
#include "hsa/hsa_mutant.h"
#include "hsa/memory_region.h"
#include "hsa/runtime.h"
#include "hsa/signal_object.h"

namespace rocref::hsa {
namespace {

std::atomic<uint64_t> g_next_queue_id{0};
constexpr size_t kAmdQueueBytes = 4096;

MemoryRegion* system_region() {
  Runtime* rt = runtime();
  for (const auto& region : rt->cpu_agent()->owned_regions())
    if (region->kind() == MemoryRegion::Kind::System) return region.get();
  return nullptr;
}

// HSA-QUEUE-5: the CP stores a queue error bit set in the queue-inactive
// signal (common/cp_queue_error.h), decoded as ROCR decodes it. A scratch
// request is not an error to ROCR, but this runtime gives kernels no scratch:
// it fails the queue as ROCR does when it has no scratch to give.
hsa_status_t status_from_inactive_value(hsa_signal_value_t value) {
  const hsa_status_t status = status_from_cp_queue_error(static_cast<uint64_t>(value));
  return status == HSA_STATUS_SUCCESS ? HSA_STATUS_ERROR_OUT_OF_RESOURCES : status;
}

}  // namespace

hsa_status_t AqlQueue::create(Agent& agent, uint32_t size, hsa_queue_type32_t type, QueueErrorCallback callback,
                              void* data, AqlQueue** out) {
  auto* queue = new (std::nothrow) AqlQueue(agent, callback, data);
  if (queue == nullptr) return HSA_STATUS_ERROR_OUT_OF_RESOURCES;
  if (hsa_status_t status = queue->init(size, type); status != HSA_STATUS_SUCCESS) {
    queue->release_resources();
    delete queue;
    return status;
  }
  *out = queue;
  return HSA_STATUS_SUCCESS;
}

hsa_status_t AqlQueue::init(uint32_t size, hsa_queue_type32_t type) {
  Runtime* rt = runtime();
  MemoryRegion* system = system_region();
  if (system == nullptr) return HSA_STATUS_ERROR_OUT_OF_RESOURCES;

  // Ring and amd_queue_t in GPU-mapped host memory (USERPTR in the thunk).
  ring_bytes_ = std::max<size_t>(size_t{size} * aql::kPacketBytes, MemoryRegion::kGranule);
  if (system->allocate_pages(ring_bytes_, &ring_) != HSA_STATUS_SUCCESS) {
    ring_ = nullptr;
    return HSA_STATUS_ERROR_OUT_OF_RESOURCES;
  }
  void* amd_memory = nullptr;
  if (system->allocate_pages(kAmdQueueBytes, &amd_memory) != HSA_STATUS_SUCCESS)
    return HSA_STATUS_ERROR_OUT_OF_RESOURCES;
  std::memset(amd_memory, 0, kAmdQueueBytes);
  amd_ = new (amd_memory) amd_queue_t{};
  aql::invalidate_ring(ring_, size);  // AQL-INV-3, before the queue is visible

  doorbell_ = rt->signal_pool().create(0, AMD_SIGNAL_KIND_DOORBELL, false);
  if (doorbell_ == nullptr) return HSA_STATUS_ERROR_OUT_OF_RESOURCES;

  const Agent& gpu = agent_;
  amd_->hsa_queue.type = type;
  amd_->hsa_queue.features = HSA_QUEUE_FEATURE_KERNEL_DISPATCH | HSA_QUEUE_FEATURE_AGENT_DISPATCH;
  amd_->hsa_queue.base_address = ring_;
  amd_->hsa_queue.doorbell_signal = doorbell_->handle();
  amd_->hsa_queue.size = size;
  amd_->hsa_queue.id = g_next_queue_id.fetch_add(1, std::memory_order_relaxed);
  amd_->max_cu_id = gpu.compute_unit_count() == 0 ? 0 : gpu.compute_unit_count() - 1;
  amd_->max_wave_id = gpu.properties().MaxWavesPerSIMD == 0 ? 0 : gpu.properties().MaxWavesPerSIMD - 1;
  amd_->read_dispatch_id_field_base_byte_offset =
      static_cast<uint32_t>(offsetof(amd_queue_t, read_dispatch_id) - offsetof(amd_queue_t, hsa_queue));
  amd_->queue_properties = 1u << AMD_QUEUE_PROPERTIES_IS_PTR64_SHIFT;

  // HSA-QUEUE-5: the error path. The queue-inactive interrupt signal's event and
  // value go to the thunk as the queue's error event and ErrorReason (libhsakmt
  // stores both in the context-save area header, where the KFD finds them); the
  // async handler watches the signal.
  inactive_ = rt->signal_pool().create(0, AMD_SIGNAL_KIND_USER, true);
  if (inactive_ == nullptr || !inactive_->is_interrupt()) return HSA_STATUS_ERROR_OUT_OF_RESOURCES;
  amd_->queue_inactive_signal = inactive_->handle();

  HsaQueueResource resource{};
  resource.Queue_read_ptr_aql = const_cast<HSAuint64*>(&amd_->read_dispatch_id);
  resource.Queue_write_ptr_aql = const_cast<HSAuint64*>(&amd_->write_dispatch_id);
  resource.ErrorReason = const_cast<HSAint64*>(&inactive_->amd.value);
  if (hsaKmtCreateQueue(agent_.node_id(), HSA_QUEUE_COMPUTE_AQL, 100, HSA_QUEUE_PRIORITY_NORMAL, ring_, ring_bytes_,
                        inactive_->event(), &resource) != HSAKMT_STATUS_SUCCESS ||
      resource.Queue_DoorBell_aql == nullptr)
    return HSA_STATUS_ERROR_OUT_OF_RESOURCES;
  kfd_queue_ = true;
  queue_id_ = resource.QueueId;
  doorbell_->amd.hardware_doorbell_ptr = resource.Queue_DoorBell_aql;

  if (rt->async_handler().add(inactive_, HSA_SIGNAL_CONDITION_NE, 0, &AqlQueue::on_inactive, this) !=
      HSA_STATUS_SUCCESS)
    return HSA_STATUS_ERROR_OUT_OF_RESOURCES;

  // Every CU enabled, as ROCR does after creation: its SetCUMasking(0), which restores them all.
  set_cu_mask(0, nullptr);
  return HSA_STATUS_SUCCESS;
}

void AqlQueue::release_resources() {
  Runtime* rt = runtime();
  if (inactive_ != nullptr) {
    if (AsyncHandler* handler = rt->started_async_handler()) handler->remove_signal(inactive_);
  }
  if (kfd_queue_) {
    hsaKmtDestroyQueue(queue_id_);
    kfd_queue_ = false;
  }
  if (inactive_ != nullptr) rt->signal_pool().destroy(inactive_);
  if (doorbell_ != nullptr) rt->signal_pool().destroy(doorbell_);
  inactive_ = doorbell_ = nullptr;
  MemoryRegion* system = system_region();
  if (amd_ != nullptr) system->free_pages(amd_, kAmdQueueBytes);
  if (ring_ != nullptr) system->free_pages(ring_, ring_bytes_);
  amd_ = nullptr;
  ring_ = nullptr;
}

AqlQueue::~AqlQueue() { release_resources(); }

hsa_status_t AqlQueue::inactivate() {
  if (!active_.exchange(false)) return HSA_STATUS_SUCCESS;
  // ROCR's Inactivate: UPDATE_QUEUE with 0 percent takes the queue off the hardware.
  hsaKmtUpdateQueue(queue_id_, 0, priority_.load(std::memory_order_relaxed), ring_, ring_bytes_, nullptr);
  return HSA_STATUS_SUCCESS;
}

hsa_status_t AqlQueue::set_priority(HSA_QUEUE_PRIORITY priority) {
  if (!active_.load(std::memory_order_acquire)) return HSA_STATUS_ERROR_INVALID_QUEUE;
  priority_.store(priority, std::memory_order_relaxed);
  return hsaKmtUpdateQueue(queue_id_, 100, priority, ring_, ring_bytes_, nullptr) == HSAKMT_STATUS_SUCCESS
             ? HSA_STATUS_SUCCESS
             : HSA_STATUS_ERROR_OUT_OF_RESOURCES;
}

void AqlQueue::set_profiling(bool enable) noexcept {
  std::atomic_ref<uint32_t> properties(amd_->queue_properties);
  const uint32_t bit = 1u << AMD_QUEUE_PROPERTIES_ENABLE_PROFILING_SHIFT;
  if (enable)
    properties.fetch_or(bit, std::memory_order_release);
  else
    properties.fetch_and(~bit, std::memory_order_release);
}

// ROCR's SetCUMasking: count 0 restores every CU; bits past the agent's CUs are dropped, and
// silently: ROCR answers HSA_STATUS_CU_MASK_REDUCED only when its HSA_CU_MASK variable took CUs
// away, which this runtime does not read. The mask kept is what the KFD was given.
hsa_status_t AqlQueue::set_cu_mask(uint32_t count, const uint32_t* mask) {
  const uint32_t cus = std::max<uint32_t>(agent_.compute_unit_count(), 1);
  const size_t dwords = (cus + 31) / 32;
  std::vector<uint32_t> wanted;
  if (count == 0) {
    wanted.assign(dwords, 0xffffffffu);
  } else {
    wanted.assign(mask, mask + count / 32);
  }
  if (!hsa_mutant_active(HsaMutant::CuMaskKeepsBitsPastTheCus)) {
    if (wanted.size() > dwords) wanted.resize(dwords);
    if (wanted.size() == dwords && cus % 32 != 0) wanted.back() &= (1u << (cus % 32)) - 1;
  }
  std::lock_guard lock(mask_mutex_);
  if (hsaKmtSetQueueCUMask(queue_id_, static_cast<HSAuint32>(wanted.size() * 32), wanted.data()) !=
      HSAKMT_STATUS_SUCCESS) {
    return HSA_STATUS_ERROR;
  }
  cu_mask_ = std::move(wanted);
  return HSA_STATUS_SUCCESS;
}

void AqlQueue::cu_mask(uint32_t count, uint32_t* mask) const {
  std::lock_guard lock(mask_mutex_);
  const size_t wanted = count / 32;
  for (size_t i = 0; i < wanted; ++i) mask[i] = i < cu_mask_.size() ? cu_mask_[i] : 0;
}

bool AqlQueue::on_inactive(hsa_signal_value_t value, void* arg) {
  auto* self = static_cast<AqlQueue*>(arg);
  // HSA-QUEUE-5: once; the queue stays inactive (AQL-ERR-2), only destroy remains.
  if (self->error_reported_.exchange(true)) return false;
  self->inactivate();
  if (self->callback_ != nullptr) self->callback_(status_from_inactive_value(value), self->public_queue(), self->data_);
  return false;
}

}  // namespace rocref::hsa
