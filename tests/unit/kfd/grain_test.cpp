// tests/unit/kfd/grain_test.cpp - GPU-GRAIN-1 through the thunk and the KFD: the grain a GPU page
// gets comes from the allocation's flags (HsaMemFlags.CoarseGrain -> KFD_IOC_ALLOC_MEM_FLAGS_COHERENT
// -> the gfx900 MTYPE amdkfd writes into the PTE), the bits the adversarial GPU's L2 reads.
#include <hsakmt.h>

#include <gtest/gtest.h>

#include "gpu/vm/pte.h"
#include "kfd/kfd_device.h"
#include "kfd/kfd_mutant.h"

namespace rocref::kfd {
namespace {

class KfdGrain : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_EQ(hsaKmtOpenKFD(), HSAKMT_STATUS_SUCCESS);
    HsaSystemProperties sys{};
    ASSERT_EQ(hsaKmtAcquireSystemProperties(&sys), HSAKMT_STATUS_SUCCESS);
    for (uint32_t n = 0; n < sys.NumNodes; ++n) {
      HsaNodeProperties props{};
      ASSERT_EQ(hsaKmtGetNodeProperties(n, &props), HSAKMT_STATUS_SUCCESS);
      if (props.NumFComputeCores > 0) gpu_node = n;
    }
  }
  void TearDown() override {
    hsaKmtReleaseSystemProperties();
    hsaKmtCloseKFD();
  }

  // The MTYPE of the GPU page of a fresh, GPU-mapped allocation with these flags.
  uint64_t mtype(uint32_t node, bool coarse, bool vram) {
    HsaMemFlags f{};
    f.ui32.HostAccess = 1;
    f.ui32.PageSize = HSA_PAGE_SIZE_4KB;
    f.ui32.NonPaged = vram ? 1 : 0;
    f.ui32.CoarseGrain = coarse ? 1 : 0;
    void* mem = nullptr;
    EXPECT_EQ(hsaKmtAllocMemory(node, 4096, f, &mem), HSAKMT_STATUS_SUCCESS);
    if (mem == nullptr) return ~uint64_t{0};
    HSAuint64 gpu_va = 0;
    EXPECT_EQ(hsaKmtMapMemoryToGPU(mem, 4096, &gpu_va), HSAKMT_STATUS_SUCCESS);
    if (gpu_va == 0) gpu_va = reinterpret_cast<uintptr_t>(mem);  // not a userptr: GPU VA is the CPU VA
    const uint64_t pte = KfdDevice::instance().gpuvm_pte(gpu_va);
    EXPECT_NE(pte & gpu::vm::kPteValid, 0u) << "mapped " << mem << " at " << std::hex << gpu_va;
    hsaKmtUnmapMemoryToGPU(mem);
    hsaKmtFreeMemory(mem, 4096);
    return pte & gpu::vm::kPteMtypeMask;
  }

  // Coarse and fine allocations, system and device memory: true when each page's MTYPE is its grain's.
  bool grains_follow_the_flags() {
    return mtype(0, true, false) == gpu::vm::kPteMtypeNc && mtype(0, false, false) == gpu::vm::kPteMtypeUc &&
           mtype(gpu_node, true, true) == gpu::vm::kPteMtypeNc && mtype(gpu_node, false, true) == gpu::vm::kPteMtypeUc;
  }

  uint32_t gpu_node = 0;
};

TEST_F(KfdGrain, GPU_GRAIN_1_CoarseAllocationsAreCachedFineOnesAreNot) {
  EXPECT_EQ(mtype(0, true, false), gpu::vm::kPteMtypeNc) << "coarse system memory: MTYPE_NC";
  EXPECT_EQ(mtype(0, false, false), gpu::vm::kPteMtypeUc) << "fine system memory: MTYPE_UC";
  EXPECT_EQ(mtype(gpu_node, true, true), gpu::vm::kPteMtypeNc) << "coarse VRAM: MTYPE_NC";
  EXPECT_EQ(mtype(gpu_node, false, true), gpu::vm::kPteMtypeUc) << "fine VRAM: MTYPE_UC";
}

TEST_F(KfdGrain, GPU_GRAIN_1_CoherentFlagIgnoredIsCaught) {
  EXPECT_TRUE(grains_follow_the_flags());
  set_kfd_mutant(KfdMutant::CoherentMappedNc, true);
  const bool held = grains_follow_the_flags();
  set_kfd_mutant(KfdMutant::CoherentMappedNc, false);
  EXPECT_FALSE(held) << "a fine-grained allocation mapped MTYPE_NC went unnoticed";
}

}  // namespace
}  // namespace rocref::kfd
