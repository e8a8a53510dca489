// tests/unit/hsa/runtime_ext_mutant_test.cpp - the planted bugs of the extension and control calls
// caught (hsa_mutant.h): each check passes on the runtime as built and fails with its bug planted.
//   HSA-EXT-2   LoaderHostCopyBeforeRelocation: table_ptr in the host copy is not table's address
//   HSA-QUEUE-6 CuMaskKeepsBitsPastTheCus: a mask past the agent's CUs is kept whole
//   HSA-LOCK-3  LockToPoolIgnoresThePool: a lock to the fine-grained pool reads back coarse-grained
//   HSA-SIG-8   SignalGroupAnswersTheFirst: the group wait names signal 0 when signal 1 was set
//   HSA-MEM-10  FreeSkipsDeallocationCallbacks: freeing runs no callback
#include <elf.h>
#include <gtest/gtest.h>
#include <hsa/hsa_ven_amd_loader.h>

#include <cstdlib>
#include <cstring>
#include <vector>

#include "hsa/hsa_mutant.h"
#include "hsa_fixture.h"
#include "loader_fixture.h"
#include "planted.h"

namespace hsa_conformance {
namespace {

using rocref::hsa::HsaMutant;

class RuntimeExtMutant : public HsaTest {
 protected:
  // The host copy of table_ptr holds table's device address.
  bool host_copy_is_relocated() {
    const std::vector<uint8_t> image = read_file(ROCREF_HSA_LOADER_KERNELS);
    LoadedImage loaded(image, agents_.gpu);
    hsa_ven_amd_loader_1_03_pfn_t loader{};
    if (loaded.status != HSA_STATUS_SUCCESS ||
        hsa_system_get_major_extension_table(HSA_EXTENSION_AMD_LOADER, 1, sizeof loader, &loader) !=
            HSA_STATUS_SUCCESS) {
      ADD_FAILURE() << "no loaded image";
      return false;
    }
    uint64_t table = 0, table_ptr = 0;
    hsa_executable_symbol_t symbol;
    hsa_executable_get_symbol_by_name(loaded.executable, "table", &agents_.gpu, &symbol);
    hsa_executable_symbol_get_info(symbol, HSA_EXECUTABLE_SYMBOL_INFO_VARIABLE_ADDRESS, &table);
    hsa_executable_get_symbol_by_name(loaded.executable, "table_ptr", &agents_.gpu, &symbol);
    hsa_executable_symbol_get_info(symbol, HSA_EXECUTABLE_SYMBOL_INFO_VARIABLE_ADDRESS, &table_ptr);
    const void* host = nullptr;
    if (loader.hsa_ven_amd_loader_query_host_address(reinterpret_cast<void*>(table_ptr), &host) != HSA_STATUS_SUCCESS)
      return false;
    uint64_t pointer = 0;
    std::memcpy(&pointer, host, sizeof pointer);
    return table != 0 && pointer == table;
  }

  // Bits past the agent's CUs are cut.
  bool cu_mask_is_cut() {
    uint32_t cus = 0;
    hsa_agent_get_info(agents_.gpu, static_cast<hsa_agent_info_t>(HSA_AMD_AGENT_INFO_COMPUTE_UNIT_COUNT), &cus);
    hsa_queue_t* queue = nullptr;
    if (hsa_queue_create(agents_.gpu, 64, HSA_QUEUE_TYPE_MULTI, nullptr, nullptr, UINT32_MAX, UINT32_MAX, &queue) !=
        HSA_STATUS_SUCCESS)
      return false;
    const uint32_t dwords = (cus + 31) / 32 + 1;
    std::vector<uint32_t> wanted(dwords, 0xffffffffu), got(dwords, 0);
    const hsa_status_t set = hsa_amd_queue_cu_set_mask(queue, dwords * 32, wanted.data());
    hsa_amd_queue_cu_get_mask(queue, dwords * 32, got.data());
    hsa_queue_destroy(queue);
    bool cut = set == HSA_STATUS_SUCCESS;
    for (uint32_t cu = 0; cu < dwords * 32; ++cu) cut = cut && (((got[cu / 32] >> (cu % 32)) & 1u) == (cu < cus));
    return cut;
  }

