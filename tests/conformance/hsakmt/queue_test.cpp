// tests/conformance/hsakmt/queue_test.cpp - CreateQueue / UpdateQueue / DestroyQueue / SetQueueCUMask.
#include <atomic>
#include <set>
#include <vector>

#include "hsakmt_fixture.h"

namespace hsakmt_conformance {
namespace {

using Hsakmt_Queue = Hsakmt;

TEST_F(Hsakmt_Queue, AqlQueueGetsAWritableDoorbell) {
  const HsaQueueResource r = make_aql_queue();
  const HSA_QUEUEID id = r.QueueId;  // packed struct: copy 64-bit fields before comparing
  HSAuint64* const doorbell = r.Queue_DoorBell_aql;
  ASSERT_NE(id, 0u);
  ASSERT_NE(doorbell, nullptr);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(doorbell) % 8, 0u) << "64-bit doorbells on gfx9";
  std::atomic_ref<HSAuint64>(*doorbell).store(0, std::memory_order_release);
}

// More user queues than the hardware has slots: the scheduler time-slices them (oversubscription).
TEST_F(Hsakmt_Queue, MoreQueuesThanHardwareSlotsAllSucceed) {
  const uint32_t slots = gpu_.NumCpQueues ? gpu_.NumCpQueues : 8;
  std::set<HSAuint64> doorbells;
  for (uint32_t i = 0; i < slots + 4; ++i) {
    const HsaQueueResource r = make_aql_queue();
    const HSA_QUEUEID id = r.QueueId;
    const HSAuint64 doorbell = r.QueueDoorBell;
    ASSERT_NE(id, 0u) << "queue " << i;
    EXPECT_TRUE(doorbells.insert(doorbell).second) << "queue " << i << " shares a doorbell";
  }
}

TEST_F(Hsakmt_Queue, BadNodeReturnsInvalidNodeUnit) {
  HsaQueueResource r{};
  alignas(4096) static uint8_t ring[4096];
  EXPECT_EQ(hsaKmtCreateQueue(sys_.NumNodes, HSA_QUEUE_COMPUTE_AQL, 100, HSA_QUEUE_PRIORITY_NORMAL, ring,
                              sizeof ring, nullptr, &r),
            HSAKMT_STATUS_INVALID_NODE_UNIT);
}

TEST_F(Hsakmt_Queue, BadPriorityOrTypeReturnsInvalidParameter) {
  HsaQueueResource r{};
  alignas(4096) static uint8_t ring[4096];
  EXPECT_EQ(hsaKmtCreateQueue(gpu_node_, HSA_QUEUE_COMPUTE_AQL, 100, static_cast<HSA_QUEUE_PRIORITY>(4), ring,
                              sizeof ring, nullptr, &r),
            HSAKMT_STATUS_INVALID_PARAMETER);
  EXPECT_EQ(hsaKmtCreateQueue(gpu_node_, HSA_QUEUE_COMPUTE_AQL, 100, static_cast<HSA_QUEUE_PRIORITY>(-4), ring,
                              sizeof ring, nullptr, &r),
            HSAKMT_STATUS_INVALID_PARAMETER);
  EXPECT_EQ(hsaKmtCreateQueue(gpu_node_, static_cast<HSA_QUEUE_TYPE>(77), 100, HSA_QUEUE_PRIORITY_NORMAL, ring,
                              sizeof ring, nullptr, &r),
            HSAKMT_STATUS_INVALID_PARAMETER);
}

TEST_F(Hsakmt_Queue, CpuNodeReturnsError) {
  ROCREF_ONLY("allocates queue buffers on the CPU node before the driver refuses");
  uint32_t cpu = sys_.NumNodes;
  for (uint32_t n = 0; n < sys_.NumNodes && cpu == sys_.NumNodes; ++n) {
    HsaNodeProperties p{};
    ASSERT_EQ(hsaKmtGetNodeProperties(n, &p), HSAKMT_STATUS_SUCCESS);
    if (p.NumFComputeCores == 0) cpu = n;
  }
  if (cpu == sys_.NumNodes) GTEST_SKIP() << "no CPU node";
  HsaQueueResource r{};
  alignas(4096) static uint8_t ring[4096];
  EXPECT_EQ(hsaKmtCreateQueue(cpu, HSA_QUEUE_COMPUTE_AQL, 100, HSA_QUEUE_PRIORITY_NORMAL, ring, sizeof ring,
                              nullptr, &r),
            HSAKMT_STATUS_ERROR);
}

TEST_F(Hsakmt_Queue, DestroyNullReturnsInvalidParameter) {
  EXPECT_EQ(hsaKmtDestroyQueue(0), HSAKMT_STATUS_INVALID_PARAMETER);
}

TEST_F(Hsakmt_Queue, DoubleDestroyReturnsInvalidHandle) {
  ROCREF_ONLY("the queue id is a pointer the library dereferences");
  const HsaQueueResource r = make_aql_queue();
  ASSERT_NE(static_cast<HSA_QUEUEID>(r.QueueId), 0u);
  EXPECT_EQ(hsaKmtDestroyQueue(r.QueueId), HSAKMT_STATUS_SUCCESS);
  EXPECT_EQ(hsaKmtDestroyQueue(r.QueueId), HSAKMT_STATUS_INVALID_HANDLE);
  EXPECT_EQ(hsaKmtDestroyQueue(0xdead0000), HSAKMT_STATUS_INVALID_HANDLE);
}

TEST_F(Hsakmt_Queue, UnknownQueueOrEventReturnsInvalidHandle) {
  ROCREF_ONLY("the queue id and the event are pointers the library dereferences");
  alignas(4096) static uint8_t ring[64 * 256];
  HsaEvent stranger{};  // not made by hsaKmtCreateEvent
  HsaQueueResource r{};
  EXPECT_EQ(hsaKmtCreateQueue(gpu_node_, HSA_QUEUE_COMPUTE_AQL, 100, HSA_QUEUE_PRIORITY_NORMAL, ring, sizeof ring,
                              &stranger, &r),
            HSAKMT_STATUS_INVALID_HANDLE);
  EXPECT_EQ(static_cast<HSA_QUEUEID>(r.QueueId), 0u) << "a refused create fills in nothing";
  const HsaQueueResource q = make_aql_queue();
  ASSERT_NE(static_cast<HSA_QUEUEID>(q.QueueId), 0u);
  ASSERT_EQ(hsaKmtDestroyQueue(q.QueueId), HSAKMT_STATUS_SUCCESS);
  EXPECT_EQ(hsaKmtUpdateQueue(q.QueueId, 50, HSA_QUEUE_PRIORITY_HIGH, ring, sizeof ring, nullptr),
            HSAKMT_STATUS_INVALID_HANDLE);
}

TEST_F(Hsakmt_Queue, UpdateQueueChangesPriorityAndChecksArguments) {
  const HsaQueueResource r = make_aql_queue();
  ASSERT_NE(static_cast<HSA_QUEUEID>(r.QueueId), 0u);
  alignas(4096) static uint8_t ring[64 * 256];  // KFD-Q-7: the CP takes ring base >> 8
  EXPECT_EQ(hsaKmtUpdateQueue(r.QueueId, 50, HSA_QUEUE_PRIORITY_HIGH, ring, sizeof ring, nullptr),
            HSAKMT_STATUS_SUCCESS);
  EXPECT_EQ(hsaKmtUpdateQueue(r.QueueId, 50, static_cast<HSA_QUEUE_PRIORITY>(9), ring, sizeof ring, nullptr),
            HSAKMT_STATUS_INVALID_PARAMETER);
  EXPECT_EQ(hsaKmtUpdateQueue(0, 50, HSA_QUEUE_PRIORITY_HIGH, ring, sizeof ring, nullptr),
            HSAKMT_STATUS_INVALID_PARAMETER);
}

// libhsakmt 5.2.3 stores QueueSize into the ioctl's 32-bit ring_size: the driver judges the
// low 32 bits (KFD-Q-4: a power of two or 0).
TEST_F(Hsakmt_Queue, THUNK_QUEUE_1_UpdateQueueSizeIsPassedInItsLow32Bits) {
  const HsaQueueResource r = make_aql_queue();
  ASSERT_NE(static_cast<HSA_QUEUEID>(r.QueueId), 0u);
  alignas(4096) static uint8_t ring[64 * 256];
  EXPECT_EQ(hsaKmtUpdateQueue(r.QueueId, 50, HSA_QUEUE_PRIORITY_NORMAL, ring, UINT32_MAX, nullptr), HSAKMT_STATUS_ERROR)
      << "0xffffffff is no power of two: the driver's EINVAL";
  EXPECT_EQ(hsaKmtUpdateQueue(r.QueueId, 50, HSA_QUEUE_PRIORITY_NORMAL, ring, (HSAuint64{1} << 32) | sizeof ring,
                              nullptr),
            HSAKMT_STATUS_SUCCESS)
      << "bits above 31 are dropped";
  EXPECT_EQ(hsaKmtUpdateQueue(r.QueueId, 50, HSA_QUEUE_PRIORITY_NORMAL, ring, sizeof ring, nullptr),
            HSAKMT_STATUS_SUCCESS);
}

TEST_F(Hsakmt_Queue, SetCuMaskAllCusSucceeds) {
  const HsaQueueResource r = make_aql_queue();
  ASSERT_NE(static_cast<HSA_QUEUEID>(r.QueueId), 0u);
  const uint32_t cus = gpu_.NumFComputeCores / gpu_.NumSIMDPerCU;
  std::vector<HSAuint32> mask((cus + 31) / 32, 0);
  for (uint32_t i = 0; i < cus; ++i) mask[i / 32] |= 1u << (i % 32);
  EXPECT_EQ(hsaKmtSetQueueCUMask(r.QueueId, static_cast<HSAuint32>(mask.size() * 32), mask.data()),
            HSAKMT_STATUS_SUCCESS);
}

TEST_F(Hsakmt_Queue, SetCuMaskBadCountOrNullReturnsInvalidParameter) {
  const HsaQueueResource r = make_aql_queue();
  ASSERT_NE(static_cast<HSA_QUEUEID>(r.QueueId), 0u);
  HSAuint32 mask[2] = {~0u, ~0u};
  EXPECT_EQ(hsaKmtSetQueueCUMask(r.QueueId, 33, mask), HSAKMT_STATUS_INVALID_PARAMETER);
  EXPECT_EQ(hsaKmtSetQueueCUMask(r.QueueId, 0, mask), HSAKMT_STATUS_INVALID_PARAMETER);
  EXPECT_EQ(hsaKmtSetQueueCUMask(r.QueueId, 32, nullptr), HSAKMT_STATUS_INVALID_PARAMETER);
}

}  // namespace
}  // namespace hsakmt_conformance
