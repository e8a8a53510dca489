// kfd/sdma_hw_queue.cpp - binds a user SDMA queue to the SDMA engine over the process's GPUVM.
#include "kfd/sdma_hw_queue.h"

#include <memory>

#include "gpu/adversary.h"
#include "kfd/kfd_mutant.h"

namespace rocref::kfd {

SdmaHwQueue::SdmaHwQueue(const QueueContext& ctx, const Mqd& m)
    : BoundHwQueue(ctx, m),
      ring_base_(m.cp_hqd_pq_base),
      ring_size_(m.ring_bytes),
      read_pointer_(m.cp_hqd_pq_rptr_report_addr),
      write_pointer_(m.cp_hqd_pq_wptr_poll_addr),
      doorbell_(ctx.doorbell) {}

uint64_t SdmaHwQueue::doorbell() const noexcept { return __atomic_load_n(doorbell_, __ATOMIC_ACQUIRE); }

void SdmaHwQueue::latch_doorbell() noexcept {
  const uint64_t v = doorbell();
  if (stale_) {
    if (v == stale_doorbell_) return;
    stale_ = false;
  }
  __atomic_store_n(&hqd_wptr_, v, __ATOMIC_RELEASE);
}

bool SdmaHwQueue::runnable() noexcept {
  if (!running()) return false;
  if (!engine_) return true;
  // A preempted queue has work when its doorbell moved past its saved read pointer (the
  // HWS sees the doorbell of an unmapped queue); a mapped one when its HQD has.
  if (slot < 0 && !stale_) return doorbell() != engine_->rptr() || engine_->has_work();
  latch_doorbell();
  return engine_->has_work();
}

void SdmaHwQueue::unmap() noexcept {
  saved_ = SavedState{};
  if (!engine_ || !engine_->preemptible()) return;  // interrupts still owed stay in the context
  saved_.valid = true;
  saved_.rptr = engine_->rptr();
  saved_.wptr = __atomic_load_n(&hqd_wptr_, __ATOMIC_ACQUIRE);
  saved_.last_packet = last_packet_;
}

void SdmaHwQueue::map() noexcept {
  if (!saved_.valid || !engine_) return;
  // The planted ResumeRewindsReadPointer resumes at the last packet executed: it runs twice.
  const bool rewind = kfd_mutant_active(KfdMutant::ResumeRewindsReadPointer) && saved_.last_packet < saved_.rptr;
  engine_->resume_at(rewind ? saved_.last_packet : saved_.rptr);
  if (kfd_mutant_active(KfdMutant::PreemptDropsPendingWptr)) {
    // The planted bug: the HQD gets the write pointer saved at preemption back, and a doorbell
    // written while the queue was off its slot is ignored until the producer writes it again.
    __atomic_store_n(&hqd_wptr_, saved_.wptr, __ATOMIC_RELEASE);
    stale_ = true;
    stale_doorbell_ = doorbell();
  } else {
    // KFD-HWS-5: the write pointer is reloaded from the doorbell (the MQD's poll address).
    __atomic_store_n(&hqd_wptr_, doorbell(), __ATOMIC_RELEASE);
  }
  saved_.valid = false;
}

bool SdmaHwQueue::step() noexcept {
  if (!running()) return false;
  if (!engine_) {
    gpu::sdma::SdmaBinding b;
    b.ring_base = ring_base_;
    b.ring_size = ring_size_;
    b.rptr_va = read_pointer_;
    b.wptr_va = write_pointer_;
    latch_doorbell();
    b.doorbell = &hqd_wptr_;
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
  latch_doorbell();
  const gpu::sdma::SdmaStep s = engine_->step();
  if (s.action == gpu::sdma::SdmaAction::Executed) last_packet_ = s.offset;
  // A seeded delay is progress owed: the scheduler steps the queue again without sleeping.
  return s.action == gpu::sdma::SdmaAction::Executed || s.action == gpu::sdma::SdmaAction::Error ||
         engine_->owes();
}

}  // namespace rocref::kfd
