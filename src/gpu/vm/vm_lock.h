// gpu/vm/vm_lock.h - the lock a GpuVm's writers take, and the sequence its TLB-hit reads check.
//
// Every locked section (a map, an unmap, an invalidation, a TLB fill, a USERPTR question) may
// change what a translation reads, so the lock is also a sequence lock: lock() makes the count
// odd, unlock() even again. A TLB hit reads without the lock (read()): it takes the count,
// reads, and keeps its answer only if the count was even and has not moved; otherwise the
// caller takes the lock. A hit then executes no locked instruction: each one drained the
// engine thread's store buffer (about 11 per AQL dispatch). Everything a read touches is an
// atomic (relaxed), so a read racing a writer is a discarded read, not a data race.
// Writers: test-and-set, then spin and yield (common/backoff.h); the KFD's map and unmap hold
// the lock longer (page-table pages are allocated). Meets BasicLockable (std::lock_guard).
#pragma once

#include <atomic>
#include <cstdint>

#include "common/backoff.h"
#include "gpu/vm/vm_mutant.h"

namespace rocref::gpu::vm {

class VmLock {
 public:
  void lock() noexcept {
    if (held_.exchange(true, std::memory_order_acquire)) wait();
    // Odd: a read that starts now or overlaps this section discards what it read.
    sequence_.store(sequence_.load(std::memory_order_relaxed) + 1, std::memory_order_relaxed);
    std::atomic_thread_fence(std::memory_order_release);
  }
  void unlock() noexcept {
    sequence_.store(sequence_.load(std::memory_order_relaxed) + 1, std::memory_order_release);
    held_.store(false, std::memory_order_release);
  }

  // Runs read() (relaxed atomic loads only) outside the lock; its answer, or Result{} when a
  // locked section ran or was running meanwhile.
  template <typename Result, typename Read>
  Result read(Read&& read) const noexcept {
    const uint32_t before = sequence_.load(std::memory_order_acquire);
    if ((before & 1) != 0) return Result{};
    Result r = read();
    std::atomic_thread_fence(std::memory_order_acquire);
    // Mutant VM-TLB-3: the answer is kept without looking at the count again.
    if (vm_mutant_active(VmMutant::TlbReadUnchecked)) return r;
    return sequence_.load(std::memory_order_relaxed) == before ? r : Result{};
  }

 private:
  // Out of line: the uncontended path then needs no saved registers in its caller.
  [[gnu::noinline]] void wait() noexcept {
    Backoff backoff;
    do {
      while (held_.load(std::memory_order_relaxed)) backoff.pause();
    } while (held_.exchange(true, std::memory_order_acquire));
  }

  std::atomic<bool> held_{false};
  std::atomic<uint32_t> sequence_{0};  // odd while a locked section runs
};

}  // namespace rocref::gpu::vm
