// kfd/interrupt_ring.h - the IH ring: GPU-model engines post interrupts, the KFD drains them.
//
// Engines run under the hardware scheduler's lock and must not take the
// driver's lock (the driver takes the scheduler's lock to add and remove
// queues), so, like the real IH ring, interrupts are queued here and the
// driver's handler processes them afterwards (KFD-IRQ-1). Its lock is a FutexLock: a completion
// interrupt per dispatch then costs one atomic each way instead of two calls into pthread.
#pragma once

#include <atomic>
#include <cstdint>
#include <mutex>
#include <vector>

#include "common/futex_lock.h"
#include "gpu/vm/gpu_vm.h"

namespace rocref::kfd {

struct IhEntry {
  enum class Kind : uint8_t { Signal, VmFault } kind = Kind::Signal;
  uint32_t pasid = 0;
  uint32_t gpu_id = 0;         // the GPU that raised it
  uint32_t event_id = 0;       // Signal: the completion signal's event id (context id)
  gpu::vm::VmFault fault{};    // VmFault
};

class InterruptRing {
 public:
  void push(const IhEntry& e) {
    std::lock_guard<FutexLock> lock(mu_);
    entries_.push_back(e);
    pending_.store(true, std::memory_order_release);
  }
  // Lets the engine thread skip the driver's lock after a slice that raised nothing.
  bool pending() const noexcept { return pending_.load(std::memory_order_acquire); }
  // Moves the queued entries into `out` (emptied first) and keeps out's buffer for the next
  // pushes: a completion interrupt per dispatch then allocates nothing in steady state.
  void drain(std::vector<IhEntry>& out) {
    out.clear();
    std::lock_guard<FutexLock> lock(mu_);
    out.swap(entries_);
    pending_.store(false, std::memory_order_release);
  }

 private:
  FutexLock mu_;
  std::vector<IhEntry> entries_;
  std::atomic<bool> pending_{false};
};

}  // namespace rocref::kfd
