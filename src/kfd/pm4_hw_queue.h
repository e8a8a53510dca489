// kfd/pm4_hw_queue.h - a COMPUTE (PM4) user queue as the hardware scheduler runs it.
//
// Wraps the GPU model's PM4 queue (gpu/pm4/pm4_queue.h, spec/pm4.md PM4-Q-*)
// over the process's GPUVM: the ring and read pointer from CREATE_QUEUE, the
// queue's 64-bit doorbell slot carrying the write pointer in dwords.
// RELEASE_MEM interrupts become IH ring entries carrying their context id (the
// event id, KFD-IRQ-1); an engine error stops the queue. UPDATE_QUEUE's new
// ring and active state (a null ring, size 0 or percentage 0 disables it, as
// amdkfd's QUEUE_IS_ACTIVE) are applied at the next step.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>

#include "gpu/pm4/pm4_queue.h"
#include "gpu/vm/gpu_vm.h"
#include "kfd/hw_scheduler.h"
#include "kfd/interrupt_ring.h"

namespace rocref::kfd {

class Pm4HwQueue final : public HwQueue {
 public:
  Pm4HwQueue(uint32_t pasid, gpu::vm::GpuVm* vm, InterruptRing* ih, uint64_t ring_va, uint64_t ring_bytes,
             uint64_t rptr_va, const uint64_t* doorbell, uint32_t priority, bool active);

  uint32_t priority() const noexcept override { return priority_.load(std::memory_order_relaxed); }
  bool runnable() noexcept override;
  bool step() noexcept override;

  void set_priority(uint32_t p) noexcept { priority_.store(p, std::memory_order_relaxed); }
  void set_active(bool a) noexcept { active_.store(a, std::memory_order_relaxed); }
  void set_ring(uint64_t ring_va, uint64_t ring_bytes) noexcept;  // UPDATE_QUEUE
  bool in_error() const noexcept { return error_.load(std::memory_order_acquire); }

 private:
  const uint32_t pasid_;
  gpu::vm::GpuVm* const vm_;
  InterruptRing* const ih_;
  const uint64_t rptr_va_;
  const uint64_t* const doorbell_;
  std::atomic<uint32_t> priority_;
  std::atomic<bool> active_;
  std::atomic<bool> error_{false};
  std::mutex ring_mu_;  // the ring UPDATE_QUEUE set, taken by the next step
  uint64_t ring_va_, ring_bytes_;
  bool ring_changed_ = false;
  std::unique_ptr<gpu::pm4::Pm4Queue> engine_;  // bound on the first step, as the CP maps a queue
};

}  // namespace rocref::kfd
