// tests/unit/hsa/multi_gpu_mutant_test.cpp - HSA-AGENT-3 on a machine of two GPUs (ctest sets
// ROCREF_GPUS=2): a VRAM allocation is in its own GPU's VM only until hsa_amd_agents_allow_access
// names another GPU, then in both, read back from the KFD model's page tables per GPU (the model's
// blit kernels run natively on host addresses, so the peer copy's bytes alone cannot show a
// missing mapping). The planted HsaMutant::AllowAccessFirstGpuOnly is caught.
#include <gtest/gtest.h>

#include "gpu/vm/pte.h"
#include "hsa/hsa_mutant.h"
#include "kfd/kfd_device.h"
#include "multi_gpu.h"

namespace hsa_conformance {
namespace {

class HsaMultiGpuMutant : public HsaTest {
 protected:
  void SetUp() override {
    HsaTest::SetUp();
    if (HasFatalFailure()) return;
    gpus_ = gpu_agents();
    ASSERT_GE(gpus_.size(), 2u) << "run with ROCREF_GPUS=2";
  }
  // The KFD model's index of a GPU agent (node 1 + index).
  static uint32_t gpu_index(hsa_agent_t agent) {
    uint32_t node = 0;
    hsa_agent_get_info(agent, static_cast<hsa_agent_info_t>(HSA_AMD_AGENT_INFO_DRIVER_NODE_ID), &node);
    return node - 1;
  }
  static bool mapped(const void* p, hsa_agent_t agent) {
    return rocref::kfd::KfdDevice::instance().gpuvm_pte(reinterpret_cast<uintptr_t>(p), gpu_index(agent)) &
           rocref::gpu::vm::kPteValid;
  }
  // The peer copy from a to b; true when a's buffer was in a's VM only before allow_access and in
  // both after it, and the bytes arrived.
  bool peer_access_maps(hsa_agent_t a, hsa_agent_t b) {
    bool owner_only = false, both = false;
    const bool moved = peer_copy_moves_bytes(
        agents_.cpu, a, b, [&](const void* src) { owner_only = mapped(src, a) && !mapped(src, b); },
        [&](const void* src) { both = mapped(src, a) && mapped(src, b); });
    EXPECT_TRUE(owner_only) << "VRAM is mapped into its own GPU's VM only";
    return moved && owner_only && both;
  }
  std::vector<hsa_agent_t> gpus_;
};

TEST_F(HsaMultiGpuMutant, HSA_AGENT_3_AllowAccessMapsIntoEveryListedGpu) {
  EXPECT_TRUE(peer_access_maps(gpus_[0], gpus_[1]));
  EXPECT_TRUE(peer_access_maps(gpus_[1], gpus_[0]));
}

TEST_F(HsaMultiGpuMutant, AllowAccessFirstGpuOnlyIsCaught) {
  bool maps = false;
  {
    rocref::hsa::ScopedHsaMutant planted(rocref::hsa::HsaMutant::AllowAccessFirstGpuOnly);
    maps = peer_access_maps(gpus_[1], gpus_[0]);
  }
  EXPECT_FALSE(maps) << "the planted bug leaves the second GPU's VM without the buffer";
}

}  // namespace
}  // namespace hsa_conformance
