// tests/integration/end_to_end_test.cpp - KFD open to completion event, all through the thunk and ioctls.
//
// The program of issue 4: open the KFD, read the topology, allocate VRAM and map
// it, create an AQL queue (ring in host memory, amd_queue_t, a doorbell signal
// whose hardware doorbell is the thunk's mmapped doorbell page) and an event,
// submit through the hot-path core (QueueRing::submit) and wait for the
// completion event with hsaKmtWaitOnEvent.
#include <hsa/amd_hsa_queue.h>
#include <hsa/amd_hsa_signal.h>
#include <hsakmt.h>

#include <gtest/gtest.h>

#include <atomic>
#include <cstring>

#include "aql_queue_harness.h"
#include "common/aql_packet.h"
#include "common/aql_ring.h"

namespace rocref::integration {
namespace {

TEST(EndToEnd, OpenAllocateMapQueueSubmitAndWaitForTheCompletionEvent) {
  ASSERT_EQ(hsaKmtOpenKFD(), HSAKMT_STATUS_SUCCESS);
  HsaSystemProperties sys{};
  ASSERT_EQ(hsaKmtAcquireSystemProperties(&sys), HSAKMT_STATUS_SUCCESS);
  const uint32_t gpu = find_gpu_node(sys);
  ASSERT_LT(gpu, sys.NumNodes) << "no GPU node in the topology";

  // VRAM, mapped to the GPU and written by the host.
  HsaMemFlags vram{};
  vram.ui32.NonPaged = 1;
  vram.ui32.HostAccess = 1;
  void* buffer = nullptr;
  ASSERT_EQ(hsaKmtAllocMemory(gpu, 1 << 20, vram, &buffer), HSAKMT_STATUS_SUCCESS);
  ASSERT_EQ(hsaKmtMapMemoryToGPU(buffer, 1 << 20, nullptr), HSAKMT_STATUS_SUCCESS);
  std::memset(buffer, 0xab, 4096);

  {
    AqlQueueHarness q(gpu);
    ASSERT_TRUE(q.ok()) << q.error();
    for (int i = 0; i < 3; ++i) {
      q.completion()->value = 1;
      hsa_barrier_and_packet_t packet{};
      packet.header = aql::make_header(HSA_PACKET_TYPE_BARRIER_AND, true, HSA_FENCE_SCOPE_SYSTEM,
                                       HSA_FENCE_SCOPE_SYSTEM);
      packet.completion_signal.handle = reinterpret_cast<uintptr_t>(q.completion());
      const uint64_t id = aql::QueueRing(q.queue()).submit(&packet);
      EXPECT_EQ(id, static_cast<uint64_t>(i));
      EXPECT_EQ(std::atomic_ref<uint64_t>(*q.resource().Queue_DoorBell_aql).load(), id)
          << "the doorbell store lands in the mmapped doorbell page";
      ASSERT_EQ(hsaKmtWaitOnEvent(q.event(), 5000), HSAKMT_STATUS_SUCCESS) << "packet " << i;
      EXPECT_EQ(std::atomic_ref<int64_t>(const_cast<int64_t&>(q.completion()->value)).load(), 0);
      EXPECT_EQ(std::atomic_ref<uint64_t>(const_cast<uint64_t&>(q.queue()->read_dispatch_id)).load(), id + 1);
    }
  }

  EXPECT_EQ(static_cast<uint8_t*>(buffer)[4095], 0xab);
  EXPECT_EQ(hsaKmtUnmapMemoryToGPU(buffer), HSAKMT_STATUS_SUCCESS);
  EXPECT_EQ(hsaKmtFreeMemory(buffer, 1 << 20), HSAKMT_STATUS_SUCCESS);
  EXPECT_EQ(hsaKmtReleaseSystemProperties(), HSAKMT_STATUS_SUCCESS);
  EXPECT_EQ(hsaKmtCloseKFD(), HSAKMT_STATUS_SUCCESS);
}

}  // namespace
}  // namespace rocref::integration
