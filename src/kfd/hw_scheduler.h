// kfd/hw_scheduler.h - the hardware scheduler model (HWS role): queue slots, time slices, priorities.
//
// The GPU has pipes x slots hardware queue slots. Each time slice the
// scheduler maps the runnable user queues with the highest priority, least
// recently served first, onto the slots (KFD-HWS-2: a lower-priority queue is
// never mapped while a higher-priority runnable queue is left out), and steps
// each mapped queue up to `quantum` times. More runnable queues than slots is
// oversubscription: the least recently served rotate in, so every runnable
// queue of the top priority makes progress (KFD-HWS-3).
// run_slice() is deterministic for tests; the driver registers it as one engine
// of the GPU model's EngineScheduler, which runs it on its thread and sleeps on
// the doorbell wake channel when a slice made no progress.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <mutex>
#include <vector>

#include "common/futex_lock.h"

namespace rocref::kfd {

class HwQueue {
 public:
  virtual ~HwQueue() = default;
  virtual uint32_t priority() const noexcept = 0;  // 0..KFD_MAX_QUEUE_PRIORITY
  virtual bool runnable() noexcept = 0;            // active, not in error, may have work
  virtual bool step() noexcept = 0;                // one unit of work; true on progress

  uint64_t slices_mapped = 0;  // scheduler bookkeeping, under the scheduler's lock
  uint64_t last_mapped = 0;
  int slot = -1;               // hardware slot in the last slice, -1 when unmapped
};

class HwScheduler {
 public:
  HwScheduler(unsigned pipes, unsigned slots_per_pipe, unsigned quantum = 32);
  ~HwScheduler();
  HwScheduler(const HwScheduler&) = delete;
  HwScheduler& operator=(const HwScheduler&) = delete;

  void add(HwQueue* q);
  void remove(HwQueue* q);  // waits for a running slice: the queue is never stepped afterwards
  bool run_slice();         // one time slice; true when some queue progressed
  void quiesce();           // returns once no slice is running (engines step only inside one)
  unsigned slots() const noexcept { return slots_; }
  std::vector<HwQueue*> mapped() const;  // queues mapped in the last slice

  // Called after every slice without the scheduler's lock (the driver drains its IH ring).
  // Set before the first slice runs: slices read it without a lock.
  void set_after_slice(std::function<void()> fn);

 private:
  const unsigned slots_;
  const unsigned quantum_;
  mutable FutexLock mu_;
  std::vector<HwQueue*> queues_;
  std::vector<HwQueue*> mapped_;
  std::vector<HwQueue*> ready_;  // run_slice's scratch list, kept for its capacity
  uint64_t tick_ = 0;
  bool idle_ = true;  // the last slice made no progress
  std::atomic<size_t> queue_count_{0};  // queues_.size(), read by a slice before it locks
  // Set before the first slice and read by slices without the lock.
  std::function<void()> after_slice_;
};

}  // namespace rocref::kfd
