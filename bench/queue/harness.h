// bench/queue/harness.h - the measured loops, written once for every queue type.
//
// A queue type Q provides: a default constructor (ring of kRingSize packets),
// `Q::Producer(Q&, uint32_t index)` with `push(const Packet&)` (waits with
// rocref::Backoff while full) and `flush()` (sends anything it holds back),
// and `bool try_pop(Packet&)` for the single consumer. Each peer's translation
// unit instantiates these templates, so the queue's inline code is inlined
// into the loops exactly as a user's code would inline it.
#pragma once

#include <valgrind/callgrind.h>

#include <atomic>
#include <chrono>
#include <memory>
#include <thread>
#include <utility>
#include <vector>

#include "bench/queue/impl.h"
#include "bench/queue/packet.h"
#include "bench/queue/threads.h"
#include "common/backoff.h"

namespace rocref::bench {

template <class Q>
RunResult run_concurrent(const RunConfig& config) {
  auto queue = std::make_unique<Q>();
  const uint32_t producers = config.producers == 0 ? 1 : config.producers;
  // SCHED_FIFO only when every measured thread has a core: spinning FIFO
  // threads on a shared core would never let the other run.
  const bool want_fifo = producers + 1 <= static_cast<uint32_t>(usable_cpus());
  StartBarrier barrier(producers + 1);
  std::atomic<uint32_t> finished{0}, fifo_threads{0};
  std::atomic<uint64_t> pushed{0};
  const auto run_for = std::chrono::duration<double>(config.seconds);
  RunResult result;

  std::vector<std::thread> threads;
  for (uint32_t index = 0; index < producers; ++index) {
    threads.emplace_back([&, index] {
      if (setup_measured_thread(nth_usable_cpu(1 + static_cast<int>(index)), want_fifo)) fifo_threads++;
      typename Q::Producer producer(*queue, index);
      Packet packet = make_packet(index);
      barrier.arrive_and_wait();
      const auto deadline = std::chrono::steady_clock::now() + run_for;
      uint64_t seq = 0;
      for (;; ++seq) {
        if ((seq & 63) == 0 && std::chrono::steady_clock::now() >= deadline) break;
        packet.kernel_object = seq;
        producer.push(packet);
      }
      producer.flush();
      pushed.fetch_add(seq, std::memory_order_relaxed);
      finished.fetch_add(1, std::memory_order_release);
      make_current_thread_normal();
    });
  }
  threads.emplace_back([&] {
    if (setup_measured_thread(nth_usable_cpu(0), want_fifo)) fifo_threads++;
    std::vector<uint64_t> next(producers, 0);
    Packet out{};
    uint64_t got = 0, errors = 0;
    Backoff backoff;
    barrier.arrive_and_wait();
    const auto start = std::chrono::steady_clock::now();
    for (;;) {
      if (queue->try_pop(out)) {
        const uint32_t from = out.private_segment_size;
        if (from >= producers || out.kernel_object != next[from]) {
          ++errors;
          if (from < producers) next[from] = out.kernel_object + 1;
        } else {
          ++next[from];
        }
        ++got;
        backoff.reset();
        continue;
      }
      if (finished.load(std::memory_order_acquire) == producers &&
          got >= pushed.load(std::memory_order_relaxed)) {
        break;
      }
      backoff.pause();
    }
    result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    result.items = got;
    result.order_errors = errors;
    make_current_thread_normal();
  });
  for (auto& t : threads) t.join();
  if (result.items != pushed.load()) result.order_errors += 1;
  result.realtime = fifo_threads.load() == producers + 1;
  return result;
}

// Push 8, pop 8: the same shape for every queue, so batched producers flush once per group.
inline constexpr uint64_t kPairGroup = 8;

// The eight pushes and pops are unrolled so the loop's own counting stays
// out of the per-pair figure. Each push is handed a packet the compiler must
// take as new (an empty asm that may have written all of it: no queue's copy
// can be hoisted out of the loop or merged with the previous push's), and each
// pop's packet as read (an empty asm that reads all 64 bytes: no queue's
// copy-out can be left out), at no instruction of their own. What remains, the
// same for every row: the group's count and branch, a quarter of an
// instruction per pair.
[[gnu::always_inline]] inline void as_new(Packet& packet) noexcept { asm volatile("" : "+m"(packet)); }
[[gnu::always_inline]] inline void as_read(const Packet& packet) noexcept { asm volatile("" : : "m"(packet)); }

template <class Q, size_t... I>
[[gnu::always_inline]] inline void pairs_group(Q& queue, typename Q::Producer& producer, Packet& packet, Packet& out,
                                               std::index_sequence<I...>) {
  (((void)I, as_new(packet), producer.push(packet)), ...);
  producer.flush();
  (((void)I, queue.try_pop(out), as_read(out)), ...);
}

template <class Q>
__attribute__((noinline)) uint64_t pairs_loop(Q& queue, typename Q::Producer& producer, uint64_t groups) {
  Packet packet = make_packet(0), out{};
  for (uint64_t g = groups; g != 0; --g) {
    pairs_group(queue, producer, packet, out, std::make_index_sequence<kPairGroup>());
  }
  return out.kernel_object + out.private_segment_size;
}

// The regression check's planted slower path: the same loop plus extra work per pair.
template <class Q>
__attribute__((noinline)) uint64_t pairs_loop_planted(Q& queue, typename Q::Producer& producer, uint64_t groups) {
  uint64_t sink = pairs_loop(queue, producer, groups);
  for (uint64_t i = 0; i < groups * kPairGroup * 8; ++i) {
    asm volatile("" : "+r"(sink));  // about 8 x 3 instructions per pair
    sink += i;
  }
  return sink;
}

template <class Q>
uint64_t run_pairs(uint64_t pairs, bool planted, bool measure) {
  auto queue = std::make_unique<Q>();
  typename Q::Producer producer(*queue, 0);
  const uint64_t groups = pairs / kPairGroup;
  auto loop = planted ? &pairs_loop_planted<Q> : &pairs_loop<Q>;
  uint64_t sink = loop(*queue, producer, groups / 4 + 1);  // warm-up: caches, lazy allocations
  if (measure) {
    CALLGRIND_START_INSTRUMENTATION;
    CALLGRIND_ZERO_STATS;
  }
  sink += loop(*queue, producer, groups);
  if (measure) CALLGRIND_DUMP_STATS;
  return sink;
}

// The two entries every queue type registers with.
template <class Q>
ImplInfo make_impl(std::string name, std::string label, bool multi_producer, bool fifo_across = true,
                   bool batched = false) {
  ImplInfo info;
  info.name = std::move(name);
  info.label = std::move(label);
  info.multi_producer = multi_producer;
  info.fifo_across_producers = fifo_across;
  info.batched = batched;
  info.run = &run_concurrent<Q>;
  info.pairs = &run_pairs<Q>;
  return info;
}

// Peers' blocking push: retry with the shared back-off.
template <class TryPush>
inline void push_with_backoff(TryPush&& try_push) {
  if (try_push()) return;
  Backoff backoff;
  do backoff.pause();
  while (!try_push());
}

}  // namespace rocref::bench
