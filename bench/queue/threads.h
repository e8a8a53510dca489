// bench/queue/threads.h - pinning, real-time priority and a yielding start barrier.
#pragma once

#include <atomic>
#include <cstdint>

namespace rocref::bench {

// CPUs the calling thread may run on, in order (its current affinity: after a pin, only
// the pinned CPU; choose every CPU before pinning).
int usable_cpus() noexcept;
int nth_usable_cpu(int n) noexcept;

// Pins the calling thread; false if the CPU is not usable.
bool pin_current_thread(int cpu) noexcept;
// SCHED_FIFO priority 1 for the calling thread; false without the privilege.
bool make_current_thread_fifo() noexcept;
void make_current_thread_normal() noexcept;

// A start barrier whose waiters spin briefly, then yield (never spin-only: a
// two-core machine with more threads than cores would stall).
class StartBarrier {
 public:
  explicit StartBarrier(uint32_t parties) noexcept : parties_(parties) {}
  void arrive_and_wait() noexcept;

 private:
  const uint32_t parties_;
  std::atomic<uint32_t> arrived_{0};
};

// Sets up one measured thread: pin to `cpu`, FIFO if asked. Returns whether FIFO took.
bool setup_measured_thread(int cpu, bool want_fifo) noexcept;

}  // namespace rocref::bench