  // A lock to the fine-grained pool reads back fine-grained.
  bool lock_takes_the_pool() {
    const hsa_amd_memory_pool_t fine = find_pool(agents_.cpu, HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_FINE_GRAINED);
    void* host = std::aligned_alloc(4096, 4096);
    void* agent_ptr = nullptr;
    bool fine_grained = false;
    if (hsa_amd_memory_lock_to_pool(host, 4096, &agents_.gpu, 1, fine, 0, &agent_ptr) == HSA_STATUS_SUCCESS) {
      hsa_amd_pointer_info_t info{};
      info.size = sizeof info;
      fine_grained = hsa_amd_pointer_info(host, &info, nullptr, nullptr, nullptr) == HSA_STATUS_SUCCESS &&
                     info.global_flags == HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_FINE_GRAINED;
      hsa_amd_memory_unlock(host);
    }
    std::free(host);
    return fine_grained;
  }

  // With signal 1 of two at 0, the group's wait names signal 1.
  bool group_names_the_satisfied_signal() {
    hsa_signal_t signals[2];
    hsa_signal_create(1, 0, nullptr, &signals[0]);
    hsa_signal_create(0, 0, nullptr, &signals[1]);
    hsa_signal_group_t group;
    bool named = false;
    if (hsa_signal_group_create(2, signals, 0, nullptr, &group) == HSA_STATUS_SUCCESS) {
      const hsa_signal_condition_t conditions[2] = {HSA_SIGNAL_CONDITION_EQ, HSA_SIGNAL_CONDITION_EQ};
      const hsa_signal_value_t values[2] = {0, 0};
      hsa_signal_t satisfied{0};
      hsa_signal_value_t value = -1;
      named = hsa_signal_group_wait_any_relaxed(group, conditions, values, HSA_WAIT_STATE_ACTIVE, &satisfied, &value) ==
                  HSA_STATUS_SUCCESS &&
              satisfied.handle == signals[1].handle;
      hsa_signal_group_destroy(group);
    }
    for (hsa_signal_t s : signals) hsa_signal_destroy(s);
    return named;
  }

  // Freeing an allocation runs the callback registered on it.
  bool free_runs_its_callback() {
    const hsa_amd_memory_pool_t system = find_pool(agents_.cpu, HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_FINE_GRAINED);
    void* memory = nullptr;
    if (hsa_amd_memory_pool_allocate(system, 4096, 0, &memory) != HSA_STATUS_SUCCESS) return false;
    static int runs;
    runs = 0;
    hsa_amd_register_deallocation_callback(
        memory, [](void*, void*) { ++runs; }, nullptr);
    hsa_amd_memory_pool_free(memory);
    return runs == 1;
  }
};

TEST_F(RuntimeExtMutant, LoaderHostCopyBeforeRelocationIsCaught) {
  EXPECT_TRUE(host_copy_is_relocated());
  EXPECT_FALSE(with_planted(HsaMutant::LoaderHostCopyBeforeRelocation, [&] { return host_copy_is_relocated(); }));
}

TEST_F(RuntimeExtMutant, CuMaskKeepsBitsPastTheCusIsCaught) {
  EXPECT_TRUE(cu_mask_is_cut());
  EXPECT_FALSE(with_planted(HsaMutant::CuMaskKeepsBitsPastTheCus, [&] { return cu_mask_is_cut(); }));
}

TEST_F(RuntimeExtMutant, LockToPoolIgnoresThePoolIsCaught) {
  EXPECT_TRUE(lock_takes_the_pool());
  EXPECT_FALSE(with_planted(HsaMutant::LockToPoolIgnoresThePool, [&] { return lock_takes_the_pool(); }));
}

TEST_F(RuntimeExtMutant, SignalGroupAnswersTheFirstIsCaught) {
  EXPECT_TRUE(group_names_the_satisfied_signal());
  EXPECT_FALSE(with_planted(HsaMutant::SignalGroupAnswersTheFirst, [&] { return group_names_the_satisfied_signal(); }));
}

TEST_F(RuntimeExtMutant, FreeSkipsDeallocationCallbacksIsCaught) {
  EXPECT_TRUE(free_runs_its_callback());
  EXPECT_FALSE(with_planted(HsaMutant::FreeSkipsDeallocationCallbacks, [&] { return free_runs_its_callback(); }));
}

}  // namespace
}  // namespace hsa_conformance
