// tests/unit/signal/signal_test.cpp - HSA signal operations, waits and the GPU completion path.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <climits>
#include <thread>
#include <vector>

#include "common/signal.h"

namespace rocref::sig {
namespace {

using namespace std::chrono_literals;

constexpr MemoryOrder kOrders[] = {MemoryOrder::Relaxed, MemoryOrder::Acquire, MemoryOrder::Release,
                                   MemoryOrder::AcqRel};

struct Counts {
  int wakes = 0;
  int sleeps = 0;
};
void count_wake(amd_signal_t*, void* context) { ++static_cast<Counts*>(context)->wakes; }

amd_signal_t make_signal(int64_t value) {
  amd_signal_t s{};
  s.kind = AMD_SIGNAL_KIND_USER;
  s.value = value;
  return s;
}

TEST(Signal, AQL_SIG_1_EveryOperationInEveryOrderMatchesSequentialModel) {
  for (MemoryOrder order : kOrders) {
    SCOPED_TRACE(static_cast<int>(order));
    amd_signal_t raw = make_signal(0);
    Signal s(&raw);
    int64_t model = 0;
    s.store(10, order), model = 10;
    EXPECT_EQ(s.load(order), model);
    s.add(5, order), model += 5;
    s.subtract(7, order), model -= 7;
    s.bit_and(0b1100, order), model &= 0b1100;
    s.bit_or(0b0011, order), model |= 0b0011;
    s.bit_xor(0b0110, order), model ^= 0b0110;
    EXPECT_EQ(s.load(order), model);
    EXPECT_EQ(s.exchange(-3, order), model);
    model = -3;
    EXPECT_EQ(s.cas(-3, 42, order), -3);  // success returns expected
    model = 42;
    EXPECT_EQ(s.cas(0, 99, order), 42);   // failure returns what it saw, changes nothing
    EXPECT_EQ(s.load(order), model);
    EXPECT_EQ(raw.value, model);          // the value lives in amd_signal_t.value
  }
}

TEST(Signal, ArithmeticWrapsLikeTheHardware) {
  amd_signal_t raw = make_signal(INT64_MAX);
  Signal s(&raw);
  s.add(1, MemoryOrder::Relaxed);
  EXPECT_EQ(s.load(MemoryOrder::Relaxed), INT64_MIN);
  s.subtract(1, MemoryOrder::Relaxed);
  EXPECT_EQ(s.load(MemoryOrder::Relaxed), INT64_MAX);
}

TEST(Signal, EveryChangeWakesAndLoadsDoNot) {
  Counts counts;
  amd_signal_t raw = make_signal(0);
  Signal s(&raw, SignalHooks{&count_wake, nullptr, &counts});
  s.load(MemoryOrder::Acquire);
  EXPECT_EQ(counts.wakes, 0);
  s.store(1, MemoryOrder::Release);
  s.add(1, MemoryOrder::Relaxed);
  s.subtract(1, MemoryOrder::Relaxed);
  s.bit_and(1, MemoryOrder::Relaxed);
  s.bit_or(1, MemoryOrder::Relaxed);
  s.bit_xor(1, MemoryOrder::Relaxed);
  s.exchange(5, MemoryOrder::AcqRel);
  EXPECT_EQ(counts.wakes, 7);
}

TEST(Signal, AQL_SIG_5_FailedCasChangesNothingAndWakesNoWaiter) {
  Counts counts;
  amd_signal_t raw = make_signal(7);
  Signal s(&raw, SignalHooks{&count_wake, nullptr, &counts});
  EXPECT_EQ(s.cas(1, 2, MemoryOrder::AcqRel), 7);
  EXPECT_EQ(counts.wakes, 0);
  EXPECT_EQ(raw.value, 7);
  EXPECT_EQ(s.cas(7, 2, MemoryOrder::AcqRel), 7);
  EXPECT_EQ(counts.wakes, 1);
  EXPECT_EQ(raw.value, 2);
}

TEST(Signal, AQL_SIG_4_ConditionTable) {
  EXPECT_TRUE(condition_holds(HSA_SIGNAL_CONDITION_EQ, 3, 3));
  EXPECT_FALSE(condition_holds(HSA_SIGNAL_CONDITION_EQ, 3, 4));
  EXPECT_TRUE(condition_holds(HSA_SIGNAL_CONDITION_NE, 3, 4));
  EXPECT_FALSE(condition_holds(HSA_SIGNAL_CONDITION_NE, 4, 4));
  EXPECT_TRUE(condition_holds(HSA_SIGNAL_CONDITION_LT, -1, 0));
  EXPECT_FALSE(condition_holds(HSA_SIGNAL_CONDITION_LT, 0, 0));
  EXPECT_TRUE(condition_holds(HSA_SIGNAL_CONDITION_GTE, 0, 0));
  EXPECT_FALSE(condition_holds(HSA_SIGNAL_CONDITION_GTE, -1, 0));
  EXPECT_FALSE(condition_holds(static_cast<hsa_signal_condition_t>(4), 0, 0));
  EXPECT_TRUE(is_valid_condition(HSA_SIGNAL_CONDITION_GTE));
  EXPECT_FALSE(is_valid_condition(4));
}

TEST(Signal, AQL_SIG_4_WaitReturnsAtOnceWhenTheConditionHolds) {
  amd_signal_t raw = make_signal(5);
  Signal s(&raw);
  for (auto [cond, compare] : {std::pair{HSA_SIGNAL_CONDITION_EQ, 5}, {HSA_SIGNAL_CONDITION_NE, 4},
                               {HSA_SIGNAL_CONDITION_LT, 6}, {HSA_SIGNAL_CONDITION_GTE, 5}}) {
    for (MemoryOrder order : {MemoryOrder::Relaxed, MemoryOrder::Acquire}) {
      const WaitResult r = s.wait(cond, compare, 0ns, order);
      EXPECT_TRUE(r.satisfied) << cond;
      EXPECT_EQ(r.value, 5);
    }
  }
}

TEST(Signal, AQL_SIG_4_WaitTimesOutWithTheObservedValue) {
  amd_signal_t raw = make_signal(5);
  Signal s(&raw);
  for (auto cond : {HSA_SIGNAL_CONDITION_EQ, HSA_SIGNAL_CONDITION_NE, HSA_SIGNAL_CONDITION_LT,
                    HSA_SIGNAL_CONDITION_GTE}) {
    const int64_t compare = cond == HSA_SIGNAL_CONDITION_NE ? 5 : cond == HSA_SIGNAL_CONDITION_GTE ? 6 : 0;
    const auto start = std::chrono::steady_clock::now();
    const WaitResult r = s.wait(cond, compare, 3ms);
    EXPECT_FALSE(r.satisfied) << cond;
    EXPECT_EQ(r.value, 5);
    EXPECT_GE(std::chrono::steady_clock::now() - start, 3ms);
  }
}

TEST(Signal, WaitWithAnInvalidConditionReturnsUnsatisfiedAtOnce) {
  amd_signal_t raw = make_signal(0);
  Signal s(&raw);
  const WaitResult r = s.wait(static_cast<hsa_signal_condition_t>(9), 0, std::chrono::nanoseconds::max());
  EXPECT_FALSE(r.satisfied);
}

TEST(Signal, AQL_SIG_4_WaitSeesAnotherThreadsStoreWithAnInfiniteTimeout) {
  amd_signal_t raw = make_signal(1);
  std::thread setter([&] {
    std::this_thread::sleep_for(2ms);
    Signal(&raw).store(0, MemoryOrder::Release);
  });
  const WaitResult r = Signal(&raw).wait(HSA_SIGNAL_CONDITION_EQ, 0, std::chrono::nanoseconds::max());
  setter.join();
  EXPECT_TRUE(r.satisfied);
  EXPECT_EQ(r.value, 0);
}

// A sleep hook standing in for the KFD's WAIT_EVENTS: counts, then sleeps out the timeout it was given.
void nap(amd_signal_t*, int64_t, std::chrono::nanoseconds timeout, void* context) {
  ++static_cast<Counts*>(context)->sleeps;
  std::this_thread::sleep_for(timeout);
}

// The same, and on its second nap the "GPU" completes the signal.
void nap_then_complete(amd_signal_t* signal, int64_t, std::chrono::nanoseconds, void* context) {
  if (++static_cast<Counts*>(context)->sleeps == 2) Signal(signal).store(0, MemoryOrder::Release);
}

TEST(Signal, LongWaitsSleepThroughTheHookAndStillTimeOut) {
  Counts counts;
  amd_signal_t raw = make_signal(1);
  Signal s(&raw, SignalHooks{nullptr, &nap, &counts});
  // Long enough that the spin and yield phases (a few hundred checks) end
  // before it on a loaded machine; the hook then sleeps out the rest.
  const WaitResult r = s.wait(HSA_SIGNAL_CONDITION_EQ, 0, 1s);
  EXPECT_FALSE(r.satisfied);
  EXPECT_GE(counts.sleeps, 1);
  // The value changes only while the waiter sleeps (as an interrupt would wake
  // it): the wait must go back to checking the condition after the hook.
  counts.sleeps = 0;
  Signal woken(&raw, SignalHooks{nullptr, &nap_then_complete, &counts});
  EXPECT_TRUE(woken.wait(HSA_SIGNAL_CONDITION_EQ, 0, 10s).satisfied);
  EXPECT_EQ(counts.sleeps, 2);
}

uint64_t* identity(uint64_t va, void*) { return reinterpret_cast<uint64_t*>(va); }
uint64_t* refuse(uint64_t, void*) { return nullptr; }

TEST(Signal, AQL_SIG_2_CompletionDecrementsWithoutMailbox) {
  amd_signal_t raw = make_signal(3);
  const CompletionOutcome out = complete_signal(&raw, &identity, nullptr);
  EXPECT_EQ(out.value_after, 2);
  EXPECT_EQ(raw.value, 2);
  EXPECT_FALSE(out.interrupt);
  EXPECT_FALSE(out.mailbox_fault);
}

TEST(Signal, AQL_SIG_3_CompletionWritesEventIdToTheMailbox) {
  alignas(8) uint64_t mailbox = ~0ull;
  amd_signal_t raw = make_signal(1);
  raw.event_mailbox_ptr = reinterpret_cast<uint64_t>(&mailbox);
  raw.event_id = 12;
  const CompletionOutcome out = complete_signal(&raw, &identity, nullptr);
  EXPECT_EQ(out.value_after, 0);
  EXPECT_TRUE(out.interrupt);
  EXPECT_EQ(out.event_id, 12u);
  EXPECT_EQ(mailbox, 12u);
}

TEST(Signal, UntranslatableMailboxIsReportedAndNothingIsWritten) {
  alignas(8) uint64_t mailbox = ~0ull;
  amd_signal_t raw = make_signal(1);
  raw.event_mailbox_ptr = reinterpret_cast<uint64_t>(&mailbox);
  for (MailboxTranslate t : {&refuse, static_cast<MailboxTranslate>(nullptr)}) {
    const CompletionOutcome out = complete_signal(&raw, t, nullptr);
    EXPECT_TRUE(out.mailbox_fault);
    EXPECT_FALSE(out.interrupt);
    EXPECT_EQ(mailbox, ~0ull);
  }
  EXPECT_EQ(raw.value, -1);  // the decrement itself happened both times
}

TEST(Signal, AQL_SIG_2_ConcurrentCompletionsLoseNoDecrement) {
#if defined(__SANITIZE_THREAD__) || defined(__SANITIZE_ADDRESS__)
  constexpr int kEach = 20000;
#else
  constexpr int kEach = 200000;
#endif
  amd_signal_t raw = make_signal(2 * kEach);
  auto work = [&] {
    for (int i = 0; i < kEach; ++i) complete_signal(&raw, &identity, nullptr);
  };
  std::thread a(work), b(work);
  a.join();
  b.join();
  EXPECT_EQ(raw.value, 0);
}

}  // namespace
}  // namespace rocref::sig
