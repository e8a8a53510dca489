// kfd/hw_scheduler.cpp - slot mapping by priority and least-recent service; the scheduler thread.
#include "kfd/hw_scheduler.h"

#include <algorithm>

#include "gpu/vm/gpu_vm.h"

namespace rocref::kfd {

HwScheduler::HwScheduler(unsigned pipes, unsigned slots_per_pipe, unsigned quantum)
    : slots_(std::max(1u, pipes * slots_per_pipe)), quantum_(std::max(1u, quantum)) {}

HwScheduler::~HwScheduler() = default;

void HwScheduler::add(HwQueue* q) {
  {
    std::lock_guard<std::mutex> lock(mu_);
    queues_.push_back(q);
  }
}

void HwScheduler::remove(HwQueue* q) {
  std::lock_guard<std::mutex> lock(mu_);
  queues_.erase(std::remove(queues_.begin(), queues_.end(), q), queues_.end());
  mapped_.erase(std::remove(mapped_.begin(), mapped_.end(), q), mapped_.end());
}

void HwScheduler::quiesce() { std::lock_guard<std::mutex> lock(mu_); }

std::vector<HwQueue*> HwScheduler::mapped() const {
  std::lock_guard<std::mutex> lock(mu_);
  return mapped_;
}

void HwScheduler::set_after_slice(std::function<void()> fn) {
  std::lock_guard<std::mutex> lock(mu_);
  after_slice_ = std::move(fn);
}

bool HwScheduler::run_slice() {
  std::function<void()> after;
  bool progress = false;
  {
    std::lock_guard<std::mutex> lock(mu_);
    after = after_slice_;
    // KFD-MEM-10: after the GPU was idle (or every 64 slices of work), USERPTR buffers are asked
    // again whether their pages are present, before any queue steps (the MMU notifier's effect).
    if (idle_ || tick_ % 64 == 0) gpu::vm::GpuVm::new_userptr_epoch();
    std::vector<HwQueue*> ready;
    for (HwQueue* q : queues_)
      if (q->runnable()) ready.push_back(q);
    // KFD-HWS-2: highest priority first. KFD-HWS-3: within a priority, queues_ is the
    // round-robin order (served queues move to its back below), so the longest waiting go first.
    std::stable_sort(ready.begin(), ready.end(),
                     [](const HwQueue* a, const HwQueue* b) { return a->priority() > b->priority(); });
    if (ready.size() > slots_) ready.resize(slots_);
    for (HwQueue* q : mapped_) q->slot = -1;
    mapped_ = ready;
    ++tick_;
    for (size_t i = 0; i < mapped_.size(); ++i) {
      mapped_[i]->slot = static_cast<int>(i);
      mapped_[i]->last_mapped = tick_;
      ++mapped_[i]->slices_mapped;
    }
    std::stable_partition(queues_.begin(), queues_.end(), [this](const HwQueue* q) {
      return std::find(mapped_.begin(), mapped_.end(), q) == mapped_.end();
    });
    for (unsigned n = 0; n < quantum_; ++n) {
      bool any = false;
      for (HwQueue* q : mapped_) any |= q->step();
      progress |= any;
      if (!any) break;
    }
    idle_ = !progress;
  }
  if (after) after();
  return progress;
}

}  // namespace rocref::kfd
