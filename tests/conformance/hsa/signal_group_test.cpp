// tests/conformance/hsa/signal_group_test.cpp - signal groups (HSA-SIG-8) and the value pointer of
// a signal without a driver event (HSA-SIG-9).
#include <thread>

#include "hsa_fixture.h"

namespace hsa_conformance {
namespace {

using HsaSignalGroup = HsaTest;

// The wait answers with the signal that met its condition, and its value.
TEST_F(HsaSignalGroup, HSA_SIG_8_WaitAnyNamesTheSatisfiedSignal) {
  record_clause("HSA-SIG-8");
  hsa_signal_t signals[3];
  for (hsa_signal_t& s : signals) ASSERT_EQ(HSA_STATUS_SUCCESS, hsa_signal_create(5, 0, nullptr, &s));
  hsa_signal_group_t group;
  ASSERT_EQ(HSA_STATUS_SUCCESS, hsa_signal_group_create(3, signals, 1, &agents_.cpu, &group));
  const hsa_signal_condition_t conditions[3] = {HSA_SIGNAL_CONDITION_EQ, HSA_SIGNAL_CONDITION_EQ,
                                                HSA_SIGNAL_CONDITION_LT};
  const hsa_signal_value_t values[3] = {0, 0, 2};
  std::thread setter([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    hsa_signal_store_screlease(signals[2], 1);
  });
  hsa_signal_t satisfied{0};
  hsa_signal_value_t value = -1;
  ASSERT_EQ(HSA_STATUS_SUCCESS,
            hsa_signal_group_wait_any_scacquire(group, conditions, values, HSA_WAIT_STATE_BLOCKED, &satisfied, &value));
  setter.join();
  EXPECT_EQ(signals[2].handle, satisfied.handle);
  EXPECT_EQ(1, value);
  hsa_signal_store_relaxed(signals[1], 0);
  ASSERT_EQ(HSA_STATUS_SUCCESS,
            hsa_signal_group_wait_any_relaxed(group, conditions, values, HSA_WAIT_STATE_ACTIVE, &satisfied, &value));
  EXPECT_EQ(signals[1].handle, satisfied.handle);
  EXPECT_EQ(0, value);
  EXPECT_EQ(HSA_STATUS_SUCCESS, hsa_signal_group_destroy(group));
  for (hsa_signal_t s : signals) hsa_signal_destroy(s);
}

TEST_F(HsaSignalGroup, HSA_SIG_8_CreationChecksItsSignalsAndConsumers) {
  record_clause("HSA-SIG-8");
  hsa_signal_t signal;
  ASSERT_EQ(HSA_STATUS_SUCCESS, hsa_signal_create(1, 0, nullptr, &signal));
  hsa_signal_group_t group{0};
  EXPECT_EQ(HSA_STATUS_ERROR_INVALID_ARGUMENT, hsa_signal_group_create(0, &signal, 0, nullptr, &group));
  const hsa_signal_t none[1] = {{0}};
  EXPECT_NE(HSA_STATUS_SUCCESS, hsa_signal_group_create(1, none, 0, nullptr, &group));
  EXPECT_EQ(0u, group.handle);
  ASSERT_EQ(HSA_STATUS_SUCCESS, hsa_signal_group_create(1, &signal, 0, nullptr, &group));
  EXPECT_EQ(HSA_STATUS_SUCCESS, hsa_signal_group_destroy(group));
  hsa_signal_destroy(signal);
}

// A signal created for the GPU only has no driver event: its value may be written directly, and a
// wait sees the value written there.
TEST_F(HsaSignalGroup, HSA_SIG_9_ValuePointerOfAGpuOnlySignal) {
  record_clause("HSA-SIG-9");
  hsa_signal_t signal;
  ASSERT_EQ(HSA_STATUS_SUCCESS, hsa_amd_signal_create(7, 0, nullptr, HSA_AMD_SIGNAL_AMD_GPU_ONLY, &signal));
  volatile hsa_signal_value_t* value = nullptr;
  ASSERT_EQ(HSA_STATUS_SUCCESS, hsa_amd_signal_value_pointer(signal, &value));
  ASSERT_NE(nullptr, value);
  EXPECT_EQ(7, *value);
  *value = 3;
  EXPECT_EQ(3, hsa_signal_load_scacquire(signal));
  hsa_signal_store_relaxed(signal, 9);
  EXPECT_EQ(9, *value);
  EXPECT_EQ(HSA_STATUS_ERROR_INVALID_ARGUMENT, hsa_amd_signal_value_pointer(signal, nullptr));
  hsa_signal_destroy(signal);
}

// A signal the host waits on sleeps on a driver event: no value pointer (ROCR's interrupt signal).
TEST_F(HsaSignalGroup, HSA_SIG_9_NoValuePointerForAnInterruptSignal) {
  record_clause("HSA-SIG-9");
  hsa_signal_t signal;
  ASSERT_EQ(HSA_STATUS_SUCCESS, hsa_signal_create(1, 0, nullptr, &signal));
  volatile hsa_signal_value_t* value = nullptr;
  EXPECT_EQ(HSA_STATUS_ERROR_INVALID_ARGUMENT, hsa_amd_signal_value_pointer(signal, &value));
  EXPECT_EQ(nullptr, value);
  hsa_signal_destroy(signal);
}

}  // namespace
}  // namespace hsa_conformance
