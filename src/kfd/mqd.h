// kfd/mqd.h - one memory queue descriptor per user queue, built and updated by one function pair
// per queue type, and the hardware queue made from it (amdkfd's mqd_manager: init_mqd, update_mqd).
//
// CREATE_QUEUE builds the MQD once (init) and makes the queue's hardware object from it;
// UPDATE_QUEUE changes the MQD (update) and hands it to the hardware object again. A new
// queue type is one row of mqd_manager()'s table and the hardware queue class it names.
#pragma once

#include <linux/kfd_ioctl.h>

#include <cstdint>
#include <memory>
#include <vector>

#include "gpu/vm/gpu_vm.h"
#include "kfd/interrupt_ring.h"

namespace rocref::kfd {

class BoundHwQueue;

// The memory queue descriptor the driver builds for the scheduler (v9_mqd's essentials).
struct Mqd {
  uint64_t cp_hqd_pq_base = 0;       // ring base address
  uint32_t cp_hqd_pq_control = 0;    // log2(ring size in dwords) - 1, as the CP encodes it
  uint64_t ring_bytes = 0;           // the size the control field encodes (0, no ring, has no encoding)
  uint64_t cp_hqd_pq_rptr_report_addr = 0;
  uint64_t cp_hqd_pq_wptr_poll_addr = 0;
  uint32_t cp_hqd_pq_doorbell_control = 0;  // doorbell index within the process page
  uint64_t cp_hqd_eop_base_addr = 0;
  uint64_t cp_hqd_eop_size = 0;
  uint64_t cp_hqd_ctx_save_base_addr = 0;
  uint32_t cp_hqd_ctx_save_size = 0;
  uint32_t cp_hqd_pipe_priority = 0;
  uint32_t cp_hqd_queue_priority = 0;
  uint32_t cp_hqd_quantum = 0;             // percentage
  uint32_t cp_hqd_vmid = 0;
  std::vector<uint32_t> compute_static_thread_mgmt;  // CU mask
  bool active = false;
};

// What a hardware queue binds to besides its MQD: the process and the queue's doorbell slot.
struct QueueContext {
  uint32_t pasid = 0;
  gpu::vm::GpuVm* vm = nullptr;
  InterruptRing* ih = nullptr;
  const uint64_t* doorbell = nullptr;  // host address of the queue's slot in the process's doorbell page
};

// One queue type: how its MQD is built and updated, and which hardware queue runs it.
struct MqdManager {
  void (*init)(Mqd& m, const kfd_ioctl_create_queue_args& args, uint32_t doorbell, uint32_t vmid);
  void (*update)(Mqd& m, const kfd_ioctl_update_queue_args& args);
  std::unique_ptr<BoundHwQueue> (*make)(const QueueContext& ctx, const Mqd& m);
  bool sdma;  // scheduled with the SDMA queues rather than the compute queues
};

// The manager of a KFD_IOC_QUEUE_TYPE_*, or null for a type the model does not run (-ENOTSUPP).
const MqdManager* mqd_manager(uint32_t queue_type) noexcept;

}  // namespace rocref::kfd
