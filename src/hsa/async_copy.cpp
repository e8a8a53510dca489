// hsa/async_copy.cpp - asynchronous copies in submission order (see async_copy.h).
#include "hsa/async_copy.h"

#include <hsa/hsa_ext_amd.h>
#include <hsakmt.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <system_error>

#include "hsa/agent.h"
#include "hsa/blit_kernel.h"
#include "hsa/hsa_mutant.h"
#include "hsa/runtime.h"
#include "hsa/signal_object.h"

namespace rocref::hsa {
namespace {

uint64_t gpu_ticks(const Agent& gpu) {
  HsaClockCounters clocks{};
  return hsaKmtGetClockCounters(gpu.node_id(), &clocks) == HSAKMT_STATUS_SUCCESS ? clocks.GPUClockCounter : 0;
}

}  // namespace

AsyncCopies::~AsyncCopies() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  more_.notify_all();
  if (thread_.joinable()) thread_.join();
}

hsa_status_t AsyncCopies::submit(AsyncCopy copy) {
  std::lock_guard lock(mutex_);
  if (!thread_.joinable()) {
    try {
      thread_ = std::thread([this] { run(); });
    } catch (const std::system_error&) {
      return HSA_STATUS_ERROR_OUT_OF_RESOURCES;
    }
  }
  copies_.push_back(std::move(copy));
  more_.notify_one();
  return HSA_STATUS_SUCCESS;
}

void AsyncCopies::run() {
  for (;;) {
    AsyncCopy next;
    {
      std::unique_lock lock(mutex_);
      more_.wait(lock, [this] { return stopping_ || !copies_.empty(); });
      if (stopping_) return;
      next = std::move(copies_.front());
      copies_.pop_front();
    }
    // The planted HSA-PROF-2 bug times the copy from before its wait for the dependencies.
    uint64_t early_start = 0;
    if (next.profiled && hsa_mutant_active(HsaMutant::AsyncCopyTimedFromItsDependencyWait))
      early_start = gpu_ticks(*next.gpu);
    if (!wait_for_dependencies(next)) return;
    copy(next, early_start);
  }
}

bool AsyncCopies::wait_for_dependencies(const AsyncCopy& copy) {
  if (hsa_mutant_active(HsaMutant::AsyncCopySkipsDependencies)) return true;
  for (SignalObject* dependency : copy.dependencies) {
    // Bounded waits: a dependency nobody completes must not keep hsa_shut_down waiting.
    while (!dependency->view().wait(HSA_SIGNAL_CONDITION_EQ, 0, std::chrono::milliseconds(20)).satisfied) {
      std::lock_guard lock(mutex_);
      if (stopping_) return false;
    }
  }
  return true;
}

void AsyncCopies::copy(const AsyncCopy& copy, uint64_t early_start) {
  TickSpan span;
  TickSpan* times = copy.profiled ? &span : nullptr;
  if (copy.gpu == nullptr) {
    std::memmove(copy.dst, copy.src, copy.size);
  } else if ((copy.rect ? runtime_.blit(*copy.gpu).copy_rect(*copy.rect, times)
                        : runtime_.blit(*copy.gpu).copy(copy.dst, copy.src, copy.size, times)) != HSA_STATUS_SUCCESS) {
    // ROCR's answer to a copy that faults is the VM-fault handler's report and abort().
    if (copy.rect) {
      std::fprintf(stderr,
                   "rocref hsa: Memory access fault by GPU node-%u in hsa_amd_memory_async_copy_rect of %ux%ux%u "
                   "from %p to %p\n",
                   copy.gpu->node_id(), copy.rect->range.x, copy.rect->range.y, copy.rect->range.z, copy.rect->src.base,
                   copy.rect->dst.base);
    } else {
      std::fprintf(stderr,
                   "rocref hsa: Memory access fault by GPU node-%u in hsa_amd_memory_async_copy of %zu bytes from %p "
                   "to %p\n",
                   copy.gpu->node_id(), copy.size, copy.src, copy.dst);
    }
    std::abort();
  }
  if (copy.profiled) {
    // HSA-PROF-2: before the decrement, as the engine writes its timestamps before the signal.
    std::atomic_ref<uint64_t>(copy.completion->amd.start_ts)
        .store(early_start != 0 ? early_start : span.start, std::memory_order_relaxed);
    std::atomic_ref<uint64_t>(copy.completion->amd.end_ts).store(span.end, std::memory_order_relaxed);
  }
  copy.completion->hold();  // the waiter may destroy it once it sees the value (signal_object.h)
  hsa_signal_subtract_screlease(copy.completion->handle(), 1);
  copy.completion->let_go();
}

}  // namespace rocref::hsa
