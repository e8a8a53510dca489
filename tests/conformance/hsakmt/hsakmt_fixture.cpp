// tests/conformance/hsakmt/hsakmt_fixture.cpp - shared set-up for the hsakmt.h conformance suite.
#include "hsakmt_fixture.h"

#include <cstring>

namespace hsakmt_conformance {

constexpr uint64_t kRingBytes = 64 * 256;  // 256 AQL packets

void Hsakmt::SetUp() {
  const HSAKMT_STATUS st = hsaKmtOpenKFD();
  if (st != HSAKMT_STATUS_SUCCESS) {
#if defined(ROCREF_HSAKMT_REQUIRE_KFD)
    FAIL() << "hsaKmtOpenKFD returned " << st << " on an implementation that has a KFD";
#else
    GTEST_SKIP() << "no KFD here (hsaKmtOpenKFD returned " << st << ")";
#endif
  }
  opened_ = true;
  ASSERT_EQ(hsaKmtAcquireSystemProperties(&sys_), HSAKMT_STATUS_SUCCESS);
  for (uint32_t n = 0; n < sys_.NumNodes; ++n) {
    HsaNodeProperties props{};
    ASSERT_EQ(hsaKmtGetNodeProperties(n, &props), HSAKMT_STATUS_SUCCESS);
    if (props.NumFComputeCores > 0) {
      gpu_node_ = n;
      gpu_ = props;
      return;
    }
  }
  FAIL() << "the topology has no GPU node";
}

void Hsakmt::TearDown() {
  if (!opened_) return;
  for (HSA_QUEUEID q : queues_) hsaKmtDestroyQueue(q);
  for (HsaEvent* e : events_) hsaKmtDestroyEvent(e);
  for (const Buffer& b : buffers_) {
    hsaKmtUnmapMemoryToGPU(b.address);
    hsaKmtFreeMemory(b.address, b.size);
  }
  hsaKmtReleaseSystemProperties();
  EXPECT_EQ(hsaKmtCloseKFD(), HSAKMT_STATUS_SUCCESS);
}

HsaMemFlags Hsakmt::vram_flags() {
  HsaMemFlags f{};
  f.ui32.NonPaged = 1;
  f.ui32.HostAccess = 1;
  f.ui32.PageSize = HSA_PAGE_SIZE_4KB;
  return f;
}

HsaMemFlags Hsakmt::system_flags() {
  HsaMemFlags f{};
  f.ui32.HostAccess = 1;
  f.ui32.PageSize = HSA_PAGE_SIZE_4KB;
  return f;
}

void* Hsakmt::alloc(uint32_t node, uint64_t size, HsaMemFlags flags) {
  void* mem = nullptr;
  const HSAKMT_STATUS st = hsaKmtAllocMemory(node, size, flags, &mem);
  EXPECT_EQ(st, HSAKMT_STATUS_SUCCESS);
  if (st != HSAKMT_STATUS_SUCCESS) return nullptr;
  buffers_.push_back({mem, size});
  return mem;
}

void* Hsakmt::alloc_vram(uint64_t size) { return alloc(gpu_node_, size, vram_flags()); }
void* Hsakmt::alloc_system(uint64_t size) { return alloc(0, size, system_flags()); }

HsaEvent* Hsakmt::make_event(bool manual_reset, bool signaled) {
  HsaEventDescriptor d{};
  d.EventType = HSA_EVENTTYPE_SIGNAL;
  d.NodeId = gpu_node_;
  HsaEvent* e = nullptr;
  EXPECT_EQ(hsaKmtCreateEvent(&d, manual_reset, signaled, &e), HSAKMT_STATUS_SUCCESS);
  if (e) events_.push_back(e);
  return e;
}

HsaQueueResource Hsakmt::make_aql_queue(HSA_QUEUE_PRIORITY priority) {
  // As ROCR does: ring and queue descriptor in GPU-mapped system memory. The descriptor has
  // amd_queue_t's layout (amd_hsa_queue.h): hsa_queue_t.base_address @8, size @24 (packets),
  // write_dispatch_id @56, read_dispatch_id @128; the read/write pointers point into it.
  HsaQueueResource r{};
  auto* ring = static_cast<uint8_t*>(alloc_system(kRingBytes + 4096));
  if (!ring) return r;
  EXPECT_EQ(hsaKmtMapMemoryToGPU(ring, kRingBytes + 4096, nullptr), HSAKMT_STATUS_SUCCESS);
  uint8_t* desc = ring + kRingBytes;
  const uint64_t base = reinterpret_cast<uintptr_t>(ring);
  const uint32_t packets = kRingBytes / 64;
  std::memcpy(desc + 8, &base, sizeof base);
  std::memcpy(desc + 24, &packets, sizeof packets);
  r.QueueRptrValue = reinterpret_cast<uintptr_t>(desc + 128);
  r.QueueWptrValue = reinterpret_cast<uintptr_t>(desc + 56);
  const HSAKMT_STATUS st =
      hsaKmtCreateQueue(gpu_node_, HSA_QUEUE_COMPUTE_AQL, 100, priority, ring, kRingBytes, nullptr, &r);
  EXPECT_EQ(st, HSAKMT_STATUS_SUCCESS);
  if (st == HSAKMT_STATUS_SUCCESS) queues_.push_back(static_cast<HSA_QUEUEID>(r.QueueId));
  return r;
}

}  // namespace hsakmt_conformance
