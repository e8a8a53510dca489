// tests/conformance/hsa/memory_sharing_test.cpp - host memory locked under a chosen system pool
// (HSA-LOCK-3), HSA 1.0's registration calls (HSA-MEM-9), and IPC and interop handles on a driver
// without sharing (HSA-IPC-1).
#include <cstdlib>
#include <vector>

#include "hsa_fixture.h"

namespace hsa_conformance {
namespace {

class HsaMemorySharing : public HsaTest {
 protected:
  void SetUp() override {
    HsaTest::SetUp();
    if (HasFatalFailure()) return;
    fine_ = find_pool(agents_.cpu, HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_FINE_GRAINED);
    coarse_ = find_pool(agents_.cpu, HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_COARSE_GRAINED);
    vram_ = find_pool(agents_.gpu, HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_COARSE_GRAINED);
    ASSERT_NE(0u, fine_.handle);
    ASSERT_NE(0u, coarse_.handle);
    ASSERT_NE(0u, vram_.handle);
    host_ = static_cast<uint8_t*>(std::aligned_alloc(4096, 3 * 4096));
    ASSERT_NE(nullptr, host_);
  }
  void TearDown() override {
    std::free(host_);
    HsaTest::TearDown();
  }
  // The pool flags pointer info reports for `p`, or 0 when it is not locked.
  uint32_t locked_flags(void* p) {
    hsa_amd_pointer_info_t info{};
    info.size = sizeof info;
    EXPECT_EQ(HSA_STATUS_SUCCESS, hsa_amd_pointer_info(p, &info, nullptr, nullptr, nullptr));
    return info.type == HSA_EXT_POINTER_TYPE_LOCKED ? info.global_flags : 0;
  }
  hsa_amd_memory_pool_t fine_{0}, coarse_{0}, vram_{0};
  uint8_t* host_ = nullptr;
};

// The lock takes the flags of the pool named: fine-grained memory is reported fine-grained, and the
// GPU reads it through the agent pointer.
TEST_F(HsaMemorySharing, HSA_LOCK_3_LockToPoolTakesThePoolsFlags) {
  record_clause("HSA-LOCK-3");
  for (size_t i = 0; i < 3 * 4096; ++i) host_[i] = static_cast<uint8_t>(i * 7 + 3);
  void* agent_ptr = nullptr;
  ASSERT_EQ(HSA_STATUS_SUCCESS, hsa_amd_memory_lock_to_pool(host_, 3 * 4096, &agents_.gpu, 1, fine_, 0, &agent_ptr));
  ASSERT_NE(nullptr, agent_ptr);
  EXPECT_EQ(uint32_t{HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_FINE_GRAINED}, locked_flags(host_ + 5000));
  void* device = nullptr;
  ASSERT_EQ(HSA_STATUS_SUCCESS, hsa_amd_memory_pool_allocate(vram_, 3 * 4096, 0, &device));
  hsa_signal_t done;
  ASSERT_EQ(HSA_STATUS_SUCCESS, hsa_signal_create(1, 0, nullptr, &done));
  ASSERT_EQ(HSA_STATUS_SUCCESS,
            hsa_amd_memory_async_copy(device, agents_.gpu, agent_ptr, agents_.gpu, 3 * 4096, 0, nullptr, done));
  EXPECT_EQ(0, hsa_signal_wait_scacquire(done, HSA_SIGNAL_CONDITION_LT, 1, UINT64_MAX, HSA_WAIT_STATE_BLOCKED));
  EXPECT_EQ(0, std::memcmp(device, host_, 3 * 4096));
  hsa_signal_destroy(done);
  hsa_amd_memory_pool_free(device);
  EXPECT_EQ(HSA_STATUS_SUCCESS, hsa_amd_memory_unlock(host_));
  EXPECT_EQ(0u, locked_flags(host_));
  ASSERT_EQ(HSA_STATUS_SUCCESS, hsa_amd_memory_lock_to_pool(host_, 4096, nullptr, 0, coarse_, 0, &agent_ptr));
  EXPECT_EQ(uint32_t{HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_COARSE_GRAINED}, locked_flags(host_));
  EXPECT_EQ(HSA_STATUS_SUCCESS, hsa_amd_memory_unlock(host_));
}

// Only a system pool, flags 0 and an agent list that agrees with its count; nothing is locked.
TEST_F(HsaMemorySharing, HSA_LOCK_3_BadArgumentsLockNothing) {
  record_clause("HSA-LOCK-3");
  void* agent_ptr = reinterpret_cast<void*>(1);
  EXPECT_EQ(HSA_STATUS_ERROR_INVALID_ARGUMENT,
            hsa_amd_memory_lock_to_pool(host_, 4096, nullptr, 0, fine_, 1, &agent_ptr));
  EXPECT_EQ(HSA_STATUS_ERROR_INVALID_ARGUMENT, hsa_amd_memory_lock_to_pool(host_, 0, nullptr, 0, fine_, 0, &agent_ptr));
  EXPECT_EQ(HSA_STATUS_ERROR_INVALID_ARGUMENT, hsa_amd_memory_lock_to_pool(host_, 4096, nullptr, 0, fine_, 0, nullptr));
  EXPECT_EQ(reinterpret_cast<void*>(1), agent_ptr) << "written before the first checks passed";
  EXPECT_EQ(HSA_STATUS_ERROR_INVALID_ARGUMENT,
            hsa_amd_memory_lock_to_pool(host_, 4096, nullptr, 1, fine_, 0, &agent_ptr));
  EXPECT_EQ(nullptr, agent_ptr);
  EXPECT_EQ(static_cast<hsa_status_t>(HSA_STATUS_ERROR_INVALID_MEMORY_POOL),
            hsa_amd_memory_lock_to_pool(host_, 4096, &agents_.gpu, 1, vram_, 0, &agent_ptr));
  EXPECT_EQ(static_cast<hsa_status_t>(HSA_STATUS_ERROR_INVALID_MEMORY_POOL),
            hsa_amd_memory_lock_to_pool(host_, 4096, &agents_.gpu, 1, hsa_amd_memory_pool_t{0}, 0, &agent_ptr));
  EXPECT_EQ(0u, locked_flags(host_));
}

TEST_F(HsaMemorySharing, HSA_MEM_9_RegisterAndAssignCheckOnly) {
  record_clause("HSA-MEM-9");
  EXPECT_EQ(HSA_STATUS_SUCCESS, hsa_memory_register(host_, 4096));
  EXPECT_EQ(0u, locked_flags(host_)) << "registration pinned nothing";
  EXPECT_EQ(HSA_STATUS_ERROR_INVALID_ARGUMENT, hsa_memory_register(host_, 0));
  EXPECT_EQ(HSA_STATUS_SUCCESS, hsa_memory_register(nullptr, 0));
  EXPECT_EQ(HSA_STATUS_SUCCESS, hsa_memory_deregister(host_, 4096));
  EXPECT_EQ(HSA_STATUS_SUCCESS, hsa_memory_assign_agent(host_, agents_.gpu, HSA_ACCESS_PERMISSION_RW));
  EXPECT_EQ(HSA_STATUS_ERROR_INVALID_ARGUMENT, hsa_memory_assign_agent(nullptr, agents_.gpu, HSA_ACCESS_PERMISSION_RW));
  EXPECT_EQ(HSA_STATUS_ERROR_INVALID_ARGUMENT,
            hsa_memory_assign_agent(host_, agents_.gpu, static_cast<hsa_access_permission_t>(9)));
}

// A whole allocation shares; attaching the handle (here in the same process, which ROCR allows)
// maps the same pages at another address; detach removes that mapping only.
TEST_F(HsaMemorySharing, HSA_IPC_1_AWholeAllocationSharesAndAttachesOverTheSamePages) {
  record_clause("HSA-IPC-1");
  void* device = nullptr;
  ASSERT_EQ(HSA_STATUS_SUCCESS, hsa_amd_memory_pool_allocate(vram_, 8192, 0, &device));
  ASSERT_EQ(HSA_STATUS_SUCCESS, hsa_amd_memory_fill(device, 0x0badf00du, 2048));
  hsa_amd_ipc_memory_t handle{};
  ASSERT_EQ(HSA_STATUS_SUCCESS, hsa_amd_ipc_memory_create(device, 8192, &handle));
  void* mapped = nullptr;
  ASSERT_EQ(HSA_STATUS_SUCCESS, hsa_amd_ipc_memory_attach(&handle, 8192, 1, &agents_.gpu, &mapped));
  ASSERT_NE(mapped, nullptr);
  EXPECT_NE(mapped, device);
  EXPECT_EQ(0x0badf00du, static_cast<uint32_t*>(mapped)[2047]) << "the attach reads the GPU's fill";
  static_cast<uint32_t*>(mapped)[5] = 0x600dcafeu;
  EXPECT_EQ(0x600dcafeu, static_cast<uint32_t*>(device)[5]) << "the attach is the allocation's pages";
  EXPECT_EQ(HSA_STATUS_SUCCESS, hsa_amd_ipc_memory_detach(mapped));
  hsa_amd_ipc_memory_t forged = handle;
  forged.handle[1] ^= 0x10;
  EXPECT_EQ(HSA_STATUS_ERROR_INVALID_ARGUMENT, hsa_amd_ipc_memory_attach(&forged, 8192, 0, nullptr, &mapped));
  EXPECT_EQ(HSA_STATUS_SUCCESS, hsa_amd_memory_pool_free(device));
}

// Part of an allocation is refused by the runtime, and interop with no buffer behind the handle
// is an error; nothing changes.
TEST_F(HsaMemorySharing, HSA_IPC_1_BadSharingAndInteropFailCleanly) {
  record_clause("HSA-IPC-1");
  void* device = nullptr;
  ASSERT_EQ(HSA_STATUS_SUCCESS, hsa_amd_memory_pool_allocate(vram_, 8192, 0, &device));
  hsa_amd_ipc_memory_t handle{};
  EXPECT_EQ(HSA_STATUS_ERROR_INVALID_ARGUMENT, hsa_amd_ipc_memory_create(device, 100, &handle));
  EXPECT_EQ(HSA_STATUS_ERROR_INVALID_ARGUMENT, hsa_amd_ipc_memory_create(nullptr, 8192, &handle));
  EXPECT_EQ(HSA_STATUS_ERROR_INVALID_ARGUMENT, hsa_amd_ipc_memory_detach(nullptr));
  size_t size = 0;
  void* ptr = nullptr;
  EXPECT_EQ(HSA_STATUS_ERROR, hsa_amd_interop_map_buffer(1, &agents_.gpu, -1, 0, &size, &ptr, nullptr, nullptr));
  EXPECT_EQ(HSA_STATUS_ERROR_INVALID_ARGUMENT,
            hsa_amd_interop_map_buffer(1, &agents_.gpu, -1, 1, &size, &ptr, nullptr, nullptr));
  EXPECT_EQ(HSA_STATUS_ERROR_INVALID_ARGUMENT,
            hsa_amd_interop_map_buffer(0, &agents_.gpu, -1, 0, &size, &ptr, nullptr, nullptr));
  EXPECT_EQ(HSA_STATUS_SUCCESS, hsa_amd_interop_unmap_buffer(nullptr));
  // The allocation is still whole and usable.
  EXPECT_EQ(HSA_STATUS_SUCCESS, hsa_amd_memory_fill(device, 0x01020304u, 2048));
  EXPECT_EQ(0x01020304u, static_cast<uint32_t*>(device)[2047]);
  EXPECT_EQ(HSA_STATUS_SUCCESS, hsa_amd_memory_pool_free(device));
}

}  // namespace
}  // namespace hsa_conformance
