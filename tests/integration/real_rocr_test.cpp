// tests/integration/real_rocr_test.cpp - Debian's ROCR 5.2.3 runs on our libhsakmt.so.1 and KFD model.
//
// Links only libhsa-runtime64 (the real one). CTest puts our libhsakmt.so.1 first on
// LD_LIBRARY_PATH, so ROCR's hsaKmt* calls land in rocref's thunk and the in-process
// KFD model: agents appear, a queue is created and a barrier packet completes.
#include <dlfcn.h>
#include <hsa/hsa.h>
#include <hsa/hsa_ext_amd.h>

#include <gtest/gtest.h>

#include <cstring>
#include <string>

namespace {

struct Agents {
  hsa_agent_t gpu{};
  hsa_agent_t cpu{};
  int gpus = 0;
  int cpus = 0;
};

hsa_status_t collect(hsa_agent_t agent, void* data) {
  auto* a = static_cast<Agents*>(data);
  hsa_device_type_t type{};
  hsa_agent_get_info(agent, HSA_AGENT_INFO_DEVICE, &type);
  if (type == HSA_DEVICE_TYPE_GPU) {
    a->gpu = agent;
    ++a->gpus;
  } else if (type == HSA_DEVICE_TYPE_CPU) {
    a->cpu = agent;
    ++a->cpus;
  }
  return HSA_STATUS_SUCCESS;
}

// The first global pool of an agent.
hsa_status_t first_global_pool(hsa_amd_memory_pool_t pool, void* data) {
  hsa_amd_segment_t segment{};
  hsa_amd_memory_pool_get_info(pool, HSA_AMD_MEMORY_POOL_INFO_SEGMENT, &segment);
  if (segment != HSA_AMD_SEGMENT_GLOBAL) return HSA_STATUS_SUCCESS;
  *static_cast<hsa_amd_memory_pool_t*>(data) = pool;
  return HSA_STATUS_INFO_BREAK;
}

class RealRocr : public ::testing::Test {
 protected:
  void SetUp() override {
    void* sym = dlsym(RTLD_DEFAULT, "hsaKmtOpenKFD");
    Dl_info info{};
    ASSERT_TRUE(sym && dladdr(sym, &info) && info.dli_fname);
    if (std::string(info.dli_fname).find(ROCREF_HSAKMT_DIR) != 0)
      GTEST_SKIP() << "libhsakmt comes from " << info.dli_fname << ", not rocref's (run through ctest)";
    ASSERT_EQ(hsa_init(), HSA_STATUS_SUCCESS);
  }
  void TearDown() override {
    if (!IsSkipped()) {
      EXPECT_EQ(hsa_shut_down(), HSA_STATUS_SUCCESS);
    }
  }
};

TEST_F(RealRocr, HsaInitFindsTheModeledGfx900) {
  Agents a;
  ASSERT_EQ(hsa_iterate_agents(collect, &a), HSA_STATUS_SUCCESS);
  EXPECT_GE(a.cpus, 1);
  ASSERT_EQ(a.gpus, 1);
  char name[64] = {};
  ASSERT_EQ(hsa_agent_get_info(a.gpu, HSA_AGENT_INFO_NAME, name), HSA_STATUS_SUCCESS);
  EXPECT_STREQ(name, "gfx900");
}

TEST_F(RealRocr, QueueCreateAndBarrierPacketCompletes) {
  Agents a;
  ASSERT_EQ(hsa_iterate_agents(collect, &a), HSA_STATUS_SUCCESS);
  ASSERT_EQ(a.gpus, 1);
  hsa_queue_t* q = nullptr;
  ASSERT_EQ(hsa_queue_create(a.gpu, 256, HSA_QUEUE_TYPE_MULTI, nullptr, nullptr, UINT32_MAX, UINT32_MAX, &q),
            HSA_STATUS_SUCCESS);
  hsa_signal_t done{};
  ASSERT_EQ(hsa_signal_create(1, 0, nullptr, &done), HSA_STATUS_SUCCESS);
  for (int i = 0; i < 4; ++i) {
    hsa_signal_store_relaxed(done, 1);
    const uint64_t id = hsa_queue_add_write_index_relaxed(q, 1);
    auto* packet = static_cast<hsa_barrier_and_packet_t*>(q->base_address) + (id % q->size);
    std::memset(reinterpret_cast<char*>(packet) + 4, 0, sizeof *packet - 4);
    packet->completion_signal = done;
    const uint16_t header = (HSA_PACKET_TYPE_BARRIER_AND << HSA_PACKET_HEADER_TYPE) |
                            (1 << HSA_PACKET_HEADER_BARRIER) |
                            (HSA_FENCE_SCOPE_SYSTEM << HSA_PACKET_HEADER_SCACQUIRE_FENCE_SCOPE) |
                            (HSA_FENCE_SCOPE_SYSTEM << HSA_PACKET_HEADER_SCRELEASE_FENCE_SCOPE);
    __atomic_store_n(reinterpret_cast<uint32_t*>(packet), header, __ATOMIC_RELEASE);
    hsa_signal_store_screlease(q->doorbell_signal, static_cast<hsa_signal_value_t>(id));
    EXPECT_EQ(hsa_signal_wait_scacquire(done, HSA_SIGNAL_CONDITION_LT, 1, 5'000'000'000ull,
                                        HSA_WAIT_STATE_BLOCKED),
              0)
        << "packet " << i;
  }
  EXPECT_EQ(hsa_signal_destroy(done), HSA_STATUS_SUCCESS);
  EXPECT_EQ(hsa_queue_destroy(q), HSA_STATUS_SUCCESS);
}

// ROCR's memory paths: VRAM and system pools (hsaKmtAllocMemory + MapMemoryToGPUNodes), pinning
// user memory (RegisterMemoryToNodes, agent pointer == host pointer here, MEM-VA-1), pointer info.
TEST_F(RealRocr, PoolAllocationLockAndPointerInfo) {
  Agents a;
  ASSERT_EQ(hsa_iterate_agents(collect, &a), HSA_STATUS_SUCCESS);
  ASSERT_EQ(a.gpus, 1);
  hsa_amd_memory_pool_t vram{}, system{};
  hsa_amd_agent_iterate_memory_pools(a.gpu, first_global_pool, &vram);
  hsa_amd_agent_iterate_memory_pools(a.cpu, first_global_pool, &system);
  ASSERT_TRUE(vram.handle && system.handle);
  void* device = nullptr;
  void* host = nullptr;
  ASSERT_EQ(hsa_amd_memory_pool_allocate(vram, 1 << 20, 0, &device), HSA_STATUS_SUCCESS);
  ASSERT_EQ(hsa_amd_memory_pool_allocate(system, 1 << 20, 0, &host), HSA_STATUS_SUCCESS);
  EXPECT_EQ(hsa_amd_agents_allow_access(1, &a.gpu, nullptr, host), HSA_STATUS_SUCCESS);
  std::memset(host, 0x7e, 1 << 20);

  hsa_amd_pointer_info_t info{};
  info.size = sizeof info;
  ASSERT_EQ(hsa_amd_pointer_info(device, &info, nullptr, nullptr, nullptr), HSA_STATUS_SUCCESS);
  EXPECT_EQ(info.type, HSA_EXT_POINTER_TYPE_HSA);
  EXPECT_EQ(info.sizeInBytes, size_t{1} << 20);
  EXPECT_EQ(info.agentBaseAddress, device);

  alignas(4096) static uint8_t user[1 << 16];
  void* agent_ptr = nullptr;
  ASSERT_EQ(hsa_amd_memory_lock(user, sizeof user, &a.gpu, 1, &agent_ptr), HSA_STATUS_SUCCESS);
  EXPECT_EQ(agent_ptr, static_cast<void*>(user));
  EXPECT_EQ(hsa_amd_memory_unlock(user), HSA_STATUS_SUCCESS);
  EXPECT_EQ(hsa_amd_memory_pool_free(device), HSA_STATUS_SUCCESS);
  EXPECT_EQ(hsa_amd_memory_pool_free(host), HSA_STATUS_SUCCESS);
}

}  // namespace
