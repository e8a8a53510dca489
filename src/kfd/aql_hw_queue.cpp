// kfd/aql_hw_queue.cpp - binds a user AQL queue to a packet processor over the process's GPUVM.
#include "kfd/aql_hw_queue.h"

#include <hsa/amd_hsa_queue.h>
#include <hsa/amd_hsa_signal.h>

#include <atomic>

#include <cstddef>

#include "common/cp_queue_error.h"
#include "gpu/packet_processor.h"
#include "kfd/kfd_mutant.h"

namespace rocref::kfd {
namespace {
thread_local AqlHwQueue* t_current = nullptr;

// HSA-QUEUE-5: the CP's queue-error report, as ROCR expects it: the error bit
// (common/cp_queue_error.h, not an hsa_status_t) goes into the amd_signal_t
// named by amd_queue_t.queue_inactive_signal, then,
// like a completion, its event mailbox is written and the interrupt raised, so
// the runtime's handler for that signal calls the queue's error callback.
void report_queue_error(gpu::vm::GpuVm* vm, InterruptRing* ih, uint32_t pasid, uint64_t amd_queue_va,
                        hsa_status_t status) noexcept {
  // AQL-MEM-1: the descriptor is translated now, not remembered from an earlier translation.
  auto* handle = static_cast<uint64_t*>(vm->translate(amd_queue_va + offsetof(amd_queue_t, queue_inactive_signal),
                                                      sizeof(uint64_t), gpu::Access::Read));
  if (!handle) return;
  const uint64_t signal_va = std::atomic_ref<uint64_t>(*handle).load(std::memory_order_acquire);
  if (signal_va == 0 || signal_va % alignof(uint64_t) != 0) return;  // AQL-SIG-6: no atomic on it
  auto* s = static_cast<amd_signal_t*>(vm->translate(signal_va, sizeof(amd_signal_t), gpu::Access::ReadWrite));
  if (!s) return;
  std::atomic_ref<int64_t>(const_cast<int64_t&>(s->value)).store(static_cast<int64_t>(cp_queue_error_code(status)), std::memory_order_release);
  const uint64_t mailbox_va = std::atomic_ref<uint64_t>(s->event_mailbox_ptr).load(std::memory_order_relaxed);
  if (mailbox_va == 0 || mailbox_va % alignof(uint64_t) != 0) return;
  auto* mailbox = static_cast<uint64_t*>(vm->translate(mailbox_va, sizeof(uint64_t), gpu::Access::Write));
  if (!mailbox) return;
  const uint32_t event_id = std::atomic_ref<uint32_t>(s->event_id).load(std::memory_order_relaxed);
  std::atomic_ref<uint64_t>(*mailbox).store(event_id, std::memory_order_release);
  IhEntry e;
  e.kind = IhEntry::Kind::Signal;
  e.pasid = pasid;
  e.event_id = event_id;
  ih->push(e);
}

struct CurrentScope {
  explicit CurrentScope(AqlHwQueue* q) { t_current = q; }
  ~CurrentScope() { t_current = nullptr; }
};
}  // namespace

AqlHwQueue::AqlHwQueue(const QueueContext& ctx, const Mqd& m)
    : BoundHwQueue(ctx, m),
      amd_queue_va_(m.cp_hqd_pq_wptr_poll_addr - offsetof(amd_queue_t, write_dispatch_id)),
      ring_va_(m.cp_hqd_pq_base),
      ring_bytes_(m.ring_bytes),
      read_pointer_va_(m.cp_hqd_pq_rptr_report_addr) {}

AqlHwQueue::~AqlHwQueue() = default;

AqlHwQueue* AqlHwQueue::current() noexcept { return t_current; }

bool AqlHwQueue::bind() noexcept {
  CurrentScope scope(this);
  // KFD-Q-5, AQL-MEM-1: the CP knows the ring and the read pointer from the MQD and reaches
  // them through GPUVM at every access; nothing is translated once and kept.
  gpu::QueueBinding b;
  b.ring_va = ring_va_;
  b.ring_packets = static_cast<uint32_t>(ring_bytes_ / 64);
  b.read_index_va = read_pointer_va_;
  b.amd_queue_va = amd_queue_va_;  // the adversarial mode's doorbell checks only
  b.memory = vm_;
  const uint32_t pasid = pasid_;
  InterruptRing* ih = ih_;
  b.on_interrupt = [ih, pasid](uint32_t event_id) { push_signal(ih, pasid, event_id); };
  b.on_error = [this, ih, pasid](hsa_status_t status, uint64_t) {
    stop();
    report_queue_error(vm_, ih, pasid, amd_queue_va_, status);
  };
  processor_ = std::make_unique<gpu::PacketProcessor>(std::move(b));
  return true;
}

bool AqlHwQueue::runnable() noexcept {
  if (!running()) return false;
  if (!processor_) return true;
  CurrentScope scope(this);
  faulted_ = false;
  const bool work = processor_->has_work();  // reads the ring header through GPUVM: may fault
  if (faulted_) {
    processor_->inactivate();
    stop();
    return false;
  }
  return work;
}

bool AqlHwQueue::step() noexcept {
  if (!running()) return false;
  if (!processor_) return bind();
  CurrentScope scope(this);
  faulted_ = false;
  const gpu::ProcessorStep s = processor_->step();
  if (faulted_) {  // KFD-FAULT-2: the faulting queue stops; the process learns through its event
    processor_->inactivate();
    stop();
    return true;
  }
  if (s.action == gpu::ProcessorAction::None) return false;
  steps_.add();
  return true;
}

void AqlHwQueue::unmap() noexcept {
  saved_ = SavedState{};
  if (!processor_ || !processor_->preemptible()) return;  // packets in flight stay in the context
  saved_.valid = true;
  saved_.rptr = processor_->fetch_index();
}

void AqlHwQueue::map() noexcept {
  if (!saved_.valid || !processor_) return;
  uint64_t read = saved_.rptr;
  // The planted ResumeRewindsReadPointer resumes one packet early.
  if (kfd_mutant_active(KfdMutant::ResumeRewindsReadPointer) && read > 0) --read;
  processor_->resume_at(read);
  saved_.valid = false;
}

}  // namespace rocref::kfd
