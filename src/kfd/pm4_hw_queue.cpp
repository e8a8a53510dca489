// kfd/pm4_hw_queue.cpp - binds a user PM4 compute queue to the GPU model's PM4 queue over the process's GPUVM.
#include "kfd/pm4_hw_queue.h"

#include "gpu/adversary.h"
#include "kfd/kfd_mutant.h"

namespace rocref::kfd {

Pm4HwQueue::Pm4HwQueue(const QueueContext& ctx, const Mqd& m)
    : BoundHwQueue(ctx, m),
      rptr_va_(m.cp_hqd_pq_rptr_report_addr),
      doorbell_(ctx.doorbell),
      ring_va_(m.cp_hqd_pq_base),
      ring_bytes_(m.ring_bytes) {}

void Pm4HwQueue::apply(const Mqd& m) noexcept {
  if (m.active) set_ring(m.cp_hqd_pq_base, m.ring_bytes);
  set_priority(m.cp_hqd_queue_priority);
  if (!kfd_mutant_active(KfdMutant::Pm4DisableIgnored)) set_active(m.active);
}

void Pm4HwQueue::set_ring(uint64_t ring_va, uint64_t ring_bytes) noexcept {
  std::lock_guard<std::mutex> lock(ring_mu_);
  ring_va_ = ring_va;
  ring_bytes_ = ring_bytes;
  ring_changed_ = true;
}

bool Pm4HwQueue::runnable() noexcept {
  if (!running()) return false;
  return !engine_ || engine_->has_work();
}

bool Pm4HwQueue::step() noexcept {
  if (!running()) return false;
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
    b.on_interrupt = [ih, pasid](uint32_t int_ctx) { push_signal(ih, pasid, int_ctx); };
    b.on_error = [this](const std::string&) { stop(); };
    if (gpu::adversary::enabled()) l2_ = gpu::adversary::agent_cache();  // GPU-GRAIN-*, PM4-DISP-3
    b.l2 = l2_.get();
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
  const gpu::pm4::Pm4QueueAction a = engine_->step();  // Waiting (PM4-WAIT-2) is no progress
  return a == gpu::pm4::Pm4QueueAction::Executed || a == gpu::pm4::Pm4QueueAction::Error;
}

}  // namespace rocref::kfd
