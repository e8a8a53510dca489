// tests/conformance/hsa/memory_notify_test.cpp - deallocation callbacks (HSA-MEM-10) and ROCR
// 5.2.3's answers to migration between pools (HSA-MEM-11).
#include <vector>

#include "hsa_fixture.h"

namespace hsa_conformance {
namespace {

class HsaMemoryNotify : public HsaTest {
 protected:
  void SetUp() override {
    HsaTest::SetUp();
    if (HasFatalFailure()) return;
    vram_ = find_pool(agents_.gpu, HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_COARSE_GRAINED);
    system_ = find_pool(agents_.cpu, HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_FINE_GRAINED);
    ASSERT_NE(0u, vram_.handle);
    ASSERT_NE(0u, system_.handle);
  }
  struct Call {
    void* ptr;
    void* data;
  };
  static void record(void* ptr, void* data) { calls().push_back({ptr, data}); }
  static void other(void* ptr, void* data) { calls().push_back({ptr, nullptr}); }
  static std::vector<Call>& calls() {
    static std::vector<Call> list;
    return list;
  }
  hsa_amd_memory_pool_t vram_{0}, system_{0};
};

// Freeing runs each callback registered on the allocation, with its pointer and data, once; a
// deregistered one does not run.
TEST_F(HsaMemoryNotify, HSA_MEM_10_FreeRunsTheAllocationsCallbacks) {
  record_clause("HSA-MEM-10");
  calls().clear();
  void* memory = nullptr;
  ASSERT_EQ(HSA_STATUS_SUCCESS, hsa_amd_memory_pool_allocate(vram_, 8192, 0, &memory));
  auto* inside = static_cast<char*>(memory) + 4096;
  int a = 0, b = 0;
  ASSERT_EQ(HSA_STATUS_SUCCESS, hsa_amd_register_deallocation_callback(memory, record, &a));
  ASSERT_EQ(HSA_STATUS_SUCCESS, hsa_amd_register_deallocation_callback(inside, record, &b));
  ASSERT_EQ(HSA_STATUS_SUCCESS, hsa_amd_register_deallocation_callback(inside, other, &b));
  ASSERT_EQ(HSA_STATUS_SUCCESS, hsa_amd_deregister_deallocation_callback(inside, other));
  EXPECT_EQ(HSA_STATUS_ERROR_INVALID_ARGUMENT, hsa_amd_deregister_deallocation_callback(inside, other));
  EXPECT_TRUE(calls().empty());
  ASSERT_EQ(HSA_STATUS_SUCCESS, hsa_amd_memory_pool_free(memory));
  ASSERT_EQ(2u, calls().size());
  EXPECT_EQ(memory, calls()[0].ptr);
  EXPECT_EQ(&a, calls()[0].data);
  EXPECT_EQ(inside, calls()[1].ptr);
  EXPECT_EQ(&b, calls()[1].data);
  // The next allocation at the same address starts with none.
  calls().clear();
  ASSERT_EQ(HSA_STATUS_SUCCESS, hsa_amd_memory_pool_allocate(vram_, 8192, 0, &memory));
  ASSERT_EQ(HSA_STATUS_SUCCESS, hsa_amd_memory_pool_free(memory));
  EXPECT_TRUE(calls().empty());
}

TEST_F(HsaMemoryNotify, HSA_MEM_10_CallbacksNeedAnAllocation) {
  record_clause("HSA-MEM-10");
  int local = 0;
  EXPECT_EQ(HSA_STATUS_ERROR_INVALID_ALLOCATION, hsa_amd_register_deallocation_callback(&local, record, nullptr));
  EXPECT_EQ(HSA_STATUS_ERROR_INVALID_ARGUMENT, hsa_amd_register_deallocation_callback(nullptr, record, nullptr));
  void* memory = nullptr;
  ASSERT_EQ(HSA_STATUS_SUCCESS, hsa_amd_memory_pool_allocate(system_, 4096, 0, &memory));
  EXPECT_EQ(HSA_STATUS_ERROR_INVALID_ARGUMENT, hsa_amd_register_deallocation_callback(memory, nullptr, nullptr));
  EXPECT_EQ(HSA_STATUS_ERROR_INVALID_ARGUMENT, hsa_amd_deregister_deallocation_callback(memory, record));
  EXPECT_EQ(HSA_STATUS_ERROR_INVALID_ARGUMENT, hsa_amd_deregister_deallocation_callback(&local, record));
  EXPECT_EQ(HSA_STATUS_SUCCESS, hsa_amd_memory_pool_free(memory));
}

// ROCR 5.2.3 migrates nothing: the checks, then OUT_OF_RESOURCES (and "no" for can-migrate).
TEST_F(HsaMemoryNotify, HSA_MEM_11_MigrationIsNotImplementedAsInRocr) {
  record_clause("HSA-MEM-11");
  void* memory = nullptr;
  ASSERT_EQ(HSA_STATUS_SUCCESS, hsa_amd_memory_pool_allocate(system_, 4096, 0, &memory));
  EXPECT_EQ(HSA_STATUS_ERROR_OUT_OF_RESOURCES, hsa_amd_memory_migrate(memory, vram_, 0));
  EXPECT_EQ(HSA_STATUS_ERROR_INVALID_ARGUMENT, hsa_amd_memory_migrate(memory, vram_, 1));
  EXPECT_EQ(HSA_STATUS_ERROR_INVALID_ARGUMENT, hsa_amd_memory_migrate(nullptr, vram_, 0));
  bool result = true;
  EXPECT_EQ(HSA_STATUS_ERROR_OUT_OF_RESOURCES, hsa_amd_memory_pool_can_migrate(system_, vram_, &result));
  EXPECT_FALSE(result);
  EXPECT_EQ(HSA_STATUS_ERROR_INVALID_ARGUMENT, hsa_amd_memory_pool_can_migrate(system_, vram_, nullptr));
  EXPECT_EQ(HSA_STATUS_SUCCESS, hsa_amd_memory_pool_free(memory));
}

}  // namespace
}  // namespace hsa_conformance
