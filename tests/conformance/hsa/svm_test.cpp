// tests/conformance/hsa/svm_test.cpp - SVM attributes and prefetch over the KFD's SVM ranges (HSA-SVM-*).
#include "async_checks.h"
#include "hsa_fixture.h"

namespace hsa_conformance {
namespace {

class HsaSvm : public HsaTest {};

using Pair = hsa_amd_svm_attribute_pair_t;

// HSA-SVM-1: every settable attribute reads back as set (granularity capped at 18, the flags'
// bits, agents by handle, the null agent for no preferred location); the system reports SVM.
TEST_F(HsaSvm, HSA_SVM_1_AttributesSetAreReadBack) {
  record_clause("HSA-SVM-1");
  bool supported = false;
  ASSERT_EQ(hsa_system_get_info(static_cast<hsa_system_info_t>(HSA_AMD_SYSTEM_INFO_SVM_SUPPORTED), &supported),
            HSA_STATUS_SUCCESS);
  EXPECT_TRUE(supported);
  SvmPages pages(4);
  ASSERT_NE(pages.base, nullptr);
  EXPECT_TRUE(svm_memory_model_round_trips());
  Pair set[] = {{HSA_AMD_SVM_ATTRIB_GLOBAL_FLAG, HSA_AMD_SVM_GLOBAL_FLAG_COARSE_GRAINED},
                {HSA_AMD_SVM_ATTRIB_READ_ONLY, 1},
                {HSA_AMD_SVM_ATTRIB_READ_MOSTLY, 1},
                {HSA_AMD_SVM_ATTRIB_MIGRATION_GRANULARITY, 30},
                {HSA_AMD_SVM_ATTRIB_PREFERRED_LOCATION, agents_.gpu.handle},
                {HSA_AMD_SVM_ATTRIB_AGENT_ACCESSIBLE, agents_.gpu.handle},
                {HSA_AMD_SVM_ATTRIB_AGENT_ACCESSIBLE, agents_.cpu.handle}};
  // Not page aligned: the call covers the whole pages around [ptr, ptr + size).
  ASSERT_EQ(hsa_amd_svm_attributes_set(static_cast<uint8_t*>(pages.base) + 100, pages.bytes - 200, set, 7),
            HSA_STATUS_SUCCESS);
  Pair get[] = {{HSA_AMD_SVM_ATTRIB_GLOBAL_FLAG, 0},
                {HSA_AMD_SVM_ATTRIB_READ_ONLY, 0},
                {HSA_AMD_SVM_ATTRIB_READ_MOSTLY, 0},
                {HSA_AMD_SVM_ATTRIB_HIVE_LOCAL, 5},
                {HSA_AMD_SVM_ATTRIB_MIGRATION_GRANULARITY, 0},
                {HSA_AMD_SVM_ATTRIB_PREFERRED_LOCATION, 0},
                {HSA_AMD_SVM_ATTRIB_ACCESS_QUERY, agents_.gpu.handle},
                {HSA_AMD_SVM_ATTRIB_ACCESS_QUERY, agents_.cpu.handle}};
  ASSERT_EQ(hsa_amd_svm_attributes_get(pages.base, pages.bytes, get, 8), HSA_STATUS_SUCCESS);
  EXPECT_EQ(get[0].value, uint64_t{HSA_AMD_SVM_GLOBAL_FLAG_COARSE_GRAINED});
  EXPECT_NE(get[1].value, 0u);
  EXPECT_NE(get[2].value, 0u);
  EXPECT_EQ(get[3].value, 0u);
  EXPECT_EQ(get[4].value, 18u);
  EXPECT_EQ(get[5].value, agents_.gpu.handle);
  EXPECT_EQ(get[6].attribute, uint64_t{HSA_AMD_SVM_ATTRIB_AGENT_ACCESSIBLE});
  EXPECT_EQ(get[7].attribute, uint64_t{HSA_AMD_SVM_ATTRIB_AGENT_ACCESSIBLE});
  Pair clear[] = {{HSA_AMD_SVM_ATTRIB_PREFERRED_LOCATION, 0},
                  {HSA_AMD_SVM_ATTRIB_READ_ONLY, 0},
                  {HSA_AMD_SVM_ATTRIB_AGENT_NO_ACCESS, agents_.gpu.handle}};
  ASSERT_EQ(hsa_amd_svm_attributes_set(pages.base, pages.bytes, clear, 3), HSA_STATUS_SUCCESS);
  EXPECT_EQ(svm_get(pages.base, pages.bytes, HSA_AMD_SVM_ATTRIB_PREFERRED_LOCATION, 9), 0u);
  EXPECT_EQ(svm_get(pages.base, pages.bytes, HSA_AMD_SVM_ATTRIB_READ_ONLY, 9), 0u);
  Pair query{HSA_AMD_SVM_ATTRIB_ACCESS_QUERY, agents_.gpu.handle};
  ASSERT_EQ(hsa_amd_svm_attributes_get(pages.base, pages.bytes, &query, 1), HSA_STATUS_SUCCESS);
  EXPECT_EQ(query.attribute, uint64_t{HSA_AMD_SVM_ATTRIB_AGENT_NO_ACCESS});
}

// HSA-SVM-1, HSA-SVM-2: a list ROCR refuses reaches no KFD call: nothing of it is applied.
TEST_F(HsaSvm, HSA_SVM_1_RefusedListsChangeNothing) {
  record_clause("HSA-SVM-1");
  SvmPages pages(2);
  ASSERT_NE(pages.base, nullptr);
  auto set = [&](std::vector<Pair> list) {
    return hsa_amd_svm_attributes_set(pages.base, pages.bytes, list.data(), list.size());
  };
  const uint64_t gpu = agents_.gpu.handle;
  EXPECT_EQ(set({{HSA_AMD_SVM_ATTRIB_READ_ONLY, 1}, {HSA_AMD_SVM_ATTRIB_READ_ONLY, 1}}),
            HSA_STATUS_ERROR_INCOMPATIBLE_ARGUMENTS);
  EXPECT_EQ(set({{HSA_AMD_SVM_ATTRIB_READ_ONLY, 1},
                 {HSA_AMD_SVM_ATTRIB_AGENT_ACCESSIBLE, gpu},
                 {HSA_AMD_SVM_ATTRIB_AGENT_NO_ACCESS, gpu}}),
            HSA_STATUS_ERROR_INCOMPATIBLE_ARGUMENTS);
  EXPECT_EQ(set({{HSA_AMD_SVM_ATTRIB_READ_ONLY, 1},
                 {HSA_AMD_SVM_ATTRIB_GLOBAL_FLAG, HSA_AMD_SVM_GLOBAL_FLAG_INDETERMINATE}}),
            HSA_STATUS_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(set({{HSA_AMD_SVM_ATTRIB_READ_ONLY, 1}, {HSA_AMD_SVM_ATTRIB_PREFETCH_LOCATION, gpu}}),
            HSA_STATUS_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(set({{HSA_AMD_SVM_ATTRIB_READ_ONLY, 1}, {HSA_AMD_SVM_ATTRIB_ACCESS_QUERY, gpu}}),
            HSA_STATUS_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(set({{HSA_AMD_SVM_ATTRIB_READ_ONLY, 1}, {HSA_AMD_SVM_ATTRIB_AGENT_ACCESSIBLE, 0}}),
            HSA_STATUS_ERROR_INVALID_AGENT);
  // The first refusal in list order decides.
  EXPECT_EQ(set({{HSA_AMD_SVM_ATTRIB_AGENT_ACCESSIBLE, 0},
                 {HSA_AMD_SVM_ATTRIB_READ_ONLY, 1},
                 {HSA_AMD_SVM_ATTRIB_READ_ONLY, 1}}),
            HSA_STATUS_ERROR_INVALID_AGENT);
  EXPECT_EQ(svm_get(pages.base, pages.bytes, HSA_AMD_SVM_ATTRIB_READ_ONLY, 9), 0u) << "a refused list was applied";
  // HSA-SVM-2: the attributes only set takes are refused by get.
  Pair get{HSA_AMD_SVM_ATTRIB_AGENT_ACCESSIBLE, gpu};
  EXPECT_EQ(hsa_amd_svm_attributes_get(pages.base, pages.bytes, &get, 1), HSA_STATUS_ERROR_INVALID_ARGUMENT);
  Pair query{HSA_AMD_SVM_ATTRIB_ACCESS_QUERY, 0};
  EXPECT_EQ(hsa_amd_svm_attributes_get(pages.base, pages.bytes, &query, 1), HSA_STATUS_ERROR_INVALID_AGENT);
  EXPECT_EQ(query.attribute, uint64_t{HSA_AMD_SVM_ATTRIB_ACCESS_QUERY});
  // Memory the runtime allocated is the driver's, not SVM memory: the KFD refuses it.
  const hsa_amd_memory_pool_t vram = find_pool(agents_.gpu, HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_COARSE_GRAINED);
  void* device = nullptr;
  ASSERT_EQ(hsa_amd_memory_pool_allocate(vram, 4096, 0, &device), HSA_STATUS_SUCCESS);
  Pair read_only{HSA_AMD_SVM_ATTRIB_READ_ONLY, 1};
  EXPECT_EQ(hsa_amd_svm_attributes_set(device, 4096, &read_only, 1), HSA_STATUS_ERROR);
  hsa_amd_memory_pool_free(device);
}

// HSA-SVM-3: a prefetch completes after its dependencies and leaves its destination with the
// KFD; to a CPU agent it is system memory, read back as that agent.
TEST_F(HsaSvm, HSA_SVM_3_PrefetchCompletesAfterItsDependencies) {
  record_clause("HSA-SVM-3");
  SvmPages pages(2);
  ASSERT_NE(pages.base, nullptr);
  EXPECT_EQ(svm_get(pages.base, pages.bytes, HSA_AMD_SVM_ATTRIB_PREFETCH_LOCATION, 9), 0u) << "never prefetched";
  hsa_signal_t done{0};
  ASSERT_EQ(hsa_signal_create(1, 0, nullptr, &done), HSA_STATUS_SUCCESS);
  ASSERT_EQ(hsa_amd_svm_prefetch_async(pages.base, pages.bytes, agents_.cpu, 0, nullptr, done), HSA_STATUS_SUCCESS);
  EXPECT_EQ(hsa_signal_wait_scacquire(done, HSA_SIGNAL_CONDITION_LT, 1, UINT64_MAX, HSA_WAIT_STATE_BLOCKED), 0);
  EXPECT_EQ(svm_get(pages.base, pages.bytes, HSA_AMD_SVM_ATTRIB_PREFETCH_LOCATION), agents_.cpu.handle);
  hsa_signal_destroy(done);
  // Last: the KFD model keeps an SVM range after munmap (KFD-SVM-6), so pages mapped again at the
  // same address would still hold this prefetch's destination.
  EXPECT_TRUE(svm_prefetch_waits_for_its_dependency(agents_.gpu));
}

}  // namespace
}  // namespace hsa_conformance
