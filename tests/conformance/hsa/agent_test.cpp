// tests/conformance/hsa/agent_test.cpp - agents: iteration, attributes, bad handles.
#include <cstring>
#include <string>

#include "hsa_fixture.h"

namespace hsa_conformance {
namespace {

using HsaAgent = HsaTest;

bool is_power_of_two(uint32_t v) { return v != 0 && (v & (v - 1)) == 0; }

TEST_F(HsaAgent, HSA_AGENT_1_GpuAgentAttributes) {
  record_clause("HSA-AGENT-1");
  const hsa_agent_t gpu = agents_.gpu;
  char name[64] = {};
  ASSERT_EQ(hsa_agent_get_info(gpu, HSA_AGENT_INFO_NAME, name), HSA_STATUS_SUCCESS);
  EXPECT_EQ(std::string(name).rfind("gfx", 0), 0u) << name;
  char vendor[64] = {};
  ASSERT_EQ(hsa_agent_get_info(gpu, HSA_AGENT_INFO_VENDOR_NAME, vendor), HSA_STATUS_SUCCESS);
  EXPECT_STREQ(vendor, "AMD");
  hsa_agent_feature_t feature;
  ASSERT_EQ(hsa_agent_get_info(gpu, HSA_AGENT_INFO_FEATURE, &feature), HSA_STATUS_SUCCESS);
  EXPECT_TRUE(feature & HSA_AGENT_FEATURE_KERNEL_DISPATCH);
  uint32_t min_size = 0, max_size = 0, wavefront = 0, wg_max = 0, queues_max = 0, node = UINT32_MAX;
  ASSERT_EQ(hsa_agent_get_info(gpu, HSA_AGENT_INFO_QUEUE_MIN_SIZE, &min_size), HSA_STATUS_SUCCESS);
  ASSERT_EQ(hsa_agent_get_info(gpu, HSA_AGENT_INFO_QUEUE_MAX_SIZE, &max_size), HSA_STATUS_SUCCESS);
  EXPECT_TRUE(is_power_of_two(min_size)) << min_size;
  EXPECT_TRUE(is_power_of_two(max_size)) << max_size;
  EXPECT_LE(min_size, max_size);
  ASSERT_EQ(hsa_agent_get_info(gpu, HSA_AGENT_INFO_QUEUES_MAX, &queues_max), HSA_STATUS_SUCCESS);
  EXPECT_GT(queues_max, 0u);
  ASSERT_EQ(hsa_agent_get_info(gpu, HSA_AGENT_INFO_WAVEFRONT_SIZE, &wavefront), HSA_STATUS_SUCCESS);
  EXPECT_TRUE(wavefront == 32 || wavefront == 64) << wavefront;
  ASSERT_EQ(hsa_agent_get_info(gpu, HSA_AGENT_INFO_WORKGROUP_MAX_SIZE, &wg_max), HSA_STATUS_SUCCESS);
  EXPECT_GE(wg_max, 256u);
  uint16_t wg_dims[3] = {};
  ASSERT_EQ(hsa_agent_get_info(gpu, HSA_AGENT_INFO_WORKGROUP_MAX_DIM, wg_dims), HSA_STATUS_SUCCESS);
  EXPECT_GE(wg_dims[0], 256);
  EXPECT_LE(wg_dims[0], wg_max);
  hsa_dim3_t grid{};
  ASSERT_EQ(hsa_agent_get_info(gpu, HSA_AGENT_INFO_GRID_MAX_DIM, &grid), HSA_STATUS_SUCCESS);
  EXPECT_GT(grid.x, 0u);
  uint32_t grid_max = 0;
  ASSERT_EQ(hsa_agent_get_info(gpu, HSA_AGENT_INFO_GRID_MAX_SIZE, &grid_max), HSA_STATUS_SUCCESS);
  EXPECT_GT(grid_max, 0u);
  hsa_queue_type32_t queue_type;
  ASSERT_EQ(hsa_agent_get_info(gpu, HSA_AGENT_INFO_QUEUE_TYPE, &queue_type), HSA_STATUS_SUCCESS);
  EXPECT_EQ(queue_type, HSA_QUEUE_TYPE_MULTI);
  ASSERT_EQ(hsa_agent_get_info(gpu, HSA_AGENT_INFO_NODE, &node), HSA_STATUS_SUCCESS);
  uint32_t cpu_node = UINT32_MAX;
  ASSERT_EQ(hsa_agent_get_info(agents_.cpu, HSA_AGENT_INFO_NODE, &cpu_node), HSA_STATUS_SUCCESS);
  EXPECT_NE(node, cpu_node);
  hsa_profile_t profile;
  ASSERT_EQ(hsa_agent_get_info(gpu, HSA_AGENT_INFO_PROFILE, &profile), HSA_STATUS_SUCCESS);
  EXPECT_EQ(profile, HSA_PROFILE_BASE);
  uint32_t cus = 0;
  ASSERT_EQ(hsa_agent_get_info(gpu, static_cast<hsa_agent_info_t>(HSA_AMD_AGENT_INFO_COMPUTE_UNIT_COUNT), &cus),
            HSA_STATUS_SUCCESS);
  EXPECT_GT(cus, 0u);
  hsa_isa_t isa{0};
  ASSERT_EQ(hsa_agent_get_info(gpu, HSA_AGENT_INFO_ISA, &isa), HSA_STATUS_SUCCESS);
  EXPECT_NE(isa.handle, 0u);
}

TEST_F(HsaAgent, HSA_AGENT_1_CpuAgentHasNoQueues) {
  record_clause("HSA-AGENT-1");
  hsa_device_type_t type;
  ASSERT_EQ(hsa_agent_get_info(agents_.cpu, HSA_AGENT_INFO_DEVICE, &type), HSA_STATUS_SUCCESS);
  EXPECT_EQ(type, HSA_DEVICE_TYPE_CPU);
  uint32_t queues_max = 1;
  ASSERT_EQ(hsa_agent_get_info(agents_.cpu, HSA_AGENT_INFO_QUEUES_MAX, &queues_max), HSA_STATUS_SUCCESS);
  EXPECT_EQ(queues_max, 0u);
  hsa_agent_feature_t feature;
  ASSERT_EQ(hsa_agent_get_info(agents_.cpu, HSA_AGENT_INFO_FEATURE, &feature), HSA_STATUS_SUCCESS);
  EXPECT_FALSE(feature & HSA_AGENT_FEATURE_KERNEL_DISPATCH);
}

// HSA-AGENT-1, as ROCR's CPU agent answers: named by the CPU's model name, vendor "CPU",
// no dispatch feature, full profile; data caches only (a unified L2 or L3 is left out); "XX" for
// a UUID the hardware does not give, and 2^WatchPointsTotalBits watch points.
TEST_F(HsaAgent, HSA_AGENT_1_CpuAgentIsRocrs) {
  record_clause("HSA-AGENT-1");
  char name[64] = {}, product[64] = {}, vendor[64] = {}, uuid[64] = {}, gpu_uuid[64] = {};
  ASSERT_EQ(hsa_agent_get_info(agents_.cpu, HSA_AGENT_INFO_NAME, name), HSA_STATUS_SUCCESS);
  ASSERT_EQ(hsa_agent_get_info(agents_.cpu, static_cast<hsa_agent_info_t>(HSA_AMD_AGENT_INFO_PRODUCT_NAME), product),
            HSA_STATUS_SUCCESS);
  // The machine's own model name (the model's CPU under rocref; ForeignRocminfo compares it with
  // ROCR's on the same machine).
  EXPECT_GT(std::strlen(name), 0u);
  EXPECT_STRNE(name, "CPU") << "a model name, not a placeholder";
  EXPECT_STREQ(name, product);
  ASSERT_EQ(hsa_agent_get_info(agents_.cpu, HSA_AGENT_INFO_VENDOR_NAME, vendor), HSA_STATUS_SUCCESS);
  EXPECT_STREQ(vendor, "CPU");
  hsa_agent_feature_t feature = HSA_AGENT_FEATURE_AGENT_DISPATCH;
  ASSERT_EQ(hsa_agent_get_info(agents_.cpu, HSA_AGENT_INFO_FEATURE, &feature), HSA_STATUS_SUCCESS);
  EXPECT_EQ(static_cast<uint32_t>(feature), 0u);
  hsa_profile_t profile = HSA_PROFILE_BASE;
  ASSERT_EQ(hsa_agent_get_info(agents_.cpu, HSA_AGENT_INFO_PROFILE, &profile), HSA_STATUS_SUCCESS);
  EXPECT_EQ(profile, HSA_PROFILE_FULL);
  bool f16 = true;
  ASSERT_EQ(hsa_agent_get_info(agents_.cpu, HSA_AGENT_INFO_FAST_F16_OPERATION, &f16), HSA_STATUS_SUCCESS);
  EXPECT_FALSE(f16);
  ASSERT_EQ(hsa_agent_get_info(agents_.gpu, HSA_AGENT_INFO_FAST_F16_OPERATION, &f16), HSA_STATUS_SUCCESS);
  EXPECT_TRUE(f16);
  uint32_t caches[4] = {};
  ASSERT_EQ(hsa_agent_get_info(agents_.cpu, HSA_AGENT_INFO_CACHE_SIZE, caches), HSA_STATUS_SUCCESS);
  EXPECT_GT(caches[0], 0u) << "the L1 data cache";
  ASSERT_EQ(hsa_agent_get_info(agents_.cpu, static_cast<hsa_agent_info_t>(HSA_AMD_AGENT_INFO_UUID), uuid),
            HSA_STATUS_SUCCESS);
  EXPECT_STREQ(uuid, "CPU-XX");
  ASSERT_EQ(hsa_agent_get_info(agents_.gpu, static_cast<hsa_agent_info_t>(HSA_AMD_AGENT_INFO_UUID), gpu_uuid),
            HSA_STATUS_SUCCESS);
  EXPECT_EQ(std::string(gpu_uuid).rfind("GPU-", 0), 0u) << gpu_uuid;
  uint32_t watch = 0;
  ASSERT_EQ(hsa_agent_get_info(agents_.gpu, static_cast<hsa_agent_info_t>(HSA_AMD_AGENT_INFO_MAX_ADDRESS_WATCH_POINTS),
                               &watch),
            HSA_STATUS_SUCCESS);
  EXPECT_GE(watch, 1u) << "2^WatchPointsTotalBits";
  char padded[32];
  std::memset(padded, 0x7f, sizeof padded);
  ASSERT_EQ(hsa_agent_get_info(agents_.cpu, static_cast<hsa_agent_info_t>(HSA_AMD_AGENT_INFO_UUID), padded),
            HSA_STATUS_SUCCESS);
  EXPECT_EQ(padded[std::strlen(padded) + 1], 0x7f) << "the UUID and its NUL, nothing past it";
  // Memory of a GPU only; GPU-only attributes are INVALID_ARGUMENT on the CPU agent.
  uint32_t width = 0, clock = 0;
  ASSERT_EQ(hsa_agent_get_info(agents_.gpu, static_cast<hsa_agent_info_t>(HSA_AMD_AGENT_INFO_MEMORY_WIDTH), &width),
            HSA_STATUS_SUCCESS);
  ASSERT_EQ(hsa_agent_get_info(agents_.gpu, static_cast<hsa_agent_info_t>(HSA_AMD_AGENT_INFO_MEMORY_MAX_FREQUENCY),
                               &clock),
            HSA_STATUS_SUCCESS);
  EXPECT_GT(width, 0u);
  EXPECT_GT(clock, 0u);
  for (const auto attribute :
       {HSA_AMD_AGENT_INFO_MEMORY_WIDTH, HSA_AMD_AGENT_INFO_MEMORY_MAX_FREQUENCY, HSA_AMD_AGENT_INFO_COOPERATIVE_QUEUES,
        HSA_AMD_AGENT_INFO_SVM_DIRECT_HOST_ACCESS, HSA_AMD_AGENT_INFO_COOPERATIVE_COMPUTE_UNIT_COUNT}) {
    uint64_t out = 0;
    EXPECT_EQ(hsa_agent_get_info(agents_.cpu, static_cast<hsa_agent_info_t>(attribute), &out),
              HSA_STATUS_ERROR_INVALID_ARGUMENT)
        << "attribute 0x" << std::hex << attribute;
  }
}

TEST_F(HsaAgent, HSA_AGENT_2_BadHandlesAndAttributesAreRejected) {
  record_clause("HSA-AGENT-2");
  char name[64] = {};
  EXPECT_EQ(hsa_agent_get_info(hsa_agent_t{0}, HSA_AGENT_INFO_NAME, name), HSA_STATUS_ERROR_INVALID_AGENT);
  hsa_agent_t bogus{agents_.gpu.handle + 8};
  EXPECT_EQ(hsa_agent_get_info(bogus, HSA_AGENT_INFO_NAME, name), HSA_STATUS_ERROR_INVALID_AGENT);
  EXPECT_EQ(hsa_agent_get_info(agents_.gpu, HSA_AGENT_INFO_NAME, nullptr), HSA_STATUS_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(hsa_agent_get_info(agents_.gpu, static_cast<hsa_agent_info_t>(0x6fff), name),
            HSA_STATUS_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(hsa_iterate_agents(nullptr, nullptr), HSA_STATUS_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(hsa_agent_iterate_regions(hsa_agent_t{0}, [](hsa_region_t, void*) { return HSA_STATUS_SUCCESS; },
                                      nullptr),
            HSA_STATUS_ERROR_INVALID_AGENT);
  EXPECT_EQ(hsa_amd_agent_iterate_memory_pools(bogus, [](hsa_amd_memory_pool_t, void*) { return HSA_STATUS_SUCCESS; },
                                               nullptr),
            HSA_STATUS_ERROR_INVALID_AGENT);
}

TEST_F(HsaAgent, HSA_AGENT_2_IterationStopsAtTheCallbacksStatus) {
  record_clause("HSA-AGENT-2");
  int calls = 0;
  EXPECT_EQ(hsa_iterate_agents(
                [](hsa_agent_t, void* data) {
                  ++*static_cast<int*>(data);
                  return HSA_STATUS_INFO_BREAK;
                },
                &calls),
            HSA_STATUS_INFO_BREAK);
  EXPECT_EQ(calls, 1);
  int all = 0;
  EXPECT_EQ(hsa_iterate_agents(
                [](hsa_agent_t, void* data) {
                  ++*static_cast<int*>(data);
                  return HSA_STATUS_SUCCESS;
                },
                &all),
            HSA_STATUS_SUCCESS);
  EXPECT_GE(all, 2);
}

}  // namespace
}  // namespace hsa_conformance
