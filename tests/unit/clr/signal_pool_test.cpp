// tests/unit/clr/signal_pool_test.cpp - the signal pool: reuse after completion, reset
// before reuse, no reuse while an event or waiter holds the signal.
#include <gtest/gtest.h>

#include <atomic>
#include <mutex>
#include <thread>
#include <unordered_map>
#include <vector>

#include "clr/signal_pool.h"
#include "fake_signals.h"

namespace {

using clr_test::fake_ops;
using clr_test::FakeSignals;
using rocref::clr::SignalPool;

class SignalPoolTest : public ::testing::Test {
 protected:
  void SetUp() override { FakeSignals::instance().clear(); }
  FakeSignals& fake = FakeSignals::instance();
};

TEST_F(SignalPoolTest, ACompletedSignalIsReusedAndResetFirst) {
  SignalPool pool(fake_ops());
  hsa_signal_t s{0};
  bool reused = true;
  ASSERT_EQ(pool.acquire(1, &s, &reused), HSA_STATUS_SUCCESS);
  EXPECT_FALSE(reused);
  EXPECT_EQ(fake.value(s), 1);
  fake.set(s, 0);  // the GPU completed the command
  ASSERT_TRUE(pool.release(s));
  EXPECT_EQ(pool.free_signals(), 1u);
  hsa_signal_t t{0};
  ASSERT_EQ(pool.acquire(1, &t, &reused), HSA_STATUS_SUCCESS);
  EXPECT_TRUE(reused);
  EXPECT_EQ(t.handle, s.handle);
  EXPECT_EQ(fake.value(t), 1) << "reset before reuse";
  EXPECT_EQ(fake.created, 1u);
}

TEST_F(SignalPoolTest, AHeldSignalIsNotReused) {
  SignalPool pool(fake_ops());
  hsa_signal_t s{0};
  ASSERT_EQ(pool.acquire(1, &s), HSA_STATUS_SUCCESS);
  ASSERT_TRUE(pool.retain(s));  // an event recorded it
  fake.set(s, 0);
  ASSERT_TRUE(pool.release(s));  // the command completed
  EXPECT_EQ(pool.free_signals(), 0u);
  hsa_signal_t t{0};
  ASSERT_EQ(pool.acquire(1, &t), HSA_STATUS_SUCCESS);
  EXPECT_NE(t.handle, s.handle);
  EXPECT_EQ(fake.value(s), 0) << "the event still reads its completed value";
  ASSERT_TRUE(pool.release(s));  // the event let go
  EXPECT_EQ(pool.free_signals(), 1u);
  EXPECT_EQ(pool.held_signals(), 1u);
}

TEST_F(SignalPoolTest, ForeignSignalsAreLeftAlone) {
  SignalPool pool(fake_ops());
  const hsa_signal_t foreign{0xdead0};
  EXPECT_FALSE(pool.retain(foreign));
  EXPECT_FALSE(pool.release(foreign));
  EXPECT_FALSE(pool.owns(foreign));
  hsa_signal_t s{0};
  ASSERT_EQ(pool.acquire(1, &s), HSA_STATUS_SUCCESS);
  ASSERT_TRUE(pool.release(s));
  EXPECT_FALSE(pool.release(s)) << "no holder left";
  EXPECT_FALSE(pool.retain(s)) << "a free signal has no holder to share with";
}

TEST_F(SignalPoolTest, FreeSignalsBeyondKeepAreDestroyed) {
  SignalPool pool(fake_ops(), 2);
  std::vector<hsa_signal_t> s(4);
  for (auto& x : s) ASSERT_EQ(pool.acquire(1, &x), HSA_STATUS_SUCCESS);
  for (auto& x : s) ASSERT_TRUE(pool.release(x));
  EXPECT_EQ(pool.free_signals(), 2u);
  EXPECT_EQ(fake.destroyed, 2u);
  EXPECT_FALSE(fake.alive(s[2]));
  EXPECT_FALSE(fake.alive(s[3]));
}

TEST_F(SignalPoolTest, DestructionDestroysEverySignal) {
  {
    SignalPool pool(fake_ops());
    hsa_signal_t a{0}, b{0};
    ASSERT_EQ(pool.acquire(1, &a), HSA_STATUS_SUCCESS);
    ASSERT_EQ(pool.acquire(1, &b), HSA_STATUS_SUCCESS);
    ASSERT_TRUE(pool.release(a));
  }
  EXPECT_EQ(fake.created, 2u);
  EXPECT_EQ(fake.destroyed, 2u);
  EXPECT_TRUE(fake.values.empty());
}

TEST_F(SignalPoolTest, CreationFailureIsReported) {
  static const rocref::clr::SignalOps failing{
      [](hsa_signal_value_t, hsa_signal_t*) { return HSA_STATUS_ERROR_OUT_OF_RESOURCES; },
      [](hsa_signal_t, hsa_signal_value_t) {}, [](hsa_signal_t) {}};
  SignalPool pool(failing);
  hsa_signal_t s{0};
  EXPECT_EQ(pool.acquire(1, &s), HSA_STATUS_ERROR_OUT_OF_RESOURCES);
  EXPECT_EQ(pool.held_signals(), 0u);
}

// Streams, events and waiters on several threads share one pool (run under TSan by scripts/sanitize).
TEST_F(SignalPoolTest, ThreadsNeverShareAHeldSignal) {
  SignalPool pool(fake_ops(), 8);
  std::mutex owners_mutex;
  std::unordered_map<uint64_t, int> owners;  // handle -> thread holding it
  std::atomic<bool> clash{false};
  auto worker = [&](int id) {
    for (int i = 0; i < 2000; ++i) {
      hsa_signal_t s{0};
      ASSERT_EQ(pool.acquire(1, &s), HSA_STATUS_SUCCESS);
      {
        std::lock_guard lock(owners_mutex);
        if (!owners.emplace(s.handle, id).second) clash = true;
      }
      const bool extra = i % 3 == 0;
      if (extra) {
        pool.retain(s);   // a waiter
        pool.release(s);  // the command completed: still held by the waiter
      }
      {
        std::lock_guard lock(owners_mutex);
        owners.erase(s.handle);  // the last holder is about to give it back
      }
      pool.release(s);
    }
  };
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) threads.emplace_back(worker, t);
  for (auto& t : threads) t.join();
  EXPECT_FALSE(clash);
  EXPECT_EQ(pool.held_signals(), 0u);
}

}  // namespace
