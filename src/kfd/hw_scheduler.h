// kfd/hw_scheduler.h - the hardware scheduler model (HWS role): queue slots, time slices, priorities,
// preemption and resumption.
//
// The GPU has pipes x slots hardware queue slots (HQDs). Each time slice the
// scheduler maps the runnable user queues with the highest priority, least
// recently served first, onto the slots (KFD-HWS-2: a lower-priority queue is
// never mapped while a higher-priority runnable queue is left out), queues of at
// most max_processes processes at once (amdkfd's max_proc_per_quantum), and
// steps each mapped queue up to `quantum` times. More runnable queues than slots,
// or more processes than max_processes, is oversubscription (amdkfd chains the
// runlist to itself): the least recently served rotate in, so every runnable
// queue of the top priority is mapped within a bound of slices (KFD-HWS-3, -4).
// A queue that leaves the slots is preempted (unmap(): its state saved in its MQD)
// and one that enters is mapped (map(): resumed from that state, KFD-HWS-5).
// With the adversarial GPU on, the seed picks each slice's length, so the points
// where queues are preempted vary with the seed.
// run_slice() is deterministic for tests; the driver registers it as one engine
// of the GPU model's EngineScheduler, which runs it on its thread and sleeps on
// the doorbell wake channel when a slice made no progress.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <vector>

#include "common/futex_lock.h"

namespace rocref::gpu::adversary {
class Chooser;
}

namespace rocref::kfd {

class HwQueue {
 public:
  virtual ~HwQueue() = default;
  virtual uint32_t priority() const noexcept = 0;  // 0..KFD_MAX_QUEUE_PRIORITY
  virtual bool runnable() noexcept = 0;            // active, not in error, may have work
  virtual bool step() noexcept = 0;                // one unit of work; true on progress
  virtual uint32_t process() const noexcept { return 0; }  // the owning process (its PASID)
  // The CP maps the queue onto a slot (loads its MQD) and, later, preempts it (saves its state
  // into the MQD and frees the slot). Called under the scheduler's lock.
  virtual void map() noexcept {}
  virtual void unmap() noexcept {}

  // Scheduler bookkeeping, under the scheduler's lock.
  uint64_t slices_mapped = 0;
  uint64_t last_mapped = 0;
  uint64_t maps = 0;    // times mapped onto a slot after being off one
  uint64_t unmaps = 0;  // times preempted off a slot
  int slot = -1;        // hardware slot in the last slice, -1 when unmapped
  bool picked = false;  // run_slice's scratch mark
};

class HwScheduler {
 public:
  // max_processes: queues of at most that many processes are mapped in one slice (0: no limit).
  // stream: which of the schedulers' adversarial choice streams this one takes (KFD-HWS-7), so a
  // seed gives each scheduler of the machine the same slice lengths in every run.
  HwScheduler(unsigned pipes, unsigned slots_per_pipe, unsigned quantum = 32, unsigned max_processes = 0,
              uint64_t stream = 0);
  ~HwScheduler();
  HwScheduler(const HwScheduler&) = delete;
  HwScheduler& operator=(const HwScheduler&) = delete;

  void add(HwQueue* q);
  void remove(HwQueue* q);  // waits for a running slice: the queue is never stepped afterwards
  bool run_slice();         // one time slice; true when some queue progressed
  void quiesce();           // returns once no slice is running (engines step only inside one)
  // Preempts q now if it is mapped (waits for a running slice): eviction unmaps a process's
  // queues before it returns, as amdkfd's evict_process_queues does.
  void unmap_now(HwQueue* q);
  unsigned slots() const noexcept { return slots_; }
  unsigned quantum() const noexcept { return quantum_; }
  unsigned max_processes() const noexcept { return max_processes_; }
  std::vector<HwQueue*> mapped() const;  // queues mapped in the last slice
  // The last slice's runlist was over-subscribed: more runnable queues than slots, or more
  // processes with runnable queues than max_processes.
  bool oversubscribed() const;

  // Called after every slice without the scheduler's lock (the driver drains its IH ring).
  // Set before the first slice runs: slices read it without a lock.
  void set_after_slice(std::function<void()> fn);

 private:
  void pick_locked();
  void unmap_locked(HwQueue* q);

  const unsigned slots_;
  const unsigned quantum_;
  const unsigned max_processes_;
  const uint64_t stream_;  // the adversarial choice stream of this scheduler
  mutable FutexLock mu_;
  std::vector<HwQueue*> queues_;
  std::vector<HwQueue*> mapped_;
  std::vector<HwQueue*> ready_;  // run_slice's scratch list, kept for its capacity
  std::vector<uint32_t> procs_;  // run_slice's scratch list: processes mapped this slice
  uint64_t tick_ = 0;
  bool idle_ = true;  // the last slice made no progress
  bool oversubscribed_ = false;
  std::unique_ptr<gpu::adversary::Chooser> chooser_;  // made at the first slice in adversarial mode
  std::atomic<size_t> queue_count_{0};  // queues_.size(), read by a slice before it locks
  // Set before the first slice and read by slices without the lock.
  std::function<void()> after_slice_;
};

}  // namespace rocref::kfd
