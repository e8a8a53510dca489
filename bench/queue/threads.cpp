// bench/queue/threads.cpp - pinning, SCHED_FIFO and the start barrier.
#include "bench/queue/threads.h"

#include <pthread.h>
#include <sched.h>

#include "common/backoff.h"

namespace rocref::bench {

int usable_cpus() noexcept {
  cpu_set_t set;
  CPU_ZERO(&set);
  if (sched_getaffinity(0, sizeof set, &set) != 0) return 1;
  return CPU_COUNT(&set);
}

int nth_usable_cpu(int n) noexcept {
  cpu_set_t set;
  CPU_ZERO(&set);
  if (sched_getaffinity(0, sizeof set, &set) != 0) return 0;
  const int count = CPU_COUNT(&set);
  if (count == 0) return 0;
  n %= count;
  for (int cpu = 0; cpu < CPU_SETSIZE; ++cpu) {
    if (CPU_ISSET(cpu, &set) && n-- == 0) return cpu;
  }
  return 0;
}

bool pin_current_thread(int cpu) noexcept {
  cpu_set_t set;
  CPU_ZERO(&set);
  CPU_SET(cpu, &set);
  return pthread_setaffinity_np(pthread_self(), sizeof set, &set) == 0;
}

bool make_current_thread_fifo() noexcept {
  sched_param param{};
  param.sched_priority = 1;
  return pthread_setschedparam(pthread_self(), SCHED_FIFO, &param) == 0;
}

void make_current_thread_normal() noexcept {
  sched_param param{};
  pthread_setschedparam(pthread_self(), SCHED_OTHER, &param);
}

void StartBarrier::arrive_and_wait() noexcept {
  arrived_.fetch_add(1, std::memory_order_acq_rel);
  Backoff backoff;
  while (arrived_.load(std::memory_order_acquire) < parties_) backoff.pause();
}

bool setup_measured_thread(int cpu, bool want_fifo) noexcept {
  pin_current_thread(cpu);
  return want_fifo && make_current_thread_fifo();
}

}  // namespace rocref::bench
