// tests/conformance/hsa/multi_gpu_test.cpp - HSA-AGENT-3: one GPU agent per GPU node, each with its
// own VRAM pool, and peer access between them. Skipped on a machine of fewer than two GPUs; ctest
// hsa_conformance_2gpus runs it on the model with two (ROCREF_GPUS=2).
#include "multi_gpu.h"

namespace hsa_conformance {
namespace {

class HsaMultiGpu : public HsaTest {
 protected:
  void SetUp() override {
    HsaTest::SetUp();
    if (HasFatalFailure()) return;
    gpus_ = gpu_agents();
    if (gpus_.size() < 2) GTEST_SKIP() << "fewer than two GPU agents";
  }
  std::vector<hsa_agent_t> gpus_;
};

TEST_F(HsaMultiGpu, HSA_AGENT_3_EachGpuAgentHasItsNodeAndPool) {
  record_clause("HSA-AGENT-3");
  std::vector<uint32_t> nodes;
  std::vector<uint64_t> pools;
  for (hsa_agent_t gpu : gpus_) {
    uint32_t node = 0;
    ASSERT_EQ(hsa_agent_get_info(gpu, static_cast<hsa_agent_info_t>(HSA_AMD_AGENT_INFO_DRIVER_NODE_ID), &node),
              HSA_STATUS_SUCCESS);
    for (uint32_t other : nodes) EXPECT_NE(node, other);
    nodes.push_back(node);
    const hsa_amd_memory_pool_t vram = find_pool(gpu, HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_COARSE_GRAINED);
    ASSERT_NE(vram.handle, 0u);
    for (uint64_t other : pools) EXPECT_NE(vram.handle, other);
    pools.push_back(vram.handle);
    size_t size = 0;
    ASSERT_EQ(hsa_amd_memory_pool_get_info(vram, HSA_AMD_MEMORY_POOL_INFO_SIZE, &size), HSA_STATUS_SUCCESS);
    EXPECT_GT(size, 0u);
  }
}

TEST_F(HsaMultiGpu, HSA_AGENT_3_PeerCopyAfterAllowAccessMovesBytes) {
  record_clause("HSA-AGENT-3");
  EXPECT_TRUE(peer_copy_moves_bytes(agents_.cpu, gpus_[0], gpus_[1]));
  EXPECT_TRUE(peer_copy_moves_bytes(agents_.cpu, gpus_[1], gpus_[0]));
}

}  // namespace
}  // namespace hsa_conformance
