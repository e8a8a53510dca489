// tests/integration_foreign/rocr_test.cpp - Debian's ROCR 5.2.3 on the model (PRE-RUN-2..4).
//
// Linked against the system libhsa-runtime64.so.1 and run under `rocref exec`:
// queues, barrier packets, blit-kernel copies and fills, SDMA copies.
#include <gtest/gtest.h>
#include <hsa/hsa.h>
#include <hsa/hsa_ext_amd.h>

#include <atomic>
#include <cstring>
#include <vector>

namespace {

constexpr uint64_t kTimeoutNs = 10'000'000'000ull;

struct Agents {
  hsa_agent_t cpu{}, gpu{};
  hsa_amd_memory_pool_t vram{};
  bool have_vram = false;
};

hsa_status_t find_agent(hsa_agent_t a, void* data) {
  auto* ag = static_cast<Agents*>(data);
  hsa_device_type_t t;
  if (hsa_agent_get_info(a, HSA_AGENT_INFO_DEVICE, &t) != HSA_STATUS_SUCCESS) return HSA_STATUS_ERROR;
  if (t == HSA_DEVICE_TYPE_GPU) ag->gpu = a;
  if (t == HSA_DEVICE_TYPE_CPU) ag->cpu = a;
  return HSA_STATUS_SUCCESS;
}

hsa_status_t find_vram(hsa_amd_memory_pool_t p, void* data) {
  auto* ag = static_cast<Agents*>(data);
  hsa_amd_segment_t seg;
  hsa_amd_memory_pool_get_info(p, HSA_AMD_MEMORY_POOL_INFO_SEGMENT, &seg);
  if (seg != HSA_AMD_SEGMENT_GLOBAL) return HSA_STATUS_SUCCESS;
  ag->vram = p;
  ag->have_vram = true;
  return HSA_STATUS_INFO_BREAK;
}

class ForeignRocr : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    init_status_ = hsa_init();
    if (init_status_ == HSA_STATUS_SUCCESS) {
      hsa_iterate_agents(find_agent, &agents_);
      if (agents_.gpu.handle != 0) hsa_amd_agent_iterate_memory_pools(agents_.gpu, find_vram, &agents_);
    }
  }
  static void TearDownTestSuite() {
    if (init_status_ == HSA_STATUS_SUCCESS) hsa_shut_down();
  }
  void SetUp() override {
    ASSERT_EQ(init_status_, HSA_STATUS_SUCCESS) << "hsa_init on the model";
    ASSERT_NE(agents_.gpu.handle, 0u) << "no GPU agent";
  }

  void* vram_alloc(size_t bytes) {
    void* p = nullptr;
    EXPECT_TRUE(agents_.have_vram);
    EXPECT_EQ(hsa_amd_memory_pool_allocate(agents_.vram, bytes, 0, &p), HSA_STATUS_SUCCESS);
    hsa_agent_t both[2] = {agents_.gpu, agents_.cpu};
    EXPECT_EQ(hsa_amd_agents_allow_access(2, both, nullptr, p), HSA_STATUS_SUCCESS);
    return p;
  }

  static inline hsa_status_t init_status_ = HSA_STATUS_ERROR;
  static inline Agents agents_;
};

void publish(hsa_queue_t* q, uint64_t id, void* packet, uint16_t type) {
  const uint16_t header = uint16_t(type | (1u << HSA_PACKET_HEADER_BARRIER) |
                                   (HSA_FENCE_SCOPE_SYSTEM << HSA_PACKET_HEADER_ACQUIRE_FENCE_SCOPE) |
                                   (HSA_FENCE_SCOPE_SYSTEM << HSA_PACKET_HEADER_RELEASE_FENCE_SCOPE));
  __atomic_store_n(static_cast<uint32_t*>(packet), header, __ATOMIC_RELEASE);
  hsa_signal_store_screlease(q->doorbell_signal, int64_t(id));
}

