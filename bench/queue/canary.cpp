// bench/queue/canary.cpp - cache-line ping-pong between two pinned threads.
#include "bench/queue/canary.h"

#include <sched.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <thread>

#include "bench/queue/threads.h"

namespace rocref::bench {
namespace {

// A tight spin gives the transfer time, not the pause instruction's; after
// many misses it yields so a descheduled partner can run.
void wait_for(const std::atomic<uint64_t>& word, uint64_t value) {
  for (uint32_t spins = 0; word.load(std::memory_order_acquire) != value;) {
    if (++spins > (1u << 14)) {
      sched_yield();
      spins = 0;
    }
  }
}

}  // namespace

double cache_line_transfer_ns(int round_trips) {
  cpu_set_t saved;
  CPU_ZERO(&saved);
  const bool restore = sched_getaffinity(0, sizeof saved, &saved) == 0;
  alignas(64) std::atomic<uint64_t> line{0};
  std::atomic<int> ready{0};
  // Chosen before any pin: nth_usable_cpu reads the calling thread's affinity.
  const int own_cpu = nth_usable_cpu(0), partner_cpu = nth_usable_cpu(1);
  std::thread partner([&] {
    pin_current_thread(partner_cpu);
    ready.fetch_add(1);
    for (int i = 0; i < round_trips; ++i) {
      wait_for(line, 2 * static_cast<uint64_t>(i) + 1);
      line.store(2 * static_cast<uint64_t>(i) + 2, std::memory_order_release);
    }
  });
  pin_current_thread(own_cpu);
  while (ready.load() == 0) sched_yield();
  const auto start = std::chrono::steady_clock::now();
  for (int i = 0; i < round_trips; ++i) {
    line.store(2 * static_cast<uint64_t>(i) + 1, std::memory_order_release);
    wait_for(line, 2 * static_cast<uint64_t>(i) + 2);
  }
  const double ns = std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() - start).count();
  partner.join();
  if (restore) sched_setaffinity(0, sizeof saved, &saved);
  return ns / (2.0 * round_trips);
}

}  // namespace rocref::bench
