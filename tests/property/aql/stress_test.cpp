// tests/property/aql/stress_test.cpp - producer threads and a processor thread on one real queue.
//
// Every packet carries its producer and sequence number (agent dispatch args);
// the processor side checks per-producer order, and the end checks that no
// packet was lost or duplicated. 10^6 packets by default, 20000 under a
// sanitizer, ROCREF_STRESS_PACKETS overrides (the 2- and 4-producer runs take
// a fifth). Indices start just below 2^64, so the run crosses the wrap-around
// (AQL-IDX-5). The engine sleeps on the doorbell wake channel when idle
// (AQL-DB-4). Prints packets per second.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <thread>
#include <vector>

#include "common/aql_ring.h"
#include "common/engine_wake.h"
#include "common/signal.h"
#include "gpu/packet_processor.h"
#include "test_queue.h"
#include "world.h"

namespace rocref::prop {
namespace {

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
constexpr uint64_t kDefaultPackets = 20'000;
#else
constexpr uint64_t kDefaultPackets = 1'000'000;
#endif

uint64_t packet_count() {
  const char* env = std::getenv("ROCREF_STRESS_PACKETS");
  return env != nullptr ? std::strtoull(env, nullptr, 10) : kDefaultPackets;
}

struct Accounting {
  std::vector<uint64_t> next;  // per producer: the sequence number expected next
  uint64_t out_of_order = 0;
};

void stress(uint32_t producers, aql::DoorbellStore bell, uint64_t packets) {
  const uint64_t total = packets / producers * producers;
  const uint64_t start = 0 - total / 2;  // the run crosses 2^64
  testing::TestQueue queue(1024, start, start - 1);
  gpu::FlatMemory memory;
  Accounting seen;
  seen.next.assign(producers, 0);
  gpu::QueueBinding binding;
  binding.queue = queue.queue();
  binding.memory = &memory;
  binding.on_agent_dispatch = [&](const hsa_agent_dispatch_packet_t& p) {
    // AQL-RET-2: one producer's packets arrive in its order, each once.
    const uint64_t producer = p.arg[0], sequence = p.arg[1];
    if (producer >= seen.next.size() || seen.next[producer] != sequence) {
      ++seen.out_of_order;
      return false;  // a queue error stops the run: the test reports it
    }
    ++seen.next[producer];
    return true;
  };
  gpu::PacketProcessor processor(std::move(binding));
  TestSignal done(static_cast<int64_t>(total));

  std::atomic<bool> stop{false};
  // The engine thread spins briefly, then sleeps on a wake channel that doorbell stores
  // notify (AQL-DB-4): on a two-core machine a spinning engine starves the producers.
  WakeChannel channel;
  register_doorbell_listener(&channel);
  std::thread gpu_thread([&] {
    uint32_t idle = 0;
    while (!stop.load(std::memory_order_relaxed)) {
      if (processor.step().action != gpu::ProcessorAction::None) {
        idle = 0;
        continue;
      }
      if (++idle < 64) continue;
      channel.announce_sleep();
      if (processor.has_work() || stop.load(std::memory_order_relaxed)) {
        channel.cancel_sleep();
      } else {
        channel.sleep_for(std::chrono::milliseconds(1));
      }
      idle = 0;
    }
  });
  // A host thread updates the completion signal concurrently; AQL-SIG-2 must not lose its updates.
  std::thread host([&] {
    sig::Signal s(done.raw());
    for (int k = 0; k < 2000 && !stop.load(std::memory_order_relaxed); ++k) {
      s.add(1, MemoryOrder::AcqRel);
      s.subtract(1, MemoryOrder::AcqRel);
      std::this_thread::yield();
    }
  });

  const auto begin = std::chrono::steady_clock::now();
  std::vector<std::thread> threads;
  for (uint32_t p = 0; p < producers; ++p) {
    threads.emplace_back([&, p] {
      aql::QueueRing ring(queue.queue());
      hsa_agent_dispatch_packet_t packet{};
      packet.header = aql::make_header(HSA_PACKET_TYPE_AGENT_DISPATCH, false, HSA_FENCE_SCOPE_SYSTEM,
                                       HSA_FENCE_SCOPE_SYSTEM);
      packet.type = 1;
      packet.completion_signal = done.handle();
      packet.arg[0] = p;
      const aql::Reservation how = p % 2 == 0 ? aql::Reservation::FetchAdd : aql::Reservation::Cas;
      for (uint64_t k = 0; k < total / producers; ++k) {
        packet.arg[1] = k;
        ring.submit(&packet, how, bell);
      }
    });
  }
  for (auto& t : threads) t.join();
  const sig::WaitResult finished =
      sig::Signal(done.raw()).wait(HSA_SIGNAL_CONDITION_EQ, 0, std::chrono::seconds(120));
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count();
  stop.store(true);
  channel.notify();
  gpu_thread.join();
  host.join();
  unregister_doorbell_listener(&channel);

  EXPECT_TRUE(finished.satisfied) << "signal " << finished.value << " of " << total;
  EXPECT_FALSE(processor.in_error());
  EXPECT_EQ(seen.out_of_order, 0u);
  for (uint32_t p = 0; p < producers; ++p) EXPECT_EQ(seen.next[p], total / producers) << "producer " << p;
  EXPECT_EQ(processor.stats().completed, total);
  EXPECT_EQ(queue.ring().load_read_index(MemoryOrder::Acquire), start + total);
  std::printf("AqlStress: %u producers, %llu packets, %.3f s, %.0f packets/s\n", producers,
              static_cast<unsigned long long>(total), seconds, static_cast<double>(total) / seconds);
}

// covers: AQL-PUB-3, AQL-FEN-1, AQL-IDX-5, AQL-SIG-2
TEST(AqlStress, AQL_RET_2_MultiProducerStressAccountsForEveryPacket) {
  stress(3, aql::DoorbellStore::Max, packet_count());
}

TEST(AqlStress, TwoAndFourProducersWithPlainDoorbell) {
  stress(2, aql::DoorbellStore::Plain, packet_count() / 5);
  stress(4, aql::DoorbellStore::Plain, packet_count() / 5);
}

// A kernel's plain stores are visible to a host that saw the completion signal (release at
// completion, acquire in the wait); ThreadSanitizer checks the happens-before.
TEST(AqlProperty, AQL_FEN_1_HostSeesKernelEffectsAfterCompletion) {
  constexpr uint32_t kPackets = 200;
  World world(WorldOptions{16, 0, kPackets});
  std::atomic<bool> stop{false};
  std::thread gpu_thread([&] {
    while (!stop.load()) {
      if (world.processor().step().action == gpu::ProcessorAction::None) std::this_thread::yield();
    }
  });
  std::vector<uint64_t> effects(kPackets, 0);
  // Signals outlive the run: the processor may still read a signal after the waiter saw its decrement.
  std::vector<std::unique_ptr<TestSignal>> signals;
  for (uint32_t m = 0; m < kPackets; ++m) {
    TestSignal& done = *signals.emplace_back(std::make_unique<TestSignal>(1));
    hsa_kernel_dispatch_packet_t p = world.dispatch(m, false, done.handle());
    auto* record = static_cast<KernelRecord*>(p.kernarg_address);
    record->effect = &effects[m];  // set before the submit's release: the kernel sees it
    world.ring().submit(&p);
    const sig::WaitResult w = sig::Signal(done.raw()).wait(HSA_SIGNAL_CONDITION_EQ, 0, std::chrono::seconds(30));
    ASSERT_TRUE(w.satisfied);
    EXPECT_EQ(effects[m], m + 1) << "packet " << m << "'s kernel effect is not visible after completion";
  }
  stop.store(true);
  gpu_thread.join();
}

}  // namespace
}  // namespace rocref::prop
