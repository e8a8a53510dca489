// tests/conformance/hsakmt/ipc_test.cpp - hsaKmtShareMemory and hsaKmtRegisterSharedHandle(ToNodes) (THUNK-IPC-*).
//
// One process here: the handle is registered back into the process that shared it, which
// libhsakmt allows (the driver's import makes a second buffer over the same pages at a new
// VA). Across processes: tests/integration_foreign's IPC program.
#include <cstring>

#include "hsakmt_fixture.h"

namespace hsakmt_conformance {
namespace {

class Hsakmt_Ipc : public Hsakmt {};

constexpr uint64_t kSize = 64 * 1024;

TEST_F(Hsakmt_Ipc, THUNK_IPC_1_THUNK_IPC_2_SharedVramRegistersAtANewAddressOverTheSamePages) {
  auto* mem = static_cast<uint32_t*>(alloc_vram(kSize));
  ASSERT_NE(mem, nullptr);
  for (uint32_t i = 0; i < kSize / 4; ++i) mem[i] = 0x1000 + i;
  HsaSharedMemoryHandle h{};
  ASSERT_EQ(hsaKmtShareMemory(mem, kSize, &h), HSAKMT_STATUS_SUCCESS);
  EXPECT_EQ(h[6], kSize / 4096) << "libhsakmt keeps the size in pages in word 6";
  EXPECT_NE(h[7], 0u) << "and the exporting GPU's gpu_id in word 7";
  void* addr = nullptr;
  HSAuint64 size = 0;
  ASSERT_EQ(hsaKmtRegisterSharedHandle(&h, &addr, &size), HSAKMT_STATUS_SUCCESS);
  ASSERT_NE(addr, nullptr);
  EXPECT_NE(addr, static_cast<void*>(mem));
  EXPECT_EQ(size, kSize);
  auto* seen = static_cast<uint32_t*>(addr);
  bool same = true;
  for (uint32_t i = 0; i < kSize / 4; ++i) same = same && seen[i] == 0x1000 + i;
  EXPECT_TRUE(same) << "the registered handle maps the shared buffer's pages";
  seen[3] = 0xabcdef;
  EXPECT_EQ(mem[3], 0xabcdefu);
  HSAuint64 alt = 0;
  EXPECT_EQ(hsaKmtMapMemoryToGPU(addr, size, &alt), HSAKMT_STATUS_SUCCESS);
  EXPECT_EQ(hsaKmtUnmapMemoryToGPU(addr), HSAKMT_STATUS_SUCCESS);
  EXPECT_EQ(hsaKmtDeregisterMemory(addr), HSAKMT_STATUS_SUCCESS) << "deregistering releases the import";
  EXPECT_EQ(hsaKmtDeregisterMemory(addr), HSAKMT_STATUS_MEMORY_NOT_REGISTERED);
  EXPECT_EQ(mem[3], 0xabcdefu) << "the shared buffer is untouched";
  // Sharing again gives the same driver handle (the buffer has one export).
  HsaSharedMemoryHandle again{};
  ASSERT_EQ(hsaKmtShareMemory(mem, kSize, &again), HSAKMT_STATUS_SUCCESS);
  EXPECT_EQ(std::memcmp(again, h, 16), 0);
}

TEST_F(Hsakmt_Ipc, THUNK_IPC_2_RegisterToNodesMapsOnThoseNodes) {
  void* mem = alloc_vram(kSize);
  ASSERT_NE(mem, nullptr);
  HsaSharedMemoryHandle h{};
  ASSERT_EQ(hsaKmtShareMemory(mem, kSize, &h), HSAKMT_STATUS_SUCCESS);
  HSAuint32 nodes[1] = {gpu_node_};
  void* addr = nullptr;
  HSAuint64 size = 0;
  ASSERT_EQ(hsaKmtRegisterSharedHandleToNodes(&h, &addr, &size, 1, nodes), HSAKMT_STATUS_SUCCESS);
  HsaMemMapFlags mf{};
  HSAuint64 alt = 0;
  EXPECT_EQ(hsaKmtMapMemoryToGPUNodes(addr, size, &alt, mf, 1, nodes), HSAKMT_STATUS_SUCCESS);
  EXPECT_EQ(hsaKmtUnmapMemoryToGPU(addr), HSAKMT_STATUS_SUCCESS);
  EXPECT_EQ(hsaKmtDeregisterMemory(addr), HSAKMT_STATUS_SUCCESS);
}

TEST_F(Hsakmt_Ipc, THUNK_IPC_2_RegisterToAnUnknownNodeIsInvalidNodeUnit) {
  // libhsakmt 5.2.3's validate_nodeid_array frees the gpu_id array on a bad node and
  // hsaKmtRegisterSharedHandleToNodes frees it again: glibc aborts ("double free").
  ROCREF_ONLY("libhsakmt 5.2.3 frees the node array twice on an unknown node and aborts");
  void* mem = alloc_vram(kSize);
  ASSERT_NE(mem, nullptr);
  HsaSharedMemoryHandle h{};
  ASSERT_EQ(hsaKmtShareMemory(mem, kSize, &h), HSAKMT_STATUS_SUCCESS);
  void* addr = nullptr;
  HSAuint64 size = 0;
  HSAuint32 bad[1] = {sys_.NumNodes + 3};
  EXPECT_EQ(hsaKmtRegisterSharedHandleToNodes(&h, &addr, &size, 1, bad), HSAKMT_STATUS_INVALID_NODE_UNIT);
  EXPECT_EQ(hsaKmtRegisterSharedHandleToNodes(&h, &addr, &size, 1, nullptr), HSAKMT_STATUS_INVALID_PARAMETER);
}

TEST_F(Hsakmt_Ipc, THUNK_IPC_1_ShareChecksItsArguments) {
  auto* mem = static_cast<uint8_t*>(alloc_vram(kSize));
  ASSERT_NE(mem, nullptr);
  HsaSharedMemoryHandle h{};
  EXPECT_EQ(hsaKmtShareMemory(mem, kSize, nullptr), HSAKMT_STATUS_INVALID_PARAMETER);
  EXPECT_EQ(hsaKmtShareMemory(mem, uint64_t{1} << 44, &h), HSAKMT_STATUS_INVALID_PARAMETER) << "2^32 pages";
  EXPECT_EQ(hsaKmtShareMemory(mem + 4096, kSize - 4096, &h), HSAKMT_STATUS_INVALID_PARAMETER) << "not a buffer start";
  int local = 0;
  EXPECT_EQ(hsaKmtShareMemory(&local, 4096, &h), HSAKMT_STATUS_INVALID_PARAMETER) << "not the thunk's memory";
  // Paged system memory is a userptr buffer, which the driver will not export (-EPERM).
  void* sys = alloc_system(kSize);
  ASSERT_NE(sys, nullptr);
  EXPECT_EQ(hsaKmtShareMemory(sys, kSize, &h), HSAKMT_STATUS_ERROR);
}

TEST_F(Hsakmt_Ipc, THUNK_IPC_2_AForgedOrStaleHandleIsAnErrorAndRegistersNothing) {
  void* mem = alloc_vram(kSize);
  ASSERT_NE(mem, nullptr);
  HsaSharedMemoryHandle h{};
  ASSERT_EQ(hsaKmtShareMemory(mem, kSize, &h), HSAKMT_STATUS_SUCCESS);
  HsaSharedMemoryHandle forged;
  std::memcpy(forged, h, sizeof(forged));
  forged[2] ^= 0x40;
  void* addr = nullptr;
  HSAuint64 size = 0;
  EXPECT_EQ(hsaKmtRegisterSharedHandle(&forged, &addr, &size), HSAKMT_STATUS_ERROR);
  EXPECT_EQ(hsaKmtRegisterSharedHandle(nullptr, &addr, &size), HSAKMT_STATUS_INVALID_PARAMETER);
  // The last buffer over the pages freed: the handle is stale.
  ASSERT_EQ(hsaKmtFreeMemory(mem, kSize), HSAKMT_STATUS_SUCCESS);
  EXPECT_EQ(hsaKmtRegisterSharedHandle(&h, &addr, &size), HSAKMT_STATUS_ERROR);
}

}  // namespace
}  // namespace hsakmt_conformance
