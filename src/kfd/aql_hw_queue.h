// kfd/aql_hw_queue.h - a COMPUTE_AQL user queue as the hardware scheduler runs it.
//
// Wraps the GPU model's packet processor over the process's GPUVM. The ring
// and the read pointer come from the MQD and are translated through GPUVM at
// every access (AQL-MEM-1), so an unmapped or freed queue faults like any other
// GPU access (KFD-Q-5) and never reaches pages the process no longer maps. The
// amd_queue_t (at write_pointer_address - offsetof(amd_queue_t,
// write_dispatch_id)) is read, also through GPUVM, only to report an error. Completions with an event mailbox and VM faults become IH ring
// entries; a VM fault or a processor error puts the queue in error (KFD-FAULT-2).
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>

#include "gpu/vm/gpu_vm.h"
#include "kfd/hw_scheduler.h"
#include "kfd/interrupt_ring.h"

namespace rocref::gpu {
class PacketProcessor;
}

namespace rocref::kfd {

class AqlHwQueue final : public HwQueue {
 public:
  // The ring (GPU VA, bytes) and read pointer are the MQD's (CREATE_QUEUE's); amd_queue_va is
  // where ROCR's amd_queue_t lies, read only for its queue_inactive_signal on an error.
  AqlHwQueue(uint32_t pasid, gpu::vm::GpuVm* vm, InterruptRing* ih, uint64_t amd_queue_va, uint64_t ring_va,
             uint64_t ring_bytes, uint64_t read_pointer_va, uint32_t priority, bool active);
  ~AqlHwQueue() override;

  uint32_t priority() const noexcept override { return priority_.load(std::memory_order_relaxed); }
  bool runnable() noexcept override;
  bool step() noexcept override;

  void set_priority(uint32_t p) noexcept { priority_.store(p, std::memory_order_relaxed); }
  void set_active(bool a) noexcept { active_.store(a, std::memory_order_relaxed); }
  bool in_error() const noexcept { return error_.load(std::memory_order_acquire); }
  uint64_t steps() const noexcept { return steps_.load(std::memory_order_relaxed); }
  // The VM fault handler marks the queue being stepped (the one that faulted).
  static AqlHwQueue* current() noexcept;
  void mark_faulted() noexcept { faulted_ = true; }

 private:
  bool bind() noexcept;

  const uint32_t pasid_;
  gpu::vm::GpuVm* const vm_;
  InterruptRing* const ih_;
  const uint64_t amd_queue_va_;
  const uint64_t ring_va_;
  const uint64_t ring_bytes_;
  const uint64_t read_pointer_va_;
  std::atomic<uint32_t> priority_;
  std::atomic<bool> active_;
  std::atomic<bool> error_{false};
  std::atomic<uint64_t> steps_{0};
  bool faulted_ = false;
  std::unique_ptr<gpu::PacketProcessor> processor_;
};

}  // namespace rocref::kfd
