// kfd/pm4_hw_queue.cpp - binds a user PM4 compute queue to the GPU model's PM4 queue over the process's GPUVM.
#include "kfd/pm4_hw_queue.h"

namespace rocref::kfd {

Pm4HwQueue::Pm4HwQueue(uint32_t pasid, gpu::vm::GpuVm* vm, InterruptRing* ih, uint64_t ring_va, uint64_t ring_bytes,
                       uint64_t rptr_va, const uint64_t* doorbell, uint32_t priority, bool active)
    : pasid_(pasid),
      vm_(vm),
      ih_(ih),
      rptr_va_(rptr_va),
      doorbell_(doorbell),
      priority_(priority),
      active_(active),
      ring_va_(ring_va),
      ring_bytes_(ring_bytes) {}

void Pm4HwQueue::set_ring(uint64_t ring_va, uint64_t ring_bytes) noexcept {
  std::lock_guard<std::mutex> lock(ring_mu_);
  ring_va_ = ring_va;
  ring_bytes_ = ring_bytes;
  ring_changed_ = true;
}

bool Pm4HwQueue::runnable() noexcept {
  if (!active_.load(std::memory_order_relaxed) || error_.load(std::memory_order_acquire)) return false;
  return !engine_ || engine_->has_work();
}

bool Pm4HwQueue::step() noexcept {
  if (!active_.load(std::memory_order_relaxed) || error_.load(std::memory_order_acquire)) return false;
  if (!engine_) {
    gpu::pm4::Pm4QueueBinding b;
    {
      std::lock_guard<std::mutex> lock(ring_mu_);
      b.ring_va = ring_va_;
      b.ring_bytes = ring_bytes_;
      ring_changed_ = false;
    }
    b.rptr_va = rptr_va_;
    b.doorbell = doorbell_;
    b.memory = vm_;
    InterruptRing* ih = ih_;
    const uint32_t pasid = pasid_;
    // PM4-REL-2, KFD-IRQ-1: RELEASE_MEM's interrupt context is the event id.
    b.on_interrupt = [ih, pasid](uint32_t int_ctx) {
      IhEntry e;
      e.kind = IhEntry::Kind::Signal;
      e.pasid = pasid;
      e.event_id = int_ctx;
      ih->push(e);
    };
    b.on_error = [this](const std::string&) { error_.store(true, std::memory_order_release); };
    engine_ = std::make_unique<gpu::pm4::Pm4Queue>(std::move(b));
    return true;
  }
  {
    std::lock_guard<std::mutex> lock(ring_mu_);
    if (ring_changed_) {
      engine_->set_ring(ring_va_, ring_bytes_);
      ring_changed_ = false;
    }
  }
  return engine_->step() != gpu::pm4::Pm4QueueAction::None;
}

}  // namespace rocref::kfd
