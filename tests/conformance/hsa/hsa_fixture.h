// tests/conformance/hsa/hsa_fixture.h - shared set-up of the HSA conformance suite.
//
// Only the public hsa/hsa.h and hsa/hsa_ext_amd.h API: the suite builds against
// any implementation (ROCREF_HSA_IMPL_*). Each test names the clause it checks in
// its name (HSA_QUEUE_1_..., AQL_BAR_1_...) and as the "clause" property.
#pragma once

#include <hsa/hsa.h>
#include <hsa/hsa_ext_amd.h>

#include <gtest/gtest.h>

#include <atomic>
#include <cstdint>
#include <cstring>
#include <vector>

namespace hsa_conformance {

inline void record_clause(const char* clause) { ::testing::Test::RecordProperty("clause", clause); }

struct Agents {
  hsa_agent_t cpu{0};
  hsa_agent_t gpu{0};
};

inline Agents find_agents() {
  Agents agents;
  hsa_iterate_agents(
      [](hsa_agent_t agent, void* data) {
        auto* out = static_cast<Agents*>(data);
        hsa_device_type_t type;
        if (hsa_agent_get_info(agent, HSA_AGENT_INFO_DEVICE, &type) != HSA_STATUS_SUCCESS) return HSA_STATUS_ERROR;
        if (type == HSA_DEVICE_TYPE_CPU && out->cpu.handle == 0) out->cpu = agent;
        if (type == HSA_DEVICE_TYPE_GPU && out->gpu.handle == 0) out->gpu = agent;
        return HSA_STATUS_SUCCESS;
      },
      &agents);
  return agents;
}

struct PoolQuery {
  uint32_t want_flags;
  hsa_amd_memory_pool_t pool{0};
};

// The first global pool of `agent` whose flags include `flags`.
inline hsa_amd_memory_pool_t find_pool(hsa_agent_t agent, uint32_t flags) {
  PoolQuery query{flags};
  hsa_amd_agent_iterate_memory_pools(
      agent,
      [](hsa_amd_memory_pool_t pool, void* data) {
        auto* q = static_cast<PoolQuery*>(data);
        hsa_amd_segment_t segment;
        uint32_t pool_flags = 0;
        if (hsa_amd_memory_pool_get_info(pool, HSA_AMD_MEMORY_POOL_INFO_SEGMENT, &segment) != HSA_STATUS_SUCCESS ||
            segment != HSA_AMD_SEGMENT_GLOBAL)
          return HSA_STATUS_SUCCESS;
        hsa_amd_memory_pool_get_info(pool, HSA_AMD_MEMORY_POOL_INFO_GLOBAL_FLAGS, &pool_flags);
        if ((pool_flags & q->want_flags) == q->want_flags && q->pool.handle == 0) {
          q->pool = pool;
          return HSA_STATUS_INFO_BREAK;
        }
        return HSA_STATUS_SUCCESS;
      },
      &query);
  return query.pool;
}

// Runtime opened for the test, closed after it.
class HsaTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_EQ(hsa_init(), HSA_STATUS_SUCCESS);
    agents_ = find_agents();
    ASSERT_NE(agents_.cpu.handle, 0u) << "no CPU agent";
    ASSERT_NE(agents_.gpu.handle, 0u) << "no GPU agent";
    ASSERT_EQ(hsa_system_get_info(HSA_SYSTEM_INFO_TIMESTAMP_FREQUENCY, &frequency_), HSA_STATUS_SUCCESS);
    ASSERT_NE(frequency_, 0u);
  }
  void TearDown() override { EXPECT_EQ(hsa_shut_down(), HSA_STATUS_SUCCESS); }

  // A timeout hint of `ms` milliseconds in timestamp ticks.
  uint64_t ticks_ms(uint64_t ms) const { return frequency_ / 1000 * ms; }

  hsa_signal_t make_signal(hsa_signal_value_t value) {
    hsa_signal_t signal{0};
    EXPECT_EQ(hsa_signal_create(value, 0, nullptr, &signal), HSA_STATUS_SUCCESS);
    signals_.push_back(signal);
    return signal;
  }
  void destroy_signals() {
    for (hsa_signal_t s : signals_) hsa_signal_destroy(s);
    signals_.clear();
  }

  Agents agents_;
  uint64_t frequency_ = 0;
  std::vector<hsa_signal_t> signals_;
};

}  // namespace hsa_conformance
