// kfd/pm4_hw_queue.h - a COMPUTE (PM4) user queue as the hardware scheduler runs it.
//
// Wraps the GPU model's PM4 queue (gpu/pm4/pm4_queue.h, spec/pm4.md PM4-Q-*)
// over the process's GPUVM: the ring and read pointer from CREATE_QUEUE, the
// queue's 64-bit doorbell slot carrying the write pointer in dwords.
// RELEASE_MEM interrupts become IH ring entries carrying their context id (the
// event id, KFD-IRQ-1); an engine error stops the queue. UPDATE_QUEUE's new
// ring and active state (a null ring, size 0 or percentage 0 disables it, as
// amdkfd's QUEUE_IS_ACTIVE) are applied at the next step. DISPATCH_DIRECT runs on the ISA
// interpreter (PM4-DISP-2), through the agent's L2 in the adversarial mode as AQL dispatches do.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>

#include "gpu/pm4/pm4_queue.h"
#include "kfd/bound_hw_queue.h"
#include "kfd/mqd.h"

namespace rocref::kfd {

class Pm4HwQueue final : public BoundHwQueue {
 public:
  // The ring and read pointer are the MQD's; the doorbell slot carries the write pointer in dwords.
  Pm4HwQueue(const QueueContext& ctx, const Mqd& m);

  bool runnable() noexcept override;
  bool step() noexcept override;

  // KFD-Q-9: UPDATE_QUEUE's ring too, and disabled by a null ring, size 0 or percentage 0.
  void apply(const Mqd& m) noexcept override;
  void set_ring(uint64_t ring_va, uint64_t ring_bytes) noexcept;

 private:
  const uint64_t rptr_va_;
  const uint64_t* const doorbell_;
  std::mutex ring_mu_;  // the ring UPDATE_QUEUE set, taken by the next step
  uint64_t ring_va_, ring_bytes_;
  bool ring_changed_ = false;
  std::shared_ptr<gpu::isa::AgentCache> l2_;    // adversarial mode: the agent's L2 (PM4-DISP-3)
  std::unique_ptr<gpu::pm4::Pm4Queue> engine_;  // bound on the first step, as the CP maps a queue
};

}  // namespace rocref::kfd
