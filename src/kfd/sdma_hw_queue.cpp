// kfd/sdma_hw_queue.cpp - binds a user SDMA queue to the SDMA engine over the process's GPUVM.
#include "kfd/sdma_hw_queue.h"

#include <memory>

#include "gpu/adversary.h"

namespace rocref::kfd {

SdmaHwQueue::SdmaHwQueue(const QueueContext& ctx, const Mqd& m)
    : BoundHwQueue(ctx, m),
      ring_base_(m.cp_hqd_pq_base),
      ring_size_(m.ring_bytes),
      read_pointer_(m.cp_hqd_pq_rptr_report_addr),
      write_pointer_(m.cp_hqd_pq_wptr_poll_addr),
      doorbell_(ctx.doorbell) {}

bool SdmaHwQueue::runnable() noexcept {
  if (!running()) return false;
  return !engine_ || engine_->has_work();
}

bool SdmaHwQueue::step() noexcept {
  if (!running()) return false;
  if (!engine_) {
    gpu::sdma::SdmaBinding b;
    b.ring_base = ring_base_;
    b.ring_size = ring_size_;
    b.rptr_va = read_pointer_;
    b.wptr_va = write_pointer_;
    b.doorbell = doorbell_;
    b.memory = vm_;
    InterruptRing* ih = ih_;
    const uint32_t pasid = pasid_;
    // SDMA-TRAP-1: the trap's context is the event id of ROCR's completion signal.
    b.on_trap = [ih, pasid](uint32_t int_ctx) { push_signal(ih, pasid, int_ctx); };
    b.on_error = [this](gpu::sdma::SdmaError, uint64_t, const std::string&) { stop(); };
    // The adversarial GPU's freedoms for SDMA (spec/adversarial-gpu.md SDMA-ADV-*): one
    // choice stream per queue, in creation order, as the AQL queues have.
    if (gpu::adversary::enabled()) {
      auto chooser = std::make_shared<gpu::adversary::Chooser>(gpu::adversary::next_stream());
      b.choose = [chooser](uint32_t n, const char* what) { return chooser->below(n, what); };
    }
    engine_ = std::make_unique<gpu::sdma::SdmaEngine>(std::move(b));
    return true;
  }
  const gpu::sdma::SdmaStep s = engine_->step();
  // A seeded delay is progress owed: the scheduler steps the queue again without sleeping.
  return s.action == gpu::sdma::SdmaAction::Executed || s.action == gpu::sdma::SdmaAction::Error ||
         engine_->owes();
}

}  // namespace rocref::kfd
