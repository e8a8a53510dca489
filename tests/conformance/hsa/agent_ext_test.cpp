// tests/conformance/hsa/agent_ext_test.cpp - an agent's caches (HSA-AGENT-5), its coherency type
// (HSA-AGENT-6) and its HDP flush registers, as ROCR 5.2.3 reports them.
#include <string>
#include <vector>

#include "hsa_fixture.h"

namespace hsa_conformance {
namespace {

using HsaAgentExt = HsaTest;

std::vector<hsa_cache_t> caches_of(hsa_agent_t agent) {
  std::vector<hsa_cache_t> caches;
  EXPECT_EQ(HSA_STATUS_SUCCESS, hsa_agent_iterate_caches(
                                    agent,
                                    [](hsa_cache_t cache, void* data) {
                                      static_cast<std::vector<hsa_cache_t>*>(data)->push_back(cache);
                                      return HSA_STATUS_SUCCESS;
                                    },
                                    &caches));
  return caches;
}

// Each data cache the topology gives the agent: "<agent name> L<level>", its size in KiB as the KFD
// reports it (ROCR passes it on), and the name as a pointer to ROCR's string.
TEST_F(HsaAgentExt, HSA_AGENT_5_CachesAreTheTopologysDataCaches) {
  record_clause("HSA-AGENT-5");
  for (hsa_agent_t agent : {agents_.gpu, agents_.cpu}) {
    char agent_name[64] = {};
    ASSERT_EQ(HSA_STATUS_SUCCESS, hsa_agent_get_info(agent, HSA_AGENT_INFO_NAME, agent_name));
    uint32_t sizes[4] = {};
    ASSERT_EQ(HSA_STATUS_SUCCESS, hsa_agent_get_info(agent, HSA_AGENT_INFO_CACHE_SIZE, sizes));
    const std::vector<hsa_cache_t> caches = caches_of(agent);
    ASSERT_FALSE(caches.empty()) << agent_name;
    bool level_one = false;
    for (hsa_cache_t cache : caches) {
      uint32_t length = 0, size = 0;
      uint8_t level = 0;
      const char* name = nullptr;
      ASSERT_EQ(HSA_STATUS_SUCCESS, hsa_cache_get_info(cache, HSA_CACHE_INFO_NAME_LENGTH, &length));
      ASSERT_EQ(HSA_STATUS_SUCCESS, hsa_cache_get_info(cache, HSA_CACHE_INFO_NAME, &name));
      ASSERT_EQ(HSA_STATUS_SUCCESS, hsa_cache_get_info(cache, HSA_CACHE_INFO_LEVEL, &level));
      ASSERT_EQ(HSA_STATUS_SUCCESS, hsa_cache_get_info(cache, HSA_CACHE_INFO_SIZE, &size));
      ASSERT_NE(nullptr, name);
      EXPECT_EQ(std::string(agent_name) + " L" + std::to_string(level), std::string(name, length));
      ASSERT_GE(level, 1);
      ASSERT_LE(level, 4);
      EXPECT_GT(size, 0u);
      if (level == 1) {
        level_one = true;
        EXPECT_EQ(sizes[0], size * 1024) << agent_name << ": HSA_AGENT_INFO_CACHE_SIZE is in bytes";
      }
    }
    EXPECT_TRUE(level_one) << agent_name;
  }
  // Arguments, and the status the callback ends iteration with.
  EXPECT_EQ(HSA_STATUS_ERROR_INVALID_ARGUMENT, hsa_agent_iterate_caches(agents_.gpu, nullptr, nullptr));
  EXPECT_EQ(HSA_STATUS_INFO_BREAK, hsa_agent_iterate_caches(
                                       agents_.gpu, [](hsa_cache_t, void*) { return HSA_STATUS_INFO_BREAK; }, nullptr));
  uint8_t level = 0;
  EXPECT_EQ(HSA_STATUS_ERROR_INVALID_ARGUMENT,
            hsa_cache_get_info(caches_of(agents_.gpu).at(0), static_cast<hsa_cache_info_t>(99), &level));
}

// A discrete GPU starts non-coherent (ROCR's base-profile agent); the type set is the type read.
TEST_F(HsaAgentExt, HSA_AGENT_6_CoherencyTypeIsAGpusAndIsKept) {
  record_clause("HSA-AGENT-6");
  hsa_amd_coherency_type_t type = HSA_AMD_COHERENCY_TYPE_COHERENT;
  ASSERT_EQ(HSA_STATUS_SUCCESS, hsa_amd_coherency_get_type(agents_.gpu, &type));
  EXPECT_EQ(HSA_AMD_COHERENCY_TYPE_NONCOHERENT, type);
  ASSERT_EQ(HSA_STATUS_SUCCESS, hsa_amd_coherency_set_type(agents_.gpu, HSA_AMD_COHERENCY_TYPE_COHERENT));
  ASSERT_EQ(HSA_STATUS_SUCCESS, hsa_amd_coherency_get_type(agents_.gpu, &type));
  EXPECT_EQ(HSA_AMD_COHERENCY_TYPE_COHERENT, type);
  // Bad arguments change nothing.
  EXPECT_EQ(HSA_STATUS_ERROR_INVALID_ARGUMENT,
            hsa_amd_coherency_set_type(agents_.gpu, static_cast<hsa_amd_coherency_type_t>(5)));
  EXPECT_EQ(HSA_STATUS_ERROR_INVALID_AGENT,
            hsa_amd_coherency_set_type(agents_.cpu, HSA_AMD_COHERENCY_TYPE_NONCOHERENT));
  EXPECT_EQ(HSA_STATUS_ERROR_INVALID_AGENT, hsa_amd_coherency_get_type(agents_.cpu, &type));
  EXPECT_EQ(HSA_STATUS_ERROR_INVALID_ARGUMENT, hsa_amd_coherency_get_type(agents_.gpu, nullptr));
  ASSERT_EQ(HSA_STATUS_SUCCESS, hsa_amd_coherency_get_type(agents_.gpu, &type));
  EXPECT_EQ(HSA_AMD_COHERENCY_TYPE_COHERENT, type);
}

// The HDP flush registers are the GPU node's MMIO remap page, the register one word after the memory
// flush; a CPU agent has none.
TEST_F(HsaAgentExt, HSA_AGENT_1_HdpFlushRegistersAreTheMmioRemapPage) {
  record_clause("HSA-AGENT-1");
  hsa_amd_hdp_flush_t gpu{}, cpu{};
  ASSERT_EQ(HSA_STATUS_SUCCESS,
            hsa_agent_get_info(agents_.gpu, static_cast<hsa_agent_info_t>(HSA_AMD_AGENT_INFO_HDP_FLUSH), &gpu));
  ASSERT_EQ(HSA_STATUS_SUCCESS,
            hsa_agent_get_info(agents_.cpu, static_cast<hsa_agent_info_t>(HSA_AMD_AGENT_INFO_HDP_FLUSH), &cpu));
  ASSERT_NE(nullptr, gpu.HDP_MEM_FLUSH_CNTL);
  EXPECT_EQ(gpu.HDP_MEM_FLUSH_CNTL + 1, gpu.HDP_REG_FLUSH_CNTL);
  EXPECT_EQ(0u, reinterpret_cast<uintptr_t>(gpu.HDP_MEM_FLUSH_CNTL) % 4096);
  EXPECT_EQ(nullptr, cpu.HDP_MEM_FLUSH_CNTL);
  EXPECT_EQ(nullptr, cpu.HDP_REG_FLUSH_CNTL);
}

}  // namespace
}  // namespace hsa_conformance