TEST_F(ForeignRocr, PRE_RUN_2_BarrierAndWaitsForItsDependencyThroughRealRocr) {
  hsa_queue_t* q = nullptr;
  ASSERT_EQ(hsa_queue_create(agents_.gpu, 64, HSA_QUEUE_TYPE_MULTI, nullptr, nullptr, 0, 0, &q), HSA_STATUS_SUCCESS);
  hsa_signal_t dep, done;
  ASSERT_EQ(hsa_signal_create(1, 0, nullptr, &dep), HSA_STATUS_SUCCESS);
  ASSERT_EQ(hsa_signal_create(1, 0, nullptr, &done), HSA_STATUS_SUCCESS);
  const uint64_t id = hsa_queue_add_write_index_scacq_screl(q, 1);
  auto* p = static_cast<hsa_barrier_and_packet_t*>(q->base_address) + (id & (q->size - 1));
  std::memset(reinterpret_cast<char*>(p) + 4, 0, sizeof(*p) - 4);
  p->dep_signal[2] = dep;
  p->completion_signal = done;
  publish(q, id, p, HSA_PACKET_TYPE_BARRIER_AND);
  // Not complete while the dependency is 1.
  EXPECT_EQ(hsa_signal_wait_scacquire(done, HSA_SIGNAL_CONDITION_LT, 1, 50'000'000, HSA_WAIT_STATE_BLOCKED), 1);
  hsa_signal_store_screlease(dep, 0);
  EXPECT_EQ(hsa_signal_wait_scacquire(done, HSA_SIGNAL_CONDITION_LT, 1, kTimeoutNs, HSA_WAIT_STATE_BLOCKED), 0);
  hsa_signal_destroy(dep);
  hsa_signal_destroy(done);
  hsa_queue_destroy(q);
}

TEST_F(ForeignRocr, PRE_RUN_2_BarrierOrCompletesOnAnyDependency) {
  hsa_queue_t* q = nullptr;
  ASSERT_EQ(hsa_queue_create(agents_.gpu, 64, HSA_QUEUE_TYPE_SINGLE, nullptr, nullptr, 0, 0, &q), HSA_STATUS_SUCCESS);
  hsa_signal_t a, b, done;
  hsa_signal_create(1, 0, nullptr, &a);
  hsa_signal_create(1, 0, nullptr, &b);
  hsa_signal_create(1, 0, nullptr, &done);
  const uint64_t id = hsa_queue_add_write_index_relaxed(q, 1);
  auto* p = static_cast<hsa_barrier_or_packet_t*>(q->base_address) + (id & (q->size - 1));
  std::memset(reinterpret_cast<char*>(p) + 4, 0, sizeof(*p) - 4);
  p->dep_signal[0] = a;
  p->dep_signal[4] = b;
  p->completion_signal = done;
  publish(q, id, p, HSA_PACKET_TYPE_BARRIER_OR);
  hsa_signal_store_screlease(b, 0);
  EXPECT_EQ(hsa_signal_wait_scacquire(done, HSA_SIGNAL_CONDITION_LT, 1, kTimeoutNs, HSA_WAIT_STATE_BLOCKED), 0);
  hsa_signal_destroy(a);
  hsa_signal_destroy(b);
  hsa_signal_destroy(done);
  hsa_queue_destroy(q);
}

TEST_F(ForeignRocr, PRE_RUN_2_AgentDispatchRoundTripsThroughRealRocr) {
  hsa_queue_t* q = nullptr;
  ASSERT_EQ(hsa_queue_create(agents_.gpu, 64, HSA_QUEUE_TYPE_MULTI, nullptr, nullptr, 0, 0, &q), HSA_STATUS_SUCCESS);
  hsa_signal_t done;
  ASSERT_EQ(hsa_signal_create(1, 0, nullptr, &done), HSA_STATUS_SUCCESS);
  const uint64_t id = hsa_queue_add_write_index_scacq_screl(q, 1);
  auto* p = static_cast<hsa_agent_dispatch_packet_t*>(q->base_address) + (id & (q->size - 1));
  std::memset(reinterpret_cast<char*>(p) + 4, 0, sizeof(*p) - 4);
  p->arg[0] = 42;
  p->completion_signal = done;
  // Header and the 16-bit agent function type are published together (AQL-PUB-1).
  const uint16_t header = uint16_t(HSA_PACKET_TYPE_AGENT_DISPATCH | (1u << HSA_PACKET_HEADER_BARRIER) |
                                   (HSA_FENCE_SCOPE_SYSTEM << HSA_PACKET_HEADER_ACQUIRE_FENCE_SCOPE) |
                                   (HSA_FENCE_SCOPE_SYSTEM << HSA_PACKET_HEADER_RELEASE_FENCE_SCOPE));
  __atomic_store_n(reinterpret_cast<uint32_t*>(p), uint32_t(header) | (uint32_t{0x8000} << 16), __ATOMIC_RELEASE);
  hsa_signal_store_screlease(q->doorbell_signal, int64_t(id));
  EXPECT_EQ(hsa_signal_wait_scacquire(done, HSA_SIGNAL_CONDITION_LT, 1, kTimeoutNs, HSA_WAIT_STATE_BLOCKED), 0);
  EXPECT_GE(hsa_queue_load_read_index_scacquire(q), id + 1);
  hsa_signal_destroy(done);
  hsa_queue_destroy(q);
}

