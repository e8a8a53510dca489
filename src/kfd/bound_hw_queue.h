// kfd/bound_hw_queue.h - what every hardware queue shares: its binding to the process (PASID,
// GPUVM, IH ring), the scheduler's view of its MQD (priority, active, evicted), the state a
// preemption saves in the MQD, and the error that stops it.
#pragma once

#include <atomic>
#include <cstdint>

#include "gpu/vm/gpu_vm.h"
#include "kfd/hw_scheduler.h"
#include "kfd/interrupt_ring.h"
#include "kfd/mqd.h"

namespace rocref::kfd {

class BoundHwQueue : public HwQueue {
 public:
  uint32_t priority() const noexcept override { return priority_.load(std::memory_order_relaxed); }
  uint32_t process() const noexcept override { return pasid_; }

  void set_priority(uint32_t p) noexcept { priority_.store(p, std::memory_order_relaxed); }
  void set_active(bool a) noexcept { active_.store(a, std::memory_order_relaxed); }
  bool in_error() const noexcept { return error_.load(std::memory_order_acquire); }
  // KFD-HWS-6: amdkfd's is_evicted. An evicted queue is never runnable, whatever its MQD says;
  // its MQD keeps the state saved when it was preempted, and restoring it lets it run from there.
  void set_evicted(bool e) noexcept { evicted_.store(e, std::memory_order_relaxed); }
  bool evicted() const noexcept { return evicted_.load(std::memory_order_relaxed); }
  // UPDATE_QUEUE: the updated MQD's priority and active state; a queue that takes more overrides.
  virtual void apply(const Mqd& m) noexcept {
    set_priority(m.cp_hqd_queue_priority);
    set_active(m.active);
  }

 protected:
  BoundHwQueue(const QueueContext& ctx, const Mqd& m)
      : pasid_(ctx.pasid), vm_(ctx.vm), ih_(ctx.ih), priority_(m.cp_hqd_queue_priority), active_(m.active) {}

  // Neither inactive, evicted nor stopped by an error: the scheduler may step it.
  bool running() const noexcept {
    return active_.load(std::memory_order_relaxed) && !evicted_.load(std::memory_order_relaxed) &&
           !error_.load(std::memory_order_acquire);
  }
  void stop() noexcept { error_.store(true, std::memory_order_release); }
  // KFD-IRQ-1: an engine's interrupt for an event becomes an IH ring entry of this process.
  static void push_signal(InterruptRing* ih, uint32_t pasid, uint32_t event_id) {
    IhEntry e;
    e.kind = IhEntry::Kind::Signal;
    e.pasid = pasid;
    e.event_id = event_id;
    ih->push(e);
  }

  // KFD-HWS-5: what the CP saves in the MQD when it preempts the queue at a packet boundary
  // (CP_HQD_PQ_RPTR, CP_HQD_PQ_WPTR) and loads when it maps the queue again. `valid` is false
  // when the queue was preempted with packets in flight: they stay in its context, as the CP's
  // context save area keeps them, and it resumes from there.
  struct SavedState {
    bool valid = false;
    uint64_t rptr = 0;
    uint64_t wptr = 0;
    uint64_t last_packet = 0;  // where the last packet executed before the preemption began
  };

  const uint32_t pasid_;
  gpu::vm::GpuVm* const vm_;
  InterruptRing* const ih_;
  SavedState saved_;  // under the scheduler's lock

 private:
  std::atomic<uint32_t> priority_;
  std::atomic<bool> active_;
  std::atomic<bool> evicted_{false};
  std::atomic<bool> error_{false};
};

}  // namespace rocref::kfd
