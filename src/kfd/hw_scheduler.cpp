// kfd/hw_scheduler.cpp - slot mapping by priority and least-recent service; the scheduler thread.
#include "kfd/hw_scheduler.h"

#include <algorithm>

#include "gpu/vm/gpu_vm.h"

namespace rocref::kfd {

HwScheduler::HwScheduler(unsigned pipes, unsigned slots_per_pipe, unsigned quantum)
    : slots_(std::max(1u, pipes * slots_per_pipe)), quantum_(std::max(1u, quantum)) {}

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
  queue_count_.store(queues_.size(), std::memory_order_relaxed);
}

void HwScheduler::quiesce() { std::lock_guard lock(mu_); }

std::vector<HwQueue*> HwScheduler::mapped() const {
  std::lock_guard lock(mu_);
  return mapped_;
}

void HwScheduler::set_after_slice(std::function<void()> fn) { after_slice_ = std::move(fn); }

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
    if (ready_.size() > slots_) ready_.resize(slots_);
    for (HwQueue* q : mapped_) q->slot = -1;
    mapped_.assign(ready_.begin(), ready_.end());
    ++tick_;
    for (size_t i = 0; i < mapped_.size(); ++i) {
      mapped_[i]->slot = static_cast<int>(i);
      mapped_[i]->last_mapped = tick_;
      ++mapped_[i]->slices_mapped;
    }
    // The served queues move to the back, each part in its old order.
    if (!mapped_.empty()) {
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
    for (unsigned n = 0; n < quantum_; ++n) {
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
