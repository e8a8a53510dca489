// tests/conformance/hsa/queue_control_test.cpp - a queue's CU mask and priority after creation
// (HSA-QUEUE-6), as ROCR 5.2.3 answers them.
#include <vector>

#include "hsa_fixture.h"

namespace hsa_conformance {
namespace {

class HsaQueueControl : public HsaTest {
 protected:
  void SetUp() override {
    HsaTest::SetUp();
    if (HasFatalFailure()) return;
    ASSERT_EQ(HSA_STATUS_SUCCESS,
              hsa_agent_get_info(agents_.gpu, static_cast<hsa_agent_info_t>(HSA_AMD_AGENT_INFO_COMPUTE_UNIT_COUNT),
                                 &cus_));
    ASSERT_GT(cus_, 0u);
    ASSERT_EQ(HSA_STATUS_SUCCESS, hsa_queue_create(agents_.gpu, 64, HSA_QUEUE_TYPE_MULTI, nullptr, nullptr, UINT32_MAX,
                                                   UINT32_MAX, &queue_));
  }
  void TearDown() override {
    if (queue_ != nullptr) hsa_queue_destroy(queue_);
    HsaTest::TearDown();
  }
  // Whether bit `cu` of `mask` is set.
  static bool on(const std::vector<uint32_t>& mask, uint32_t cu) { return (mask[cu / 32] >> (cu % 32)) & 1u; }
  std::vector<uint32_t> mask(uint32_t dwords) {
    std::vector<uint32_t> out(dwords, 0xdeadbeefu);
    EXPECT_EQ(HSA_STATUS_SUCCESS, hsa_amd_queue_cu_get_mask(queue_, dwords * 32, out.data()));
    return out;
  }
  uint32_t cus_ = 0;
  hsa_queue_t* queue_ = nullptr;
};

// A new queue has every CU; the bits past the agent's CUs read 0, as do dwords past the mask.
TEST_F(HsaQueueControl, HSA_QUEUE_6_NewQueueHasEveryComputeUnit) {
  record_clause("HSA-QUEUE-6");
  const uint32_t dwords = (cus_ + 31) / 32 + 1;
  const std::vector<uint32_t> m = mask(dwords);
  for (uint32_t cu = 0; cu < dwords * 32; ++cu) EXPECT_EQ(cu < cus_, on(m, cu)) << "CU " << cu;
}

// A mask reaching past the agent's CUs is cut to them, silently (ROCR reports CU_MASK_REDUCED only
// for CUs its HSA_CU_MASK variable removed); count 0 restores every CU.
TEST_F(HsaQueueControl, HSA_QUEUE_6_MaskIsCutToTheAgentsComputeUnits) {
  record_clause("HSA-QUEUE-6");
  const uint32_t dwords = (cus_ + 31) / 32 + 1;
  std::vector<uint32_t> wanted(dwords, 0x55555555u);
  EXPECT_EQ(HSA_STATUS_SUCCESS, hsa_amd_queue_cu_set_mask(queue_, dwords * 32, wanted.data()));
  std::vector<uint32_t> m = mask(dwords);
  for (uint32_t cu = 0; cu < dwords * 32; ++cu) EXPECT_EQ(cu < cus_ && cu % 2 == 0, on(m, cu)) << "CU " << cu;
  const uint32_t one = 1;
  EXPECT_EQ(HSA_STATUS_SUCCESS, hsa_amd_queue_cu_set_mask(queue_, 32, &one));
  m = mask(dwords);
  for (uint32_t cu = 0; cu < dwords * 32; ++cu) EXPECT_EQ(cu == 0, on(m, cu)) << "CU " << cu;
  EXPECT_EQ(HSA_STATUS_SUCCESS, hsa_amd_queue_cu_set_mask(queue_, 0, nullptr));
  m = mask(dwords);
  for (uint32_t cu = 0; cu < dwords * 32; ++cu) EXPECT_EQ(cu < cus_, on(m, cu)) << "CU " << cu;
}

TEST_F(HsaQueueControl, HSA_QUEUE_6_BadArgumentsChangeNothing) {
  record_clause("HSA-QUEUE-6");
  const uint32_t one = 1;
  ASSERT_EQ(HSA_STATUS_SUCCESS, hsa_amd_queue_cu_set_mask(queue_, 32, &one));
  uint32_t out[2] = {};
  EXPECT_EQ(HSA_STATUS_ERROR_INVALID_ARGUMENT, hsa_amd_queue_cu_set_mask(queue_, 33, &one));
  EXPECT_EQ(HSA_STATUS_ERROR_INVALID_ARGUMENT, hsa_amd_queue_cu_set_mask(queue_, 32, nullptr));
  EXPECT_EQ(HSA_STATUS_ERROR_INVALID_ARGUMENT, hsa_amd_queue_cu_get_mask(queue_, 0, out));
  EXPECT_EQ(HSA_STATUS_ERROR_INVALID_ARGUMENT, hsa_amd_queue_cu_get_mask(queue_, 33, out));
  EXPECT_EQ(HSA_STATUS_ERROR_INVALID_ARGUMENT, hsa_amd_queue_cu_get_mask(queue_, 32, nullptr));
  EXPECT_EQ(HSA_STATUS_ERROR_INVALID_ARGUMENT,
            hsa_amd_queue_set_priority(queue_, static_cast<hsa_amd_queue_priority_t>(3)));
  EXPECT_EQ(HSA_STATUS_ERROR_INVALID_ARGUMENT,
            hsa_amd_queue_set_priority(queue_, static_cast<hsa_amd_queue_priority_t>(-1)));
  EXPECT_EQ(HSA_STATUS_ERROR_INVALID_ARGUMENT, hsa_amd_queue_set_priority(nullptr, HSA_AMD_QUEUE_PRIORITY_HIGH));
  const std::vector<uint32_t> m = mask(1);
  EXPECT_EQ(1u, m[0]);
}

// Every priority hsa_ext_amd.h names is taken; the queue still runs work afterwards.
TEST_F(HsaQueueControl, HSA_QUEUE_6_EveryPriorityIsTaken) {
  record_clause("HSA-QUEUE-6");
  for (hsa_amd_queue_priority_t p :
       {HSA_AMD_QUEUE_PRIORITY_LOW, HSA_AMD_QUEUE_PRIORITY_HIGH, HSA_AMD_QUEUE_PRIORITY_NORMAL}) {
    EXPECT_EQ(HSA_STATUS_SUCCESS, hsa_amd_queue_set_priority(queue_, p)) << p;
  }
  hsa_signal_t done;
  ASSERT_EQ(HSA_STATUS_SUCCESS, hsa_signal_create(1, 0, nullptr, &done));
  const uint64_t id = hsa_queue_add_write_index_relaxed(queue_, 1);
  auto* barrier = static_cast<hsa_barrier_and_packet_t*>(queue_->base_address) + (id % queue_->size);
  std::memset(reinterpret_cast<char*>(barrier) + 4, 0, sizeof *barrier - 4);
  barrier->completion_signal = done;
  const uint16_t header = (HSA_PACKET_TYPE_BARRIER_AND << HSA_PACKET_HEADER_TYPE) |
                          (HSA_FENCE_SCOPE_SYSTEM << HSA_PACKET_HEADER_SCRELEASE_FENCE_SCOPE);
  std::atomic_ref<uint16_t>(barrier->header).store(header, std::memory_order_release);
  hsa_signal_store_screlease(queue_->doorbell_signal, static_cast<hsa_signal_value_t>(id));
  EXPECT_EQ(0, hsa_signal_wait_scacquire(done, HSA_SIGNAL_CONDITION_EQ, 0, UINT64_MAX, HSA_WAIT_STATE_BLOCKED));
  hsa_signal_destroy(done);
}

}  // namespace
}  // namespace hsa_conformance
