// kfd/mqd.cpp - init_mqd and update_mqd per queue type, and the hardware queue each type runs on.
#include "kfd/mqd.h"

#include <bit>

#include "kfd/aql_hw_queue.h"
#include "kfd/pm4_hw_queue.h"
#include "kfd/sdma_hw_queue.h"

namespace rocref::kfd {
namespace {

// amdkfd's QUEUE_IS_ACTIVE: a ring, a size and a share of the time.
bool queue_active(uint64_t base, uint64_t size, uint32_t percent) { return size > 0 && base != 0 && percent > 0; }

uint32_t pq_control(uint64_t ring_bytes) {
  return ring_bytes >= 8 ? static_cast<uint32_t>(std::bit_width(ring_bytes / 4)) - 2 : 0;
}

// What CREATE_QUEUE and UPDATE_QUEUE both set: the ring and the queue's share and priority.
void set_ring_and_share(Mqd& m, uint64_t ring_base, uint64_t ring_bytes, uint32_t percentage, uint32_t priority) {
  m.cp_hqd_pq_base = ring_base;
  m.cp_hqd_pq_control = pq_control(ring_bytes);
  m.ring_bytes = ring_bytes;
  m.cp_hqd_quantum = percentage;
  m.cp_hqd_queue_priority = priority;
  m.active = queue_active(ring_base, ring_bytes, percentage);
}

void init_common(Mqd& m, const kfd_ioctl_create_queue_args& a, uint32_t doorbell, uint32_t vmid) {
  set_ring_and_share(m, a.ring_base_address, a.ring_size, a.queue_percentage, a.queue_priority);
  m.cp_hqd_pq_rptr_report_addr = a.read_pointer_address;
  m.cp_hqd_pq_wptr_poll_addr = a.write_pointer_address;
  m.cp_hqd_pq_doorbell_control = doorbell;
  m.cp_hqd_eop_base_addr = a.eop_buffer_address;
  m.cp_hqd_eop_size = a.eop_buffer_size;
  m.cp_hqd_ctx_save_base_addr = a.ctx_save_restore_address;
  m.cp_hqd_ctx_save_size = a.ctx_save_restore_size;
  m.cp_hqd_vmid = vmid;
}

// CP queues (COMPUTE, COMPUTE_AQL): the pipe priority follows the queue priority
// (amdkfd's pipe_priority_map: 0..3 low, 4..11 medium, 12..15 high), at create and at update.
uint32_t pipe_priority(uint32_t queue_priority) { return queue_priority > 11 ? 2 : queue_priority > 3 ? 1 : 0; }

void init_mqd_cp(Mqd& m, const kfd_ioctl_create_queue_args& a, uint32_t doorbell, uint32_t vmid) {
  init_common(m, a, doorbell, vmid);
  m.cp_hqd_pipe_priority = pipe_priority(a.queue_priority);
}

void update_mqd_cp(Mqd& m, const kfd_ioctl_update_queue_args& a) {
  set_ring_and_share(m, a.ring_base_address, a.ring_size, a.queue_percentage, a.queue_priority);
  m.cp_hqd_pipe_priority = pipe_priority(a.queue_priority);
}

// SDMA queues: no pipe; the engine schedules by the queue priority alone.
void init_mqd_sdma(Mqd& m, const kfd_ioctl_create_queue_args& a, uint32_t doorbell, uint32_t vmid) {
  init_common(m, a, doorbell, vmid);
}

void update_mqd_sdma(Mqd& m, const kfd_ioctl_update_queue_args& a) {
  set_ring_and_share(m, a.ring_base_address, a.ring_size, a.queue_percentage, a.queue_priority);
}

template <typename Queue>
std::unique_ptr<BoundHwQueue> make(const QueueContext& ctx, const Mqd& m) {
  return std::make_unique<Queue>(ctx, m);
}

// KFD-Q-3 (AQL on the packet processor), KFD-Q-9 (PM4 rings), SDMA-RING-2 (SDMA engine).
constexpr MqdManager kCompute{init_mqd_cp, update_mqd_cp, make<Pm4HwQueue>, false};
constexpr MqdManager kComputeAql{init_mqd_cp, update_mqd_cp, make<AqlHwQueue>, false};
constexpr MqdManager kSdma{init_mqd_sdma, update_mqd_sdma, make<SdmaHwQueue>, true};

}  // namespace

const MqdManager* mqd_manager(uint32_t queue_type) noexcept {
  switch (queue_type) {
    case KFD_IOC_QUEUE_TYPE_COMPUTE: return &kCompute;
    case KFD_IOC_QUEUE_TYPE_COMPUTE_AQL: return &kComputeAql;
    case KFD_IOC_QUEUE_TYPE_SDMA:
    case KFD_IOC_QUEUE_TYPE_SDMA_XGMI: return &kSdma;
    default: return nullptr;
  }
}

}  // namespace rocref::kfd
