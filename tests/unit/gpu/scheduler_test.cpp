// tests/unit/gpu/scheduler_test.cpp - engine scheduler: sleep, doorbell wake-up, poll, add/remove while running.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <memory>
#include <thread>
#include <vector>

#include "gpu/engine_scheduler.h"
#include "gpu/packet_processor.h"
#include "queue_fixture.h"

namespace rocref::gpu {
namespace {

using namespace std::chrono_literals;
using testing::dispatch_packet;
using testing::TestKernelObject;
using testing::TestQueue;
using testing::TestSignal;

std::atomic<uint32_t> g_runs{0};
void run_kernel(const void*) { g_runs.fetch_add(1, std::memory_order_relaxed); }
uint64_t run_id() {
  static const uint64_t id = kernel_abi::register_kernel("scheduler-run", &run_kernel);
  return id;
}

template <typename Predicate>
bool eventually(Predicate done, std::chrono::milliseconds limit = 20s) {
  const auto end = std::chrono::steady_clock::now() + limit;
  while (!done()) {
    if (std::chrono::steady_clock::now() > end) return false;
    std::this_thread::sleep_for(100us);
  }
  return true;
}

QueueBinding bind(TestQueue& q, MemoryAccess& memory) {
  QueueBinding b;
  b.queue = &q.queue;
  b.memory = &memory;
  return b;
}

TEST(EngineScheduler, RunOnceStepsEveryEngine) {
  EngineScheduler s;
  int a = 0, b = 0;
  s.add([&] { return ++a < 3; });
  const auto id = s.add([&] { return ++b < 0; });
  EXPECT_TRUE(s.run_once());
  EXPECT_TRUE(s.run_once());
  EXPECT_FALSE(s.run_once());
  EXPECT_EQ(a, 3);
  EXPECT_EQ(b, 3);
  s.remove(id);
  s.run_once();
  EXPECT_EQ(b, 3);
  EXPECT_EQ(s.engines(), 1u);
}

TEST(EngineScheduler, AQL_DB_4_DoorbellStoreWakesASleepingScheduler) {
  FlatMemory memory;
  TestQueue q;
  PacketProcessor p(bind(q, memory));
  TestKernelObject kernel(run_id());
  SchedulerOptions options;
  options.poll_interval = std::chrono::seconds(30);  // only a notify can end the sleep in time
  EngineScheduler s(options);
  s.add(p);
  s.start();
  ASSERT_TRUE(eventually([&] { return s.stats().sleeps >= 1; }));
  TestSignal done(1);
  const auto start = std::chrono::steady_clock::now();
  q.submit(dispatch_packet(kernel.address(), done.handle()));  // rings the doorbell, notifies listeners
  ASSERT_TRUE(eventually([&] { return done.value() == 0; }, 10s));
  EXPECT_LT(std::chrono::steady_clock::now() - start, 10s);
  EXPECT_GE(s.stats().wakeups, 1u);
  s.stop();
}

TEST(EngineScheduler, PollIntervalCatchesADoorbellStoreWithoutNotify) {
  FlatMemory memory;
  TestQueue q;
  PacketProcessor p(bind(q, memory));
  TestKernelObject kernel(run_id());
  SchedulerOptions options;
  options.poll_interval = 2ms;
  EngineScheduler s(options);
  s.add(p);
  s.start();
  ASSERT_TRUE(eventually([&] { return s.stats().sleeps >= 1; }));
  const uint64_t wakeups = s.stats().wakeups;
  // A foreign producer: body, header, doorbell store, and no notify.
  TestSignal done(1);
  auto packet = dispatch_packet(kernel.address(), done.handle());
  auto ring = q.ring();
  const uint64_t id = ring.reserve_fetch_add(1);
  ring.write_body(id, &packet);
  uint32_t word;
  std::memcpy(&word, &packet, sizeof word);
  ring.publish(id, word);
  std::atomic_ref<uint64_t>(q.doorbell_word).store(id, std::memory_order_release);
  ASSERT_TRUE(eventually([&] { return done.value() == 0; }));
  EXPECT_EQ(s.stats().wakeups, wakeups);  // found by polling, not woken
  s.stop();
}

TEST(EngineScheduler, SchedulerSleepsWhenIdle) {
  EngineScheduler s;
  std::atomic<uint64_t> calls{0};
  s.add([&] {
    calls.fetch_add(1, std::memory_order_relaxed);
    return false;
  });
  s.start();
  ASSERT_TRUE(eventually([&] { return s.stats().sleeps >= 3; }));
  s.stop();
  EXPECT_GT(calls.load(), 0u);
  EXPECT_FALSE(s.running());
  s.stop();  // idempotent
}

TEST(EngineScheduler, QueuesAddedAndRemovedWhileRunning) {
  FlatMemory memory;
  TestKernelObject kernel(run_id());
  EngineScheduler s;
  s.start();
  g_runs = 0;
  constexpr int kQueues = 20, kPackets = 50;
  for (int i = 0; i < kQueues; ++i) {
    auto q = std::make_unique<TestQueue>(8);
    auto p = std::make_unique<PacketProcessor>(bind(*q, memory));
    const auto id = s.add(*p);
    TestSignal done(kPackets);
    for (int k = 0; k < kPackets; ++k) q->submit(dispatch_packet(kernel.address(), done.handle()));
    ASSERT_TRUE(eventually([&] { return done.value() == 0; }));
    s.remove(id);
    // After remove() the processor is never stepped again: destroying it is safe.
    p.reset();
    q.reset();
  }
  EXPECT_EQ(g_runs.load(), uint32_t{kQueues * kPackets});
  EXPECT_EQ(s.engines(), 0u);
  s.stop();
}

TEST(EngineScheduler, EngineMayAddAndRemoveEnginesFromItsStep) {
  EngineScheduler s;
  std::atomic<int> child_steps{0};
  EngineScheduler::EngineId self = 0;
  bool added = false;
  self = s.add([&] {
    if (!added) {
      added = true;
      s.add([&] {
        child_steps.fetch_add(1);
        return false;
      });
      s.remove(self);
      return true;
    }
    return false;
  });
  s.start();
  ASSERT_TRUE(eventually([&] { return child_steps.load() > 2; }));
  s.stop();
  EXPECT_EQ(s.engines(), 1u);
}

TEST(EngineScheduler, StopFromAnEnginesStepEndsTheThreadWithoutDeadlock) {
  EngineScheduler s;
  std::atomic<int> steps{0};
  s.add([&] {
    if (steps.fetch_add(1) == 3) s.stop();
    return true;
  });
  s.start();
  ASSERT_TRUE(eventually([&] { return steps.load() >= 4; }));
  s.stop();  // joins the thread that already left its loop
  EXPECT_FALSE(s.running());
  const int after = steps.load();
  std::this_thread::sleep_for(5ms);
  EXPECT_EQ(steps.load(), after);
}

TEST(EngineScheduler, SpinModeProcessesPackets) {
  FlatMemory memory;
  TestQueue q;
  PacketProcessor p(bind(q, memory));
  TestKernelObject kernel(run_id());
  SchedulerOptions options;
  options.spin = true;
  EngineScheduler s(options);
  s.add(p);
  s.start();
  TestSignal done(100);
  for (int i = 0; i < 100; ++i) q.submit(dispatch_packet(kernel.address(), done.handle()));
  ASSERT_TRUE(eventually([&] { return done.value() == 0; }));
  s.stop();
  EXPECT_EQ(s.stats().sleeps, 0u);
}

TEST(EngineScheduler, MultiProducerStressThroughTheScheduler) {
  FlatMemory memory;
  TestQueue q(64);
  PacketProcessor p(bind(q, memory));
  TestKernelObject kernel(run_id());
  EngineScheduler s;
  s.add(p);
  s.start();
  g_runs = 0;
  constexpr int kProducers = 3, kEach = 2000;
  TestSignal done(kProducers * kEach);
  std::vector<std::thread> producers;
  for (int t = 0; t < kProducers; ++t) {
    producers.emplace_back([&] {
      for (int i = 0; i < kEach; ++i) q.submit(dispatch_packet(kernel.address(), done.handle()));
    });
  }
  for (auto& t : producers) t.join();
  ASSERT_TRUE(eventually([&] { return done.value() == 0; }));
  s.stop();
  EXPECT_EQ(g_runs.load(), uint32_t{kProducers * kEach});
  EXPECT_EQ(p.stats().completed, uint64_t{kProducers * kEach});
  EXPECT_FALSE(p.in_error());
}

}  // namespace
}  // namespace rocref::gpu
