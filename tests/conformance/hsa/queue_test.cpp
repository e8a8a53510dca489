// tests/conformance/hsa/queue_test.cpp - queue creation rules, indices in every order, destroy, profiling.
#include "hsa_fixture.h"

namespace hsa_conformance {
namespace {

class HsaQueue : public HsaTest {
 protected:
  hsa_queue_t* create(uint32_t size, hsa_status_t* status = nullptr) {
    hsa_queue_t* queue = nullptr;
    const hsa_status_t s =
        hsa_queue_create(agents_.gpu, size, HSA_QUEUE_TYPE_MULTI, nullptr, nullptr, UINT32_MAX, UINT32_MAX, &queue);
    if (status != nullptr) *status = s;
    return s == HSA_STATUS_SUCCESS ? queue : nullptr;
  }
};

TEST_F(HsaQueue, HSA_QUEUE_2_CreatedQueueDescribesItsRing) {
  record_clause("HSA-QUEUE-2");
  hsa_queue_t* queue = create(256);
  ASSERT_NE(queue, nullptr);
  EXPECT_EQ(queue->size, 256u);
  EXPECT_EQ(queue->type, HSA_QUEUE_TYPE_MULTI);
  EXPECT_NE(queue->base_address, nullptr);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(queue->base_address) % 64, 0u);
  EXPECT_NE(queue->doorbell_signal.handle, 0u);
  EXPECT_TRUE(queue->features & HSA_QUEUE_FEATURE_KERNEL_DISPATCH);
  EXPECT_EQ(hsa_queue_load_read_index_scacquire(queue), 0u);
  EXPECT_EQ(hsa_queue_load_write_index_scacquire(queue), 0u);
  // AQL-INV-3: every slot starts INVALID.
  for (uint32_t i = 0; i < queue->size; ++i) {
    const auto* header = reinterpret_cast<const uint16_t*>(static_cast<const uint8_t*>(queue->base_address) + i * 64);
    ASSERT_EQ(*header & 0xff, HSA_PACKET_TYPE_INVALID) << "slot " << i;
  }
  hsa_queue_t* other = create(64);
  ASSERT_NE(other, nullptr);
  EXPECT_NE(other->id, queue->id);
  EXPECT_NE(other->doorbell_signal.handle, queue->doorbell_signal.handle);
  EXPECT_EQ(hsa_queue_destroy(other), HSA_STATUS_SUCCESS);
  EXPECT_EQ(hsa_queue_destroy(queue), HSA_STATUS_SUCCESS);
}

TEST_F(HsaQueue, HSA_QUEUE_1_SizeMustBeAPowerOfTwoUpToTheMaximum) {
  record_clause("HSA-QUEUE-1");
  uint32_t min_size = 0, max_size = 0;
  ASSERT_EQ(hsa_agent_get_info(agents_.gpu, HSA_AGENT_INFO_QUEUE_MIN_SIZE, &min_size), HSA_STATUS_SUCCESS);
  ASSERT_EQ(hsa_agent_get_info(agents_.gpu, HSA_AGENT_INFO_QUEUE_MAX_SIZE, &max_size), HSA_STATUS_SUCCESS);
  hsa_status_t status;
  for (uint32_t bad : {0u, 3u, 100u, max_size + 1, max_size * 2, 0x80000001u}) {
    EXPECT_EQ(create(bad, &status), nullptr) << bad;
    EXPECT_EQ(status, HSA_STATUS_ERROR_INVALID_ARGUMENT) << "size " << bad;
  }
  // Below the minimum: rounded up, not refused (hsa.h).
  hsa_queue_t* small = create(1, &status);
  ASSERT_EQ(status, HSA_STATUS_SUCCESS);
  EXPECT_EQ(small->size, min_size);
  EXPECT_EQ(hsa_queue_destroy(small), HSA_STATUS_SUCCESS);
}

TEST_F(HsaQueue, HSA_QUEUE_1_BadAgentTypeOrPointerIsRejected) {
  record_clause("HSA-QUEUE-1");
  hsa_queue_t* queue = reinterpret_cast<hsa_queue_t*>(0x1);
  EXPECT_EQ(hsa_queue_create(agents_.cpu, 64, HSA_QUEUE_TYPE_MULTI, nullptr, nullptr, UINT32_MAX, UINT32_MAX, &queue),
            HSA_STATUS_ERROR_INVALID_QUEUE_CREATION);
  EXPECT_EQ(hsa_queue_create(hsa_agent_t{0}, 64, HSA_QUEUE_TYPE_MULTI, nullptr, nullptr, UINT32_MAX, UINT32_MAX,
                             &queue),
            HSA_STATUS_ERROR_INVALID_AGENT);
  EXPECT_EQ(hsa_queue_create(agents_.gpu, 64, 7, nullptr, nullptr, UINT32_MAX, UINT32_MAX, &queue),
            HSA_STATUS_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(hsa_queue_create(agents_.gpu, 64, HSA_QUEUE_TYPE_MULTI, nullptr, nullptr, UINT32_MAX, UINT32_MAX, nullptr),
            HSA_STATUS_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(queue, reinterpret_cast<hsa_queue_t*>(0x1)) << "a refused creation wrote the result";
}

TEST_F(HsaQueue, HSA_QUEUE_4_DestroyAndInactivateRejectUnknownQueues) {
  record_clause("HSA-QUEUE-4");
  hsa_queue_t fake{};
  EXPECT_EQ(hsa_queue_destroy(nullptr), HSA_STATUS_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(hsa_queue_destroy(&fake), HSA_STATUS_ERROR_INVALID_QUEUE);
  EXPECT_EQ(hsa_queue_inactivate(&fake), HSA_STATUS_ERROR_INVALID_QUEUE);
  hsa_queue_t* queue = create(64);
  ASSERT_NE(queue, nullptr);
  EXPECT_EQ(hsa_queue_inactivate(queue), HSA_STATUS_SUCCESS);
  EXPECT_EQ(hsa_queue_inactivate(queue), HSA_STATUS_SUCCESS) << "inactivating twice is allowed";
  EXPECT_EQ(hsa_queue_destroy(queue), HSA_STATUS_SUCCESS);
  EXPECT_EQ(hsa_queue_destroy(queue), HSA_STATUS_ERROR_INVALID_QUEUE) << "double destroy accepted";
}

TEST_F(HsaQueue, AQL_IDX_6_WriteIndexOperationsInEveryOrder) {
  record_clause("AQL-IDX-6");
  hsa_queue_t* q = create(64);
  ASSERT_NE(q, nullptr);
  using Add = uint64_t (*)(const hsa_queue_t*, uint64_t);
  using Cas = uint64_t (*)(const hsa_queue_t*, uint64_t, uint64_t);
  using Store = void (*)(const hsa_queue_t*, uint64_t);
  using Load = uint64_t (*)(const hsa_queue_t*);
  const Add adds[] = {hsa_queue_add_write_index_scacq_screl, hsa_queue_add_write_index_acq_rel,
                      hsa_queue_add_write_index_scacquire,   hsa_queue_add_write_index_acquire,
                      hsa_queue_add_write_index_relaxed,     hsa_queue_add_write_index_screlease,
                      hsa_queue_add_write_index_release};
  const Cas cases[] = {hsa_queue_cas_write_index_scacq_screl, hsa_queue_cas_write_index_acq_rel,
                       hsa_queue_cas_write_index_scacquire,   hsa_queue_cas_write_index_acquire,
                       hsa_queue_cas_write_index_relaxed,     hsa_queue_cas_write_index_screlease,
                       hsa_queue_cas_write_index_release};
  const Store stores[] = {hsa_queue_store_write_index_relaxed, hsa_queue_store_write_index_screlease,
                          hsa_queue_store_write_index_release};
  const Load loads[] = {hsa_queue_load_write_index_scacquire, hsa_queue_load_write_index_acquire,
                        hsa_queue_load_write_index_relaxed};
  // Reserved slots stay INVALID, so the packet processor waits on them (AQL-INV-1).
  uint64_t expected = 0;
  for (Add add : adds) {
    EXPECT_EQ(add(q, 2), expected);
    expected += 2;
    for (Load load : loads) EXPECT_EQ(load(q), expected);
  }
  for (Cas cas : cases) {
    EXPECT_EQ(cas(q, expected + 5, 0), expected) << "failed CAS returns the observed index";
    EXPECT_EQ(cas(q, expected, expected + 1), expected);
    ++expected;
    EXPECT_EQ(hsa_queue_load_write_index_relaxed(q), expected);
  }
  for (Store store : stores) {
    store(q, expected);
    EXPECT_EQ(hsa_queue_load_write_index_scacquire(q), expected);
  }
  EXPECT_EQ(hsa_queue_load_read_index_scacquire(q), 0u);
  EXPECT_EQ(hsa_queue_load_read_index_acquire(q), 0u);
  EXPECT_EQ(hsa_queue_load_read_index_relaxed(q), 0u);
  EXPECT_EQ(hsa_queue_destroy(q), HSA_STATUS_SUCCESS);
}

TEST_F(HsaQueue, HSA_PROF_1_ProfilingArgumentsAreChecked) {
  record_clause("HSA-PROF-1");
  hsa_queue_t* q = create(64);
  ASSERT_NE(q, nullptr);
  EXPECT_EQ(hsa_amd_profiling_set_profiler_enabled(q, 1), HSA_STATUS_SUCCESS);
  hsa_queue_t fake{};
  EXPECT_EQ(hsa_amd_profiling_set_profiler_enabled(&fake, 1), HSA_STATUS_ERROR_INVALID_QUEUE);
  hsa_signal_t s = make_signal(1);
  hsa_amd_profiling_dispatch_time_t time{};
  EXPECT_EQ(hsa_amd_profiling_get_dispatch_time(hsa_agent_t{0}, s, &time), HSA_STATUS_ERROR_INVALID_AGENT);
  EXPECT_EQ(hsa_amd_profiling_get_dispatch_time(agents_.gpu, hsa_signal_t{0}, &time), HSA_STATUS_ERROR_INVALID_SIGNAL);
  EXPECT_EQ(hsa_amd_profiling_get_dispatch_time(agents_.gpu, s, nullptr), HSA_STATUS_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(hsa_queue_destroy(q), HSA_STATUS_SUCCESS);
}

}  // namespace
}  // namespace hsa_conformance
