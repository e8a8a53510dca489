// kfd/hw_scheduler.cpp - slot mapping by priority and least-recent service, preemption and
// resumption of the queues that leave and enter the slots; the scheduler thread.
#include "kfd/hw_scheduler.h"

#include <algorithm>

#include "gpu/adversary.h"
#include "gpu/vm/gpu_vm.h"
#include "kfd/kfd_mutant.h"

namespace rocref::kfd {
namespace {
// The schedulers' adversarial choice streams lie apart from the queues' (1, 2, ...).
constexpr uint64_t kSchedulerStreamBase = uint64_t{0x4857'5300} << 32;
}  // namespace

HwScheduler::HwScheduler(unsigned pipes, unsigned slots_per_pipe, unsigned quantum, unsigned max_processes,
                         uint64_t stream)
    : slots_(std::max(1u, pipes * slots_per_pipe)),
      quantum_(std::max(1u, quantum)),
      max_processes_(max_processes),
      stream_(kSchedulerStreamBase + stream) {}

HwScheduler::~HwScheduler() = default;

void HwScheduler::add(HwQueue* q) {
  std::lock_guard lock(mu_);
  queues_.push_back(q);
  queue_count_.store(queues_.size(), std::memory_order_relaxed);
}

void HwScheduler::remove(HwQueue* q) {
  std::lock_guard lock(mu_);
  queues_.erase(std::remove(queues_.begin(), queues_.end(), q), queues_.end());
  mapped_.erase(std::remove(mapped_.begin(), mapped_.end(), q), mapped_.end());
  q->slot = -1;
  queue_count_.store(queues_.size(), std::memory_order_relaxed);
}

void HwScheduler::quiesce() { std::lock_guard lock(mu_); }

void HwScheduler::unmap_locked(HwQueue* q) {
  q->slot = -1;
  q->unmap();
  ++q->unmaps;
}

void HwScheduler::unmap_now(HwQueue* q) {
  std::lock_guard lock(mu_);
  if (q->slot < 0) return;
  mapped_.erase(std::remove(mapped_.begin(), mapped_.end(), q), mapped_.end());
  unmap_locked(q);
}

std::vector<HwQueue*> HwScheduler::mapped() const {
  std::lock_guard lock(mu_);
  return mapped_;
}

bool HwScheduler::oversubscribed() const {
  std::lock_guard lock(mu_);
  return oversubscribed_;
}

void HwScheduler::set_after_slice(std::function<void()> fn) { after_slice_ = std::move(fn); }

// The slice's runlist: ready_ becomes the queues mapped this slice, in slot order.
void HwScheduler::pick_locked() {
  // Every slice runs this, idle polls included: the lists below reuse their capacity, and
  // the stable orders are built by hand (std::stable_sort and std::stable_partition
  // allocate a buffer per call).
  ready_.clear();
  for (HwQueue* q : queues_) {
    if (!q->runnable()) continue;
    // KFD-HWS-2: highest priority first. KFD-HWS-3: within a priority, queues_ is the
    // round-robin order (served queues move to its back below), so the longest waiting go first.
    // Insertion after the last queue of the same or a higher priority keeps that order.
    auto at = ready_.end();
    while (at != ready_.begin() && (*(at - 1))->priority() < q->priority()) --at;
    ready_.insert(at, q);
  }
  // KFD-HWS-1: at most slots_ queues; KFD-HWS-3: of at most max_processes_ processes (the
  // HWS maps max_proc_per_quantum processes at once). The rest wait: the runlist is
  // over-subscribed.
  const size_t runnable = ready_.size();
  procs_.clear();
  size_t n = 0;
  for (size_t i = 0; i < ready_.size() && n < slots_; ++i) {
    HwQueue* q = ready_[i];
    if (max_processes_ != 0 && std::find(procs_.begin(), procs_.end(), q->process()) == procs_.end()) {
      if (procs_.size() >= max_processes_) continue;
      procs_.push_back(q->process());
    }
    ready_[n++] = q;
  }
  ready_.resize(n);
  oversubscribed_ = runnable > n;
}

bool HwScheduler::run_slice() {
  // No queue, ever or any more (the SDMA scheduler of a process that copies nothing): nothing
  // can step, so the poll takes no lock. A queue added meanwhile is polled next slice. The GPU
  // is idle, so KFD-MEM-10's new epoch is still due: a USERPTR buffer's registration waits
  // for one.
  if (queue_count_.load(std::memory_order_relaxed) == 0) {
    gpu::vm::GpuVm::new_userptr_epoch();
    idle_ = true;
    if (after_slice_) after_slice_();
    return false;
  }
  bool progress = false;
  {
    std::lock_guard lock(mu_);
    // KFD-MEM-10: after the GPU was idle (or every 64 slices of work), USERPTR buffers are asked
    // again whether their pages are present, before any queue steps (the MMU notifier's effect).
    if (idle_ || tick_ % 64 == 0) gpu::vm::GpuVm::new_userptr_epoch();
    pick_locked();
    // KFD-HWS-5: the queues that leave the slots are preempted (their state saved in their MQDs)
    // before the ones that enter are mapped (resumed from theirs).
    for (HwQueue* q : ready_) q->picked = true;
    for (HwQueue* q : mapped_) {
      if (!q->picked) unmap_locked(q);
    }
    ++tick_;
    for (size_t i = 0; i < ready_.size(); ++i) {
      HwQueue* q = ready_[i];
      q->picked = false;
      if (q->slot < 0) {
        q->map();
        ++q->maps;
      }
      q->slot = static_cast<int>(i);
      q->last_mapped = tick_;
      ++q->slices_mapped;
    }
    mapped_.assign(ready_.begin(), ready_.end());
    // KFD-HWS-4: the served queues move to the back, each part in its old order, so the queues
    // that waited are ahead of them next slice. The planted RotationKeepsServedInFront leaves
    // the order as it is: the first slots' worth of runnable queues are mapped every slice.
    if (!mapped_.empty() && !kfd_mutant_active(KfdMutant::RotationKeepsServedInFront)) {
      ready_.clear();
      auto kept = queues_.begin();
      for (HwQueue* q : queues_) {
        if (q->slot >= 0) {
          ready_.push_back(q);
        } else {
          *kept++ = q;
        }
      }
      std::copy(ready_.begin(), ready_.end(), kept);
    }
    // The slice's length: the quantum, or (KFD-HWS-7, adversarial GPU) a length in [1, quantum]
    // the seed picks, so the points where queues are preempted are the seed's.
    unsigned steps = quantum_;
    if (!chooser_ && gpu::adversary::enabled()) chooser_ = std::make_unique<gpu::adversary::Chooser>(stream_);
    if (chooser_ && !mapped_.empty()) steps = 1 + chooser_->below(quantum_, "hws slice length");
    for (unsigned n = 0; n < steps; ++n) {
      bool any = false;
      for (HwQueue* q : mapped_) any |= q->step();
      progress |= any;
      if (!any) break;
    }
    idle_ = !progress;
  }
  if (after_slice_) after_slice_();
  return progress;
}

}  // namespace rocref::kfd
