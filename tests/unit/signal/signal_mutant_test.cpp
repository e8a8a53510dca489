// tests/unit/signal/signal_mutant_test.cpp - the signal mutants change behaviour (AQL-SIG-2, AQL-SIG-5).
#include <gtest/gtest.h>

#include "common/mutant.h"
#include "common/signal.h"

namespace rocref::sig {
namespace {

void count_wake(amd_signal_t*, void* context) { ++*static_cast<int*>(context); }

TEST(SignalMutant, CasWakesOnFailureFiresTheWakeHookForAFailedCas) {
  amd_signal_t raw{};
  raw.value = 7;
  int wakes = 0;
  Signal s(&raw, SignalHooks{&count_wake, nullptr, &wakes});
  s.cas(1, 2, MemoryOrder::AcqRel);
  EXPECT_EQ(wakes, 0);
  {
    ScopedMutant m(Mutant::CasWakesOnFailure);
    s.cas(1, 2, MemoryOrder::AcqRel);
    EXPECT_EQ(wakes, 1);  // ROCm/ROCR-Runtime#317
  }
  EXPECT_EQ(raw.value, 7);
}

int g_window = 0;
void concurrent_decrement(amd_signal_t* signal) {
  ++g_window;
  std::atomic_ref<int64_t>(const_cast<int64_t&>(signal->value)).fetch_sub(1);
}
uint64_t* identity(uint64_t va, void*) { return reinterpret_cast<uint64_t*>(va); }

TEST(SignalMutant, NonAtomicSignalDecrementLosesAnUpdateInItsWindow) {
  set_decrement_window_hook(&concurrent_decrement);
  amd_signal_t raw{};
  raw.value = 10;
  complete_signal(&raw, &identity, nullptr);
  EXPECT_EQ(g_window, 0);
  EXPECT_EQ(raw.value, 9);
  {
    ScopedMutant m(Mutant::NonAtomicSignalDecrement);
    complete_signal(&raw, &identity, nullptr);  // reads 9, window makes it 8, writes 8
    EXPECT_EQ(g_window, 1);
    EXPECT_EQ(raw.value, 8);  // two decrements, one lost
  }
  set_decrement_window_hook(nullptr);
}

}  // namespace
}  // namespace rocref::sig
