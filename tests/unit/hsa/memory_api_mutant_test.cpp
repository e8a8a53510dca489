// tests/unit/hsa/memory_api_mutant_test.cpp - planted bugs of the AMD memory entry points caught:
// HSA-MEM-7's dependency wait (a copy behind a dependency signal at 1 has not run 50 ms later;
// AsyncCopySkipsDependencies copies at once) and HSA-PTR-2's user data on an allocation's start
// (PointerInfoIgnoresAllocationMap answers from the driver's record only) and HSA-LOCK-2's counted
// locks (UnlockKeepsRegistration leaves the range locked after its last unlock).
#include <gtest/gtest.h>

#include <cstring>
#include <vector>

#include "hsa/hsa_mutant.h"
#include "hsa_fixture.h"
#include "planted.h"

namespace hsa_conformance {
namespace {

using rocref::hsa::HsaMutant;

class HsaMemoryApiMutant : public HsaTest {
 protected:
  // Whether a copy behind a dependency at 1 stayed unwritten and uncompleted for 50 ms.
  bool waits_for_its_dependency() {
    const hsa_amd_memory_pool_t vram = find_pool(agents_.gpu, HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_COARSE_GRAINED);
    const hsa_amd_memory_pool_t system = find_pool(agents_.cpu, HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_FINE_GRAINED);
    void *device = nullptr, *host = nullptr;
    EXPECT_EQ(hsa_amd_memory_pool_allocate(vram, 4096, 0, &device), HSA_STATUS_SUCCESS);
    EXPECT_EQ(hsa_amd_memory_pool_allocate(system, 4096, 0, &host), HSA_STATUS_SUCCESS);
    if (device == nullptr || host == nullptr) return false;
    std::memset(host, 0x5a, 4096);
    EXPECT_EQ(hsa_amd_memory_fill(device, 0, 1024), HSA_STATUS_SUCCESS);
    hsa_signal_t gate{0}, done{0};
    EXPECT_EQ(hsa_signal_create(1, 0, nullptr, &gate), HSA_STATUS_SUCCESS);
    EXPECT_EQ(hsa_signal_create(1, 0, nullptr, &done), HSA_STATUS_SUCCESS);
    EXPECT_EQ(hsa_amd_memory_async_copy(device, agents_.gpu, host, agents_.cpu, 4096, 1, &gate, done),
              HSA_STATUS_SUCCESS);
    const hsa_signal_value_t early =
        hsa_signal_wait_scacquire(done, HSA_SIGNAL_CONDITION_LT, 1, 50'000'000, HSA_WAIT_STATE_BLOCKED);
    const bool untouched = *static_cast<const uint32_t *>(device) == 0;
    hsa_signal_store_screlease(gate, 0);
    EXPECT_EQ(hsa_signal_wait_scacquire(done, HSA_SIGNAL_CONDITION_LT, 1, UINT64_MAX, HSA_WAIT_STATE_BLOCKED), 0);
    EXPECT_EQ(*static_cast<const uint32_t *>(device), 0x5a5a5a5au) << "the copy never ran";
    hsa_signal_destroy(gate);
    hsa_signal_destroy(done);
    hsa_amd_memory_pool_free(device);
    hsa_amd_memory_pool_free(host);
    return early == 1 && untouched;
  }
};

TEST_F(HsaMemoryApiMutant, AsyncCopySkipsDependenciesIsCaught) {
  EXPECT_TRUE(waits_for_its_dependency());
  EXPECT_FALSE(with_planted(HsaMutant::AsyncCopySkipsDependencies, [&] { return waits_for_its_dependency(); }))
      << "the planted bug copied before the dependency reached 0, unseen";
}

// Whether user data set on an allocation's start is what pointer info reports for it.
bool user_data_comes_back(hsa_amd_memory_pool_t vram) {
  void *device = nullptr;
  if (hsa_amd_memory_pool_allocate(vram, 4096, 0, &device) != HSA_STATUS_SUCCESS) return false;
  int tag = 0;
  hsa_amd_pointer_info_t info{};
  info.size = sizeof info;
  const bool set = hsa_amd_pointer_info_set_userdata(device, &tag) == HSA_STATUS_SUCCESS;
  const bool read =
      hsa_amd_pointer_info(static_cast<uint8_t *>(device) + 8, &info, nullptr, nullptr, nullptr) == HSA_STATUS_SUCCESS;
  hsa_amd_memory_pool_free(device);
  return set && read && info.userData == &tag && info.agentBaseAddress == device;
}

TEST_F(HsaMemoryApiMutant, PointerInfoIgnoresAllocationMapIsCaught) {
  const hsa_amd_memory_pool_t vram = find_pool(agents_.gpu, HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_COARSE_GRAINED);
  EXPECT_TRUE(user_data_comes_back(vram));
  EXPECT_FALSE(with_planted(HsaMutant::PointerInfoIgnoresAllocationMap, [&] { return user_data_comes_back(vram); }))
      << "the planted bug reported the driver's record, unseen";
}

// Whether two locks of a range and two unlocks leave it unlocked.
bool last_unlock_unlocks() {
  std::vector<uint8_t> host(3 * 4096);
  void *agent_ptr = nullptr;
  if (hsa_amd_memory_lock(host.data(), host.size(), nullptr, 0, &agent_ptr) != HSA_STATUS_SUCCESS) return false;
  if (hsa_amd_memory_lock(host.data(), host.size(), nullptr, 0, &agent_ptr) != HSA_STATUS_SUCCESS) return false;
  hsa_amd_memory_unlock(host.data());
  hsa_amd_memory_unlock(host.data());
  hsa_amd_pointer_info_t info{};
  info.size = sizeof info;
  hsa_amd_pointer_info(host.data(), &info, nullptr, nullptr, nullptr);
  const bool unlocked = info.type == HSA_EXT_POINTER_TYPE_UNKNOWN;
  while (info.type == HSA_EXT_POINTER_TYPE_LOCKED) {  // the planted bug's leftovers, before the vector goes
    rocref::hsa::set_hsa_mutant(HsaMutant::UnlockKeepsRegistration, false);
    hsa_amd_memory_unlock(host.data());
    hsa_amd_pointer_info(host.data(), &info, nullptr, nullptr, nullptr);
  }
  return unlocked;
}

TEST_F(HsaMemoryApiMutant, UnlockKeepsRegistrationIsCaught) {
  EXPECT_TRUE(last_unlock_unlocks());
  EXPECT_FALSE(with_planted(HsaMutant::UnlockKeepsRegistration, last_unlock_unlocks))
      << "the planted bug left the range registered, unseen";
}

}  // namespace
}  // namespace hsa_conformance
