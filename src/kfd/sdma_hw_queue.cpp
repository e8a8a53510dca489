// kfd/sdma_hw_queue.cpp - binds a user SDMA queue to the SDMA engine over the process's GPUVM.
#include "kfd/sdma_hw_queue.h"

#include <memory>

#include "gpu/adversary.h"

namespace rocref::kfd {

SdmaHwQueue::SdmaHwQueue(uint32_t pasid, gpu::vm::GpuVm* vm, InterruptRing* ih, SdmaQueueAddresses where,
                         uint32_t priority, bool active)
    : pasid_(pasid), vm_(vm), ih_(ih), where_(where), priority_(priority), active_(active) {}

bool SdmaHwQueue::runnable() noexcept {
  if (!active_.load(std::memory_order_relaxed) || error_.load(std::memory_order_acquire)) return false;
  return !engine_ || engine_->has_work();
}

bool SdmaHwQueue::step() noexcept {
  if (!active_.load(std::memory_order_relaxed) || error_.load(std::memory_order_acquire)) return false;
  if (!engine_) {
    gpu::sdma::SdmaBinding b;
    b.ring_base = where_.ring_base;
    b.ring_size = where_.ring_size;
    b.rptr_va = where_.read_pointer;
    b.wptr_va = where_.write_pointer;
    b.doorbell = where_.doorbell;
    b.memory = vm_;
    InterruptRing* ih = ih_;
    const uint32_t pasid = pasid_;
    // SDMA-TRAP-1: the trap's context is the event id of ROCR's completion signal.
    b.on_trap = [ih, pasid](uint32_t int_ctx) {
      IhEntry e;
      e.kind = IhEntry::Kind::Signal;
      e.pasid = pasid;
      e.event_id = int_ctx;
      ih->push(e);
    };
    b.on_error = [this](gpu::sdma::SdmaError, uint64_t, const std::string&) {
      error_.store(true, std::memory_order_release);
    };
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
