// bench/queue/e2e.cpp - end-to-end latency through the GPU model's packet processor and scheduler.
//
// The producer is the HSA layer's path (QueueRing::submit: fetch_add, body,
// release header, doorbell, notify); the consumer is gpu::PacketProcessor on
// gpu::EngineScheduler. Spinning: the scheduler never sleeps. Sleeping: each
// packet is submitted only after the scheduler has gone to sleep, so every
// sample includes the futex wake-up (AQL-DB-4).
#include "bench/queue/e2e.h"

#ifdef ROCREF_BENCH_HAVE_GPU

#include <sched.h>

#include <atomic>
#include <chrono>
#include <memory>
#include <string>

#include "bench/queue/aql_queue_memory.h"
#include "bench/queue/threads.h"
#include "common/aql_ring.h"
#include "common/backoff.h"
#include "gpu/engine_scheduler.h"
#include "gpu/memory_access.h"
#include "gpu/packet_processor.h"

namespace rocref::bench {

bool e2e_available() noexcept { return true; }

E2eResult run_e2e(bool spinning, uint32_t samples, double max_seconds) {
  E2eResult result;
  AqlQueueMemory memory;
  gpu::FlatMemory flat;
  std::atomic<bool> failed{false};
  gpu::QueueBinding binding;
  binding.queue = memory.queue();
  binding.memory = &flat;
  binding.on_error = [&](hsa_status_t, uint64_t) { failed.store(true); };
  gpu::PacketProcessor processor(std::move(binding));
  gpu::SchedulerOptions options;
  options.spin = spinning;
  gpu::EngineScheduler scheduler(options);
  scheduler.add(processor);

  alignas(64) amd_signal_t completion{};
  completion.kind = AMD_SIGNAL_KIND_USER;
  hsa_barrier_and_packet_t packet{};
  packet.header = aql::make_header(HSA_PACKET_TYPE_BARRIER_AND, false, HSA_FENCE_SCOPE_SYSTEM,
                                   HSA_FENCE_SCOPE_SYSTEM);
  packet.completion_signal.handle = reinterpret_cast<uintptr_t>(&completion);
  std::atomic_ref<int64_t> value(const_cast<int64_t&>(completion.value));

  aql::QueueRing ring(memory.queue());
  cpu_set_t saved;
  CPU_ZERO(&saved);
  const bool restore = sched_getaffinity(0, sizeof saved, &saved) == 0;
  // The scheduler's thread inherits this thread's affinity and policy:
  // processor on one CPU, producer on the other, both SCHED_FIFO when there
  // are two CPUs for them (a spinning processor sharing a CPU with other work
  // waits out whole time slices).
  // Both CPUs are chosen before the first pin: nth_usable_cpu reads this thread's affinity,
  // which the first pin narrows to one CPU.
  const int processor_cpu = nth_usable_cpu(0), producer_cpu = nth_usable_cpu(1);
  pin_current_thread(processor_cpu);
  result.realtime = usable_cpus() >= 2 && make_current_thread_fifo();
  scheduler.start();
  pin_current_thread(producer_cpu);
  result.latency_ns.reserve(samples);
  uint64_t sleeps_seen = scheduler.stats().sleeps;
  const auto give_up = std::chrono::steady_clock::now() + std::chrono::duration<double>(max_seconds);
  for (uint32_t i = 0; i < samples && !failed.load(std::memory_order_relaxed); ++i) {
    if (i >= 20 && std::chrono::steady_clock::now() > give_up) break;
    value.store(1, std::memory_order_relaxed);
    if (!spinning) {
      Backoff wait_asleep;
      while (scheduler.stats().sleeps == sleeps_seen) wait_asleep.pause();
      sleeps_seen = scheduler.stats().sleeps;
    }
    const auto start = std::chrono::steady_clock::now();
    ring.submit(&packet);
    Backoff backoff;
    while (value.load(std::memory_order_acquire) != 0) {
      backoff.pause();
      // Never hang the suite: a lost packet is reported, not waited for.
      if (std::chrono::steady_clock::now() - start > std::chrono::seconds(2)) {
        const gpu::ProcessorStats st = processor.stats();
        result.error = "packet " + std::to_string(i) + " not completed in 2 s (launched " +
                       std::to_string(st.launched) + ", completed " + std::to_string(st.completed) +
                       (processor.in_error() ? ", queue in error" : "") + ")";
        scheduler.stop();
        make_current_thread_normal();
        if (restore) sched_setaffinity(0, sizeof saved, &saved);
        return result;
      }
    }
    result.latency_ns.push_back(std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() - start).count());
    sleeps_seen = scheduler.stats().sleeps;
  }
  scheduler.stop();
  make_current_thread_normal();
  if (restore) sched_setaffinity(0, sizeof saved, &saved);
  if (failed.load()) result.error = "the packet processor reported a queue error";
  return result;
}

}  // namespace rocref::bench

#else

namespace rocref::bench {
bool e2e_available() noexcept { return false; }
E2eResult run_e2e(bool, uint32_t, double) { return E2eResult{{}, "the GPU model (rocref_gpu) is not built"}; }
}  // namespace rocref::bench

#endif
