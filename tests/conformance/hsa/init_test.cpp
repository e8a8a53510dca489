// tests/conformance/hsa/init_test.cpp - hsa_init / hsa_shut_down and system attributes.
#include "hsa_fixture.h"

namespace hsa_conformance {
namespace {

TEST(HsaInit, HSA_INIT_3_EveryCallBeforeInitReturnsNotInitialized) {
  record_clause("HSA-INIT-3");
  uint64_t value = 0;
  hsa_signal_t signal{0};
  hsa_queue_t* queue = nullptr;
  void* ptr = nullptr;
  uint32_t word = 0;
  hsa_agent_t agent{1};
  EXPECT_EQ(hsa_shut_down(), HSA_STATUS_ERROR_NOT_INITIALIZED);
  EXPECT_EQ(hsa_system_get_info(HSA_SYSTEM_INFO_TIMESTAMP, &value), HSA_STATUS_ERROR_NOT_INITIALIZED);
  EXPECT_EQ(hsa_iterate_agents([](hsa_agent_t, void*) { return HSA_STATUS_SUCCESS; }, nullptr),
            HSA_STATUS_ERROR_NOT_INITIALIZED);
  EXPECT_EQ(hsa_agent_get_info(agent, HSA_AGENT_INFO_NAME, &value), HSA_STATUS_ERROR_NOT_INITIALIZED);
  EXPECT_EQ(hsa_signal_create(1, 0, nullptr, &signal), HSA_STATUS_ERROR_NOT_INITIALIZED);
  EXPECT_EQ(hsa_amd_signal_create(1, 0, nullptr, 0, &signal), HSA_STATUS_ERROR_NOT_INITIALIZED);
  EXPECT_EQ(hsa_signal_destroy(signal), HSA_STATUS_ERROR_NOT_INITIALIZED);
  EXPECT_EQ(hsa_queue_create(agent, 64, HSA_QUEUE_TYPE_MULTI, nullptr, nullptr, UINT32_MAX, UINT32_MAX, &queue),
            HSA_STATUS_ERROR_NOT_INITIALIZED);
  EXPECT_EQ(hsa_memory_allocate(hsa_region_t{1}, 64, &ptr), HSA_STATUS_ERROR_NOT_INITIALIZED);
  EXPECT_EQ(hsa_amd_memory_pool_allocate(hsa_amd_memory_pool_t{1}, 64, 0, &ptr), HSA_STATUS_ERROR_NOT_INITIALIZED);
  EXPECT_EQ(hsa_memory_copy(&value, &word, sizeof word), HSA_STATUS_ERROR_NOT_INITIALIZED);
  EXPECT_EQ(hsa_amd_memory_fill(&word, 1, 1), HSA_STATUS_ERROR_NOT_INITIALIZED);
  EXPECT_EQ(word, 0u) << "a call before hsa_init changed memory";
  EXPECT_EQ(hsa_amd_agents_allow_access(1, &agent, nullptr, &word), HSA_STATUS_ERROR_NOT_INITIALIZED);
  hsa_amd_pointer_info_t info{};
  info.size = sizeof info;
  EXPECT_EQ(hsa_amd_pointer_info(&word, &info, nullptr, nullptr, nullptr), HSA_STATUS_ERROR_NOT_INITIALIZED);
  EXPECT_EQ(hsa_amd_pointer_info_set_userdata(&word, &value), HSA_STATUS_ERROR_NOT_INITIALIZED);
  void* agent_ptr = nullptr;
  EXPECT_EQ(hsa_amd_memory_lock(&word, sizeof word, nullptr, 0, &agent_ptr), HSA_STATUS_ERROR_NOT_INITIALIZED);
  EXPECT_EQ(hsa_amd_memory_unlock(&word), HSA_STATUS_ERROR_NOT_INITIALIZED);
}

TEST(HsaInit, HSA_INIT_1_InitIsReferenceCounted) {
  record_clause("HSA-INIT-1");
  ASSERT_EQ(hsa_init(), HSA_STATUS_SUCCESS);
  ASSERT_EQ(hsa_init(), HSA_STATUS_SUCCESS);
  EXPECT_EQ(hsa_shut_down(), HSA_STATUS_SUCCESS);
  uint16_t major = 0;
  EXPECT_EQ(hsa_system_get_info(HSA_SYSTEM_INFO_VERSION_MAJOR, &major), HSA_STATUS_SUCCESS)
      << "the runtime closed while one hsa_init was still outstanding";
  EXPECT_EQ(hsa_shut_down(), HSA_STATUS_SUCCESS);
  EXPECT_EQ(hsa_system_get_info(HSA_SYSTEM_INFO_VERSION_MAJOR, &major), HSA_STATUS_ERROR_NOT_INITIALIZED);
  EXPECT_EQ(hsa_shut_down(), HSA_STATUS_ERROR_NOT_INITIALIZED);
}

TEST(HsaInit, HSA_INIT_2_ReinitAfterShutDownGivesAFreshRuntime) {
  record_clause("HSA-INIT-2");
  ASSERT_EQ(hsa_init(), HSA_STATUS_SUCCESS);
  hsa_signal_t signal{0};
  ASSERT_EQ(hsa_signal_create(5, 0, nullptr, &signal), HSA_STATUS_SUCCESS);
  ASSERT_EQ(hsa_shut_down(), HSA_STATUS_SUCCESS);
  ASSERT_EQ(hsa_init(), HSA_STATUS_SUCCESS);
  const Agents agents = find_agents();
  EXPECT_NE(agents.gpu.handle, 0u);
  hsa_signal_t again{0};
  ASSERT_EQ(hsa_signal_create(7, 0, nullptr, &again), HSA_STATUS_SUCCESS);
  EXPECT_EQ(hsa_signal_load_scacquire(again), 7);
  EXPECT_EQ(hsa_signal_destroy(again), HSA_STATUS_SUCCESS);
  EXPECT_EQ(hsa_shut_down(), HSA_STATUS_SUCCESS);
}

using HsaSystem = HsaTest;

TEST_F(HsaSystem, HSA_SYS_1_SystemAttributes) {
  record_clause("HSA-SYS-1");
  uint16_t major = 0, minor = 0;
  ASSERT_EQ(hsa_system_get_info(HSA_SYSTEM_INFO_VERSION_MAJOR, &major), HSA_STATUS_SUCCESS);
  ASSERT_EQ(hsa_system_get_info(HSA_SYSTEM_INFO_VERSION_MINOR, &minor), HSA_STATUS_SUCCESS);
  EXPECT_EQ(major, 1);
  hsa_endianness_t endianness;
  ASSERT_EQ(hsa_system_get_info(HSA_SYSTEM_INFO_ENDIANNESS, &endianness), HSA_STATUS_SUCCESS);
  EXPECT_EQ(endianness, HSA_ENDIANNESS_LITTLE);
  hsa_machine_model_t model;
  ASSERT_EQ(hsa_system_get_info(HSA_SYSTEM_INFO_MACHINE_MODEL, &model), HSA_STATUS_SUCCESS);
  EXPECT_EQ(model, HSA_MACHINE_MODEL_LARGE);
  uint64_t max_wait = 0;
  ASSERT_EQ(hsa_system_get_info(HSA_SYSTEM_INFO_SIGNAL_MAX_WAIT, &max_wait), HSA_STATUS_SUCCESS);
  EXPECT_GT(max_wait, 0u);
  uint64_t value = 0;
  EXPECT_EQ(hsa_system_get_info(static_cast<hsa_system_info_t>(0x7777), &value), HSA_STATUS_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(hsa_system_get_info(HSA_SYSTEM_INFO_TIMESTAMP, nullptr), HSA_STATUS_ERROR_INVALID_ARGUMENT);
}

TEST_F(HsaSystem, HSA_SYS_2_TimestampAdvancesAtItsFrequency) {
  record_clause("HSA-SYS-2");
  uint64_t t0 = 0, t1 = 0;
  ASSERT_EQ(hsa_system_get_info(HSA_SYSTEM_INFO_TIMESTAMP, &t0), HSA_STATUS_SUCCESS);
  // A wait that must time out spans at least its hint on the same clock.
  hsa_signal_t signal = make_signal(1);
  hsa_signal_wait_scacquire(signal, HSA_SIGNAL_CONDITION_EQ, 0, ticks_ms(20), HSA_WAIT_STATE_ACTIVE);
  ASSERT_EQ(hsa_system_get_info(HSA_SYSTEM_INFO_TIMESTAMP, &t1), HSA_STATUS_SUCCESS);
  EXPECT_GE(t1 - t0, ticks_ms(20)) << "timeout hints and timestamps disagree about the clock";
  EXPECT_LT(t1 - t0, ticks_ms(20000));
}

TEST_F(HsaSystem, HSA_SYS_1_StatusStringNamesTheCode) {
  record_clause("HSA-SYS-1");
  const char* text = nullptr;
  ASSERT_EQ(hsa_status_string(HSA_STATUS_ERROR_INVALID_QUEUE_CREATION, &text), HSA_STATUS_SUCCESS);
  ASSERT_NE(text, nullptr);
  EXPECT_NE(std::strstr(text, "INVALID_QUEUE_CREATION"), nullptr) << text;
  EXPECT_EQ(hsa_status_string(HSA_STATUS_SUCCESS, nullptr), HSA_STATUS_ERROR_INVALID_ARGUMENT);
}

}  // namespace
}  // namespace hsa_conformance
