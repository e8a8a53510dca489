// tests/conformance/hsa/signal_test.cpp - signals: creation, every operation in every order, waits, handlers.
#include <chrono>
#include <thread>

#include "hsa_fixture.h"

namespace hsa_conformance {
namespace {

using HsaSignal = HsaTest;
using VoidOp = void (*)(hsa_signal_t, hsa_signal_value_t);
using ValueOp = hsa_signal_value_t (*)(hsa_signal_t, hsa_signal_value_t);
using CasOp = hsa_signal_value_t (*)(hsa_signal_t, hsa_signal_value_t, hsa_signal_value_t);
using LoadOp = hsa_signal_value_t (*)(hsa_signal_t);
using WaitOp = hsa_signal_value_t (*)(hsa_signal_t, hsa_signal_condition_t, hsa_signal_value_t, uint64_t,
                                      hsa_wait_state_t);

TEST_F(HsaSignal, HSA_SIG_6_CreateAndDestroyCheckTheirArguments) {
  record_clause("HSA-SIG-6");
  hsa_signal_t signal{0};
  EXPECT_EQ(hsa_signal_create(1, 0, nullptr, nullptr), HSA_STATUS_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(hsa_signal_create(1, 1, nullptr, &signal), HSA_STATUS_ERROR_INVALID_ARGUMENT);
  const hsa_agent_t twice[2] = {agents_.gpu, agents_.gpu};
  EXPECT_EQ(hsa_signal_create(1, 2, twice, &signal), HSA_STATUS_ERROR_INVALID_ARGUMENT);
  ASSERT_EQ(hsa_signal_create(42, 1, &agents_.gpu, &signal), HSA_STATUS_SUCCESS);
  EXPECT_NE(signal.handle, 0u);
  EXPECT_EQ(hsa_signal_load_relaxed(signal), 42);
  EXPECT_EQ(hsa_signal_destroy(signal), HSA_STATUS_SUCCESS);
  EXPECT_EQ(hsa_signal_destroy(hsa_signal_t{0}), HSA_STATUS_ERROR_INVALID_ARGUMENT) << "hsa.h: the handle is 0";
  EXPECT_EQ(hsa_signal_destroy(signal), HSA_STATUS_ERROR_INVALID_SIGNAL) << "double destroy accepted";
  EXPECT_EQ(hsa_amd_signal_create(1, 0, nullptr, 0, nullptr), HSA_STATUS_ERROR_INVALID_ARGUMENT);
  ASSERT_EQ(hsa_amd_signal_create(3, 0, nullptr, HSA_AMD_SIGNAL_AMD_GPU_ONLY, &signal), HSA_STATUS_SUCCESS);
  EXPECT_EQ(hsa_signal_load_scacquire(signal), 3);
  EXPECT_EQ(hsa_signal_destroy(signal), HSA_STATUS_SUCCESS);
}

TEST_F(HsaSignal, HSA_SIG_1_EveryReadModifyWriteInEveryOrder) {
  record_clause("HSA-SIG-1");
  hsa_signal_t s = make_signal(0);
  struct NamedVoid {
    const char* name;
    VoidOp op;
    hsa_signal_value_t start, operand, expected;
  };
  const NamedVoid void_ops[] = {
      {"add_scacq_screl", hsa_signal_add_scacq_screl, 5, 3, 8},
      {"add_acq_rel", hsa_signal_add_acq_rel, 5, 3, 8},
      {"add_scacquire", hsa_signal_add_scacquire, 5, 3, 8},
      {"add_acquire", hsa_signal_add_acquire, 5, 3, 8},
      {"add_relaxed", hsa_signal_add_relaxed, 5, 3, 8},
      {"add_screlease", hsa_signal_add_screlease, 5, 3, 8},
      {"add_release", hsa_signal_add_release, 5, 3, 8},
      {"subtract_scacq_screl", hsa_signal_subtract_scacq_screl, 5, 7, -2},
      {"subtract_acq_rel", hsa_signal_subtract_acq_rel, 5, 7, -2},
      {"subtract_scacquire", hsa_signal_subtract_scacquire, 5, 7, -2},
      {"subtract_acquire", hsa_signal_subtract_acquire, 5, 7, -2},
      {"subtract_relaxed", hsa_signal_subtract_relaxed, 5, 7, -2},
      {"subtract_screlease", hsa_signal_subtract_screlease, 5, 7, -2},
      {"subtract_release", hsa_signal_subtract_release, 5, 7, -2},
      {"and_scacq_screl", hsa_signal_and_scacq_screl, 0b1100, 0b1010, 0b1000},
      {"and_acq_rel", hsa_signal_and_acq_rel, 0b1100, 0b1010, 0b1000},
      {"and_scacquire", hsa_signal_and_scacquire, 0b1100, 0b1010, 0b1000},
      {"and_acquire", hsa_signal_and_acquire, 0b1100, 0b1010, 0b1000},
      {"and_relaxed", hsa_signal_and_relaxed, 0b1100, 0b1010, 0b1000},
      {"and_screlease", hsa_signal_and_screlease, 0b1100, 0b1010, 0b1000},
      {"and_release", hsa_signal_and_release, 0b1100, 0b1010, 0b1000},
      {"or_scacq_screl", hsa_signal_or_scacq_screl, 0b1100, 0b1010, 0b1110},
      {"or_acq_rel", hsa_signal_or_acq_rel, 0b1100, 0b1010, 0b1110},
      {"or_scacquire", hsa_signal_or_scacquire, 0b1100, 0b1010, 0b1110},
      {"or_acquire", hsa_signal_or_acquire, 0b1100, 0b1010, 0b1110},
      {"or_relaxed", hsa_signal_or_relaxed, 0b1100, 0b1010, 0b1110},
      {"or_screlease", hsa_signal_or_screlease, 0b1100, 0b1010, 0b1110},
      {"or_release", hsa_signal_or_release, 0b1100, 0b1010, 0b1110},
      {"xor_scacq_screl", hsa_signal_xor_scacq_screl, 0b1100, 0b1010, 0b0110},
      {"xor_acq_rel", hsa_signal_xor_acq_rel, 0b1100, 0b1010, 0b0110},
      {"xor_scacquire", hsa_signal_xor_scacquire, 0b1100, 0b1010, 0b0110},
      {"xor_acquire", hsa_signal_xor_acquire, 0b1100, 0b1010, 0b0110},
      {"xor_relaxed", hsa_signal_xor_relaxed, 0b1100, 0b1010, 0b0110},
      {"xor_screlease", hsa_signal_xor_screlease, 0b1100, 0b1010, 0b0110},
      {"xor_release", hsa_signal_xor_release, 0b1100, 0b1010, 0b0110},
  };
  for (const NamedVoid& op : void_ops) {
    hsa_signal_store_relaxed(s, op.start);
    op.op(s, op.operand);
    EXPECT_EQ(hsa_signal_load_relaxed(s), op.expected) << op.name;
  }
  struct NamedExchange {
    const char* name;
    ValueOp op;
  };
  const NamedExchange exchanges[] = {
      {"exchange_scacq_screl", hsa_signal_exchange_scacq_screl}, {"exchange_acq_rel", hsa_signal_exchange_acq_rel},
      {"exchange_scacquire", hsa_signal_exchange_scacquire},     {"exchange_acquire", hsa_signal_exchange_acquire},
      {"exchange_relaxed", hsa_signal_exchange_relaxed},         {"exchange_screlease", hsa_signal_exchange_screlease},
      {"exchange_release", hsa_signal_exchange_release},
  };
  for (const NamedExchange& op : exchanges) {
    hsa_signal_store_screlease(s, 11);
    EXPECT_EQ(op.op(s, -4), 11) << op.name << " returns the previous value";
    EXPECT_EQ(hsa_signal_load_scacquire(s), -4) << op.name;
  }
  struct NamedCas {
    const char* name;
    CasOp op;
  };
  const NamedCas cases[] = {
      {"cas_scacq_screl", hsa_signal_cas_scacq_screl}, {"cas_acq_rel", hsa_signal_cas_acq_rel},
      {"cas_scacquire", hsa_signal_cas_scacquire},     {"cas_acquire", hsa_signal_cas_acquire},
      {"cas_relaxed", hsa_signal_cas_relaxed},         {"cas_screlease", hsa_signal_cas_screlease},
      {"cas_release", hsa_signal_cas_release},
  };
  for (const NamedCas& op : cases) {
    hsa_signal_store_release(s, 9);
    EXPECT_EQ(op.op(s, 8, 100), 9) << op.name << " failed compare returns the observed value";
    EXPECT_EQ(hsa_signal_load_acquire(s), 9) << op.name << " failed compare changed the value";
    EXPECT_EQ(op.op(s, 9, 100), 9) << op.name;
    EXPECT_EQ(hsa_signal_load_relaxed(s), 100) << op.name;
  }
  hsa_signal_silent_store_relaxed(s, 77);
  EXPECT_EQ(hsa_signal_load_relaxed(s), 77);
  hsa_signal_silent_store_screlease(s, 78);
  EXPECT_EQ(hsa_signal_load_scacquire(s), 78);
  // 64-bit two's-complement arithmetic, as hardware atomics do it.
  hsa_signal_store_relaxed(s, INT64_MAX);
  hsa_signal_add_relaxed(s, 1);
  EXPECT_EQ(hsa_signal_load_relaxed(s), INT64_MIN);
}

TEST_F(HsaSignal, AQL_SIG_4_WaitReturnsAtOnceWhenTheConditionHolds) {
  record_clause("AQL-SIG-4");
  hsa_signal_t s = make_signal(5);
  const WaitOp waits[] = {hsa_signal_wait_scacquire, hsa_signal_wait_relaxed, hsa_signal_wait_acquire};
  for (WaitOp wait : waits) {
    for (hsa_wait_state_t state : {HSA_WAIT_STATE_BLOCKED, HSA_WAIT_STATE_ACTIVE}) {
      EXPECT_EQ(wait(s, HSA_SIGNAL_CONDITION_EQ, 5, UINT64_MAX, state), 5);
      EXPECT_EQ(wait(s, HSA_SIGNAL_CONDITION_NE, 4, UINT64_MAX, state), 5);
      EXPECT_EQ(wait(s, HSA_SIGNAL_CONDITION_LT, 6, UINT64_MAX, state), 5);
      EXPECT_EQ(wait(s, HSA_SIGNAL_CONDITION_GTE, 5, UINT64_MAX, state), 5);
    }
  }
}

TEST_F(HsaSignal, HSA_SIG_3_UnsatisfiedWaitEndsAtItsTimeoutHint) {
  record_clause("HSA-SIG-3");
  hsa_signal_t s = make_signal(5);
  for (hsa_wait_state_t state : {HSA_WAIT_STATE_BLOCKED, HSA_WAIT_STATE_ACTIVE}) {
    const auto start = std::chrono::steady_clock::now();
    EXPECT_EQ(hsa_signal_wait_scacquire(s, HSA_SIGNAL_CONDITION_EQ, 0, ticks_ms(30), state), 5);
    const auto waited = std::chrono::steady_clock::now() - start;
    EXPECT_GE(waited, std::chrono::milliseconds(25));
    EXPECT_LT(waited, std::chrono::seconds(10));
    EXPECT_EQ(hsa_signal_wait_relaxed(s, HSA_SIGNAL_CONDITION_LT, 5, ticks_ms(5), state), 5);
    EXPECT_EQ(hsa_signal_wait_relaxed(s, HSA_SIGNAL_CONDITION_GTE, 6, 0, state), 5);
  }
}

// A waiter sleeping in the driver is woken by a host store (HSA-SIG-4, HSA-SIG-5).
TEST_F(HsaSignal, HSA_SIG_4_BlockedWaiterWakesOnAHostStore) {
  record_clause("HSA-SIG-4");
  for (hsa_wait_state_t state : {HSA_WAIT_STATE_BLOCKED, HSA_WAIT_STATE_ACTIVE}) {
    hsa_signal_t s = make_signal(1);
    std::thread setter([s] {
      std::this_thread::sleep_for(std::chrono::milliseconds(30));
      hsa_signal_store_screlease(s, 0);
    });
    const auto start = std::chrono::steady_clock::now();
    EXPECT_EQ(hsa_signal_wait_scacquire(s, HSA_SIGNAL_CONDITION_EQ, 0, UINT64_MAX, state), 0);
    EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(10));
    setter.join();
  }
}

// The KFD has 4096 event slots; signals beyond them must still create and wake.
TEST_F(HsaSignal, HSA_SIG_4_MoreSignalsThanDriverEventsStillWork) {
  record_clause("HSA-SIG-4");
  std::vector<hsa_signal_t> many;
  for (int i = 0; i < 4200; ++i) {
    hsa_signal_t s{0};
    ASSERT_EQ(hsa_signal_create(1, 0, nullptr, &s), HSA_STATUS_SUCCESS) << "signal " << i;
    many.push_back(s);
  }
  hsa_signal_t last = many.back();
  std::thread setter([last] {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    hsa_signal_store_screlease(last, 0);
  });
  EXPECT_EQ(hsa_signal_wait_scacquire(last, HSA_SIGNAL_CONDITION_EQ, 0, UINT64_MAX, HSA_WAIT_STATE_BLOCKED), 0);
  setter.join();
  for (hsa_signal_t s : many) ASSERT_EQ(hsa_signal_destroy(s), HSA_STATUS_SUCCESS);
}

TEST_F(HsaSignal, HSA_SIG_5_ManyWaitersAllWakeOnOneStore) {
  record_clause("HSA-SIG-5");
  hsa_signal_t s = make_signal(1);
  std::atomic<int> woken{0};
  std::vector<std::thread> waiters;
  for (int i = 0; i < 4; ++i)
    waiters.emplace_back([&, s] {
      if (hsa_signal_wait_scacquire(s, HSA_SIGNAL_CONDITION_LT, 1, UINT64_MAX, HSA_WAIT_STATE_BLOCKED) < 1)
        woken.fetch_add(1);
    });
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  hsa_signal_subtract_screlease(s, 1);
  for (std::thread& t : waiters) t.join();
  EXPECT_EQ(woken.load(), 4);
}

struct HandlerLog {
  std::atomic<int> calls{0};
  std::atomic<hsa_signal_value_t> last{0};
  bool keep = false;
};

bool log_handler(hsa_signal_value_t value, void* arg) {
  auto* log = static_cast<HandlerLog*>(arg);
  log->last.store(value);
  log->calls.fetch_add(1);
  return log->keep;
}

TEST_F(HsaSignal, HSA_ASYNC_1_HandlerRunsOnceTheConditionHoldsAndStopsOnFalse) {
  record_clause("HSA-ASYNC-1");
  hsa_signal_t s = make_signal(3);
  HandlerLog log;
  ASSERT_EQ(hsa_amd_signal_async_handler(s, HSA_SIGNAL_CONDITION_LT, 2, log_handler, &log), HSA_STATUS_SUCCESS);
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  EXPECT_EQ(log.calls.load(), 0) << "handler ran before its condition held";
  hsa_signal_store_screlease(s, 1);
  for (int i = 0; i < 2000 && log.calls.load() == 0; ++i) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  ASSERT_EQ(log.calls.load(), 1);
  EXPECT_EQ(log.last.load(), 1);
  hsa_signal_store_screlease(s, 0);
  std::this_thread::sleep_for(std::chrono::milliseconds(30));
  EXPECT_EQ(log.calls.load(), 1) << "a handler that returned false ran again";
}

TEST_F(HsaSignal, HSA_ASYNC_1_BadRegistrationsAreRejected) {
  record_clause("HSA-ASYNC-1");
  hsa_signal_t s = make_signal(3);
  HandlerLog log;
  EXPECT_EQ(hsa_amd_signal_async_handler(hsa_signal_t{0}, HSA_SIGNAL_CONDITION_EQ, 0, log_handler, &log),
            HSA_STATUS_ERROR_INVALID_ARGUMENT);
  hsa_signal_t gone = make_signal(1);
  signals_.pop_back();
  ASSERT_EQ(hsa_signal_destroy(gone), HSA_STATUS_SUCCESS);
  EXPECT_EQ(hsa_amd_signal_async_handler(gone, HSA_SIGNAL_CONDITION_EQ, 0, log_handler, &log),
            HSA_STATUS_ERROR_INVALID_SIGNAL);
  EXPECT_EQ(hsa_amd_signal_async_handler(s, HSA_SIGNAL_CONDITION_EQ, 0, nullptr, &log),
            HSA_STATUS_ERROR_INVALID_ARGUMENT);
}

// ROCR 5.2.3 registers a condition past GTE without checking it; it never holds. A sentinel
// registered first (ROCR's event loop scans in registration order) and called twice proves
// that a whole round, the unknown registration included, was evaluated.
TEST_F(HsaSignal, HSA_ASYNC_1_ConditionPastGteIsRegisteredAndNeverHolds) {
  record_clause("HSA-ASYNC-1");
  hsa_signal_t gate = make_signal(0);
  hsa_signal_t s = make_signal(3);
  std::atomic<int> rounds{0};
  auto twice = [](hsa_signal_value_t, void* arg) { return static_cast<std::atomic<int>*>(arg)->fetch_add(1) < 1; };
  ASSERT_EQ(hsa_amd_signal_async_handler(gate, HSA_SIGNAL_CONDITION_EQ, 1, twice, &rounds), HSA_STATUS_SUCCESS);
  HandlerLog log;
  log.keep = true;
  const auto past_gte = static_cast<hsa_signal_condition_t>(HSA_SIGNAL_CONDITION_GTE + 1);
  ASSERT_EQ(hsa_amd_signal_async_handler(s, past_gte, 3, log_handler, &log), HSA_STATUS_SUCCESS)
      << "ROCR 5.2.3 does not check the condition";
  hsa_signal_store_screlease(gate, 1);
  for (int i = 0; i < 2000 && rounds.load() < 2; ++i) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  ASSERT_EQ(rounds.load(), 2);
  EXPECT_EQ(log.calls.load(), 0) << "a condition past GTE held (value 3, compare 3)";
}

TEST_F(HsaSignal, HSA_SIG_7_WaitAnyReturnsTheFirstSatisfiedIndex) {
  record_clause("HSA-SIG-7");
  hsa_signal_t signals[3] = {make_signal(1), make_signal(5), make_signal(9)};
  hsa_signal_condition_t conds[3] = {HSA_SIGNAL_CONDITION_EQ, HSA_SIGNAL_CONDITION_EQ, HSA_SIGNAL_CONDITION_LT};
  hsa_signal_value_t values[3] = {0, 0, 9};
  hsa_signal_value_t seen = -1;
  EXPECT_EQ(hsa_amd_signal_wait_any(3, signals, conds, values, ticks_ms(20), HSA_WAIT_STATE_BLOCKED, &seen),
            UINT32_MAX) << "no pair holds: the wait must time out";
  std::thread setter([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(30));
    hsa_signal_store_screlease(signals[1], 0);
  });
  EXPECT_EQ(hsa_amd_signal_wait_any(3, signals, conds, values, UINT64_MAX, HSA_WAIT_STATE_BLOCKED, &seen), 1u);
  EXPECT_EQ(seen, 0);
  setter.join();
  hsa_signal_store_relaxed(signals[2], 3);
  EXPECT_EQ(hsa_amd_signal_wait_any(3, signals, conds, values, UINT64_MAX, HSA_WAIT_STATE_ACTIVE, nullptr), 1u)
      << "the lowest satisfied index comes first";
}

TEST_F(HsaSignal, HSA_ASYNC_2_AsyncFunctionRunsOnce) {
  record_clause("HSA-ASYNC-2");
  std::atomic<int> runs{0};
  ASSERT_EQ(hsa_amd_async_function([](void* arg) { static_cast<std::atomic<int>*>(arg)->fetch_add(1); }, &runs),
            HSA_STATUS_SUCCESS);
  for (int i = 0; i < 2000 && runs.load() == 0; ++i) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  EXPECT_EQ(runs.load(), 1);
  EXPECT_EQ(hsa_amd_async_function(nullptr, nullptr), HSA_STATUS_ERROR_INVALID_ARGUMENT);
}

}  // namespace
}  // namespace hsa_conformance