// covers: PRE-IO-2, BLIT-COPY-1
TEST_F(ForeignRocr, PRE_RUN_3_MemoryCopyThroughBlitKernelsMovesCorrectData) {
  const size_t n = (1 << 20) + 13;  // odd size: CopyMisaligned tail phases too
  void* d = vram_alloc(n + 64);
  ASSERT_NE(d, nullptr);
  std::vector<unsigned char> a(n), b(n, 0);
  for (size_t i = 0; i < n; ++i) a[i] = static_cast<unsigned char>(i * 131 + 7);
  ASSERT_EQ(hsa_memory_copy(static_cast<char*>(d) + 3, a.data(), n), HSA_STATUS_SUCCESS);
  ASSERT_EQ(hsa_memory_copy(b.data(), static_cast<char*>(d) + 3, n), HSA_STATUS_SUCCESS);
  EXPECT_TRUE(a == b);
  hsa_amd_memory_pool_free(d);
}

// covers: BLIT-FILL-1
TEST_F(ForeignRocr, PRE_RUN_3_MemoryFillThroughTheFillKernel) {
  const size_t dwords = 4096 + 5;
  auto* d = static_cast<uint32_t*>(vram_alloc(dwords * 4));
  ASSERT_NE(d, nullptr);
  ASSERT_EQ(hsa_amd_memory_fill(d, 0xa5a5f00du, dwords), HSA_STATUS_SUCCESS);
  std::vector<uint32_t> b(dwords, 0);
  ASSERT_EQ(hsa_memory_copy(b.data(), d, dwords * 4), HSA_STATUS_SUCCESS);
  EXPECT_EQ(b, std::vector<uint32_t>(dwords, 0xa5a5f00du));
  hsa_amd_memory_pool_free(d);
}

// covers: SDMA-COPY-1, SDMA-TRAP-1, SDMA-ATOM-1
TEST_F(ForeignRocr, PRE_RUN_4_AsyncCopyThroughSdmaMovesCorrectData) {
  const size_t n = 3 << 20;
  void* d = vram_alloc(n);
  ASSERT_NE(d, nullptr);
  std::vector<unsigned char> a(n), b(n, 0);
  for (size_t i = 0; i < n; ++i) a[i] = static_cast<unsigned char>(i * 17 + 1);
  void* host = nullptr;
  ASSERT_EQ(hsa_amd_memory_lock(a.data(), n, &agents_.gpu, 1, &host), HSA_STATUS_SUCCESS);
  hsa_signal_t s;
  ASSERT_EQ(hsa_signal_create(1, 0, nullptr, &s), HSA_STATUS_SUCCESS);
  ASSERT_EQ(hsa_amd_memory_async_copy(d, agents_.gpu, host, agents_.cpu, n, 0, nullptr, s), HSA_STATUS_SUCCESS);
  ASSERT_EQ(hsa_signal_wait_scacquire(s, HSA_SIGNAL_CONDITION_LT, 1, kTimeoutNs, HSA_WAIT_STATE_BLOCKED), 0);
  void* back = nullptr;
  ASSERT_EQ(hsa_amd_memory_lock(b.data(), n, &agents_.gpu, 1, &back), HSA_STATUS_SUCCESS);
  hsa_signal_store_screlease(s, 1);
  ASSERT_EQ(hsa_amd_memory_async_copy(back, agents_.cpu, d, agents_.gpu, n, 0, nullptr, s), HSA_STATUS_SUCCESS);
  ASSERT_EQ(hsa_signal_wait_scacquire(s, HSA_SIGNAL_CONDITION_LT, 1, kTimeoutNs, HSA_WAIT_STATE_BLOCKED), 0);
  EXPECT_TRUE(a == b);
  hsa_amd_memory_unlock(a.data());
  hsa_amd_memory_unlock(b.data());
  hsa_signal_destroy(s);
  hsa_amd_memory_pool_free(d);
}

}  // namespace
