// tests/conformance/hip/hip_memory_ext_test.cpp - registration, pointer attributes, 2D/3D, arrays, typed fills, peers (HIP-MEM-8..15, HIP-PEER-1).
#include <sys/mman.h>

#include <cstdint>
#include <numeric>
#include <vector>

#include "hip_suite.h"

namespace hip_suite {
namespace {

TEST(HipMemory, HIP_MEM_8_HostRegisterAndMappedPointers) {
  HIP_CLAUSE("HIP-MEM-8");
  std::vector<int> host(1024, 7);
  ASSERT_HIP_OK(hipHostRegister(host.data(), host.size() * sizeof(int), hipHostRegisterDefault));
  EXPECT_HIP(hipErrorHostMemoryAlreadyRegistered, hipHostRegister(host.data(), 64, hipHostRegisterDefault));
  void* mapped = nullptr;
  ASSERT_HIP_OK(hipHostGetDevicePointer(&mapped, host.data(), 0));
  EXPECT_NE(mapped, nullptr);
  // Registered memory takes part in copies like pinned memory.
  int* d = nullptr;
  ASSERT_HIP_OK(hipMalloc(reinterpret_cast<void**>(&d), 1024 * sizeof(int)));
  ASSERT_HIP_OK(hipMemcpy(d, host.data(), 1024 * sizeof(int), hipMemcpyHostToDevice));
  std::vector<int> back(1024, 0);
  ASSERT_HIP_OK(hipMemcpy(back.data(), d, 1024 * sizeof(int), hipMemcpyDeviceToHost));
  EXPECT_EQ(back, host);
  // The device reaches registered memory: a fill writes it.
  ASSERT_HIP_OK(hipMemset(host.data() + 1, 0x11, 2 * sizeof(int)));
  ASSERT_HIP_OK(hipDeviceSynchronize());
  EXPECT_EQ(host[0], 7);
  EXPECT_EQ(host[1], 0x11111111);
  EXPECT_EQ(host[2], 0x11111111);
  EXPECT_EQ(host[3], 7);
  ASSERT_HIP_OK(hipHostUnregister(host.data()));
  EXPECT_HIP(hipErrorHostMemoryNotRegistered, hipHostUnregister(host.data()));
  EXPECT_HIP(hipErrorInvalidValue, hipHostRegister(nullptr, 64, 0));
  // hipHostMalloc memory reports its flags and maps to a device pointer.
  void* pinned = nullptr;
  ASSERT_HIP_OK(hipHostMalloc(&pinned, 256, hipHostMallocMapped));
  unsigned flags = 0;
  ASSERT_HIP_OK(hipHostGetFlags(&flags, pinned));
  EXPECT_NE(flags & hipHostMallocMapped, 0u);
  ASSERT_HIP_OK(hipHostGetDevicePointer(&mapped, pinned, 0));
  EXPECT_NE(mapped, nullptr);
  EXPECT_HIP(hipErrorInvalidValue, hipHostGetDevicePointer(&mapped, pinned, 1));
  ASSERT_HIP_OK(hipHostFree(pinned));
  ASSERT_HIP_OK(hipFree(d));
  hipGetLastError();
}

TEST(HipMemory, HIP_MEM_9_PointerAttributesAndMemoryInfo) {
  HIP_CLAUSE("HIP-MEM-9");
  void* d = nullptr;
  void* h = nullptr;
  ASSERT_HIP_OK(hipMalloc(&d, 4096));
  ASSERT_HIP_OK(hipHostMalloc(&h, 4096, 0));
  hipPointerAttribute_t a;
  ASSERT_HIP_OK(hipPointerGetAttributes(&a, static_cast<char*>(d) + 100));
  EXPECT_EQ(a.memoryType, hipMemoryTypeDevice);
  EXPECT_EQ(a.device, 0);
  ASSERT_HIP_OK(hipPointerGetAttributes(&a, h));
  EXPECT_EQ(a.memoryType, hipMemoryTypeHost);
  EXPECT_EQ(a.hostPointer, h);
  int local = 0;
  EXPECT_HIP(hipErrorInvalidValue, hipPointerGetAttributes(&a, &local));
  EXPECT_HIP(hipErrorInvalidValue, hipPointerGetAttributes(nullptr, d));
  hipDeviceptr_t base{};
  size_t size = 0;
  ASSERT_HIP_OK(hipMemGetAddressRange(&base, &size, reinterpret_cast<hipDeviceptr_t>(static_cast<char*>(d) + 10)));
  EXPECT_EQ(reinterpret_cast<void*>(base), d);
  EXPECT_EQ(size, 4096u);
  size_t free_before = 0, total = 0, free_after = 0;
  ASSERT_HIP_OK(hipMemGetInfo(&free_before, &total));
  void* big = nullptr;
  ASSERT_HIP_OK(hipMalloc(&big, 8 << 20));
  ASSERT_HIP_OK(hipMemGetInfo(&free_after, &total));
  EXPECT_LE(free_after + (8 << 20), free_before + 0);
  ASSERT_HIP_OK(hipFree(big));
  ASSERT_HIP_OK(hipFree(d));
  ASSERT_HIP_OK(hipHostFree(h));
  hipGetLastError();
}

TEST(HipMemory, HIP_MEM_10_PitchedAnd2DCopiesKeepRows) {
  HIP_CLAUSE("HIP-MEM-10");
  constexpr size_t kWidth = 100, kHeight = 8;  // bytes per row, rows
  void* d = nullptr;
  size_t pitch = 0;
  ASSERT_HIP_OK(hipMallocPitch(&d, &pitch, kWidth, kHeight));
  EXPECT_GE(pitch, kWidth);
  std::vector<uint8_t> host(kWidth * kHeight);
  std::iota(host.begin(), host.end(), 0);
  ASSERT_HIP_OK(hipMemset2D(d, pitch, 0xEE, kWidth, kHeight));
  ASSERT_HIP_OK(hipMemcpy2D(d, pitch, host.data(), kWidth, kWidth - 10, kHeight, hipMemcpyHostToDevice));
  std::vector<uint8_t> back(kWidth * kHeight, 0);
  ASSERT_HIP_OK(hipMemcpy2D(back.data(), kWidth, d, pitch, kWidth, kHeight, hipMemcpyDeviceToHost));
  for (size_t y = 0; y < kHeight; ++y) {
    for (size_t x = 0; x < kWidth; ++x) {
      const uint8_t want = x < kWidth - 10 ? host[y * kWidth + x] : 0xEE;
      ASSERT_EQ(back[y * kWidth + x], want) << "row " << y << " column " << x;
    }
  }
  EXPECT_HIP(hipErrorInvalidPitchValue,
             hipMemcpy2D(back.data(), 10, d, pitch, kWidth, kHeight, hipMemcpyDeviceToHost));  // width > pitch
  ASSERT_HIP_OK(hipFree(d));
  hipGetLastError();
}

hipError_t copy_3d(hipPitchedPtr src, hipPitchedPtr dst, hipExtent extent, hipMemcpyKind kind) {
  hipMemcpy3DParms parms = {};
  parms.srcPtr = src;
  parms.dstPtr = dst;
  parms.extent = extent;
  parms.kind = kind;
  return hipMemcpy3D(&parms);
}

TEST(HipMemory, HIP_MEM_10_Malloc3DAndMemcpy3D) {
  HIP_CLAUSE("HIP-MEM-10");
  const hipExtent extent = make_hipExtent(16, 4, 3);  // bytes, rows, slices
  hipPitchedPtr p;
  ASSERT_HIP_OK(hipMalloc3D(&p, extent));
  EXPECT_GE(p.pitch, extent.width);
  ASSERT_HIP_OK(hipMemset3D(p, 0, extent));
  std::vector<uint8_t> host(16 * 4 * 3), back(16 * 4 * 3, 0xFF);
  std::iota(host.begin(), host.end(), 1);
  ASSERT_HIP_OK(copy_3d(make_hipPitchedPtr(host.data(), 16, 16, 4), p, extent, hipMemcpyHostToDevice));
  ASSERT_HIP_OK(copy_3d(p, make_hipPitchedPtr(back.data(), 16, 16, 4), extent, hipMemcpyDeviceToHost));
  EXPECT_EQ(back, host);
  ASSERT_HIP_OK(hipFree(p.ptr));
}

// Two small host buffers in one page, the second running into the next page, as a heap places
// them. AMD's runtime locks each buffer's pages for a 3D copy, so the second lock covers a page
// the first already holds beside a fresh one: that must work like any other copy.
TEST(HipMemory, HIP_MEM_10_Memcpy3DHostBuffersSharingAPage) {
  HIP_CLAUSE("HIP-MEM-10");
  constexpr size_t kPage = 4096, kBytes = 16 * 4 * 3;
  void* pages = mmap(nullptr, 2 * kPage, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  ASSERT_NE(pages, MAP_FAILED);
  auto* host = static_cast<uint8_t*>(pages) + 256;
  auto* back = static_cast<uint8_t*>(pages) + kPage - kBytes / 2;  // crosses into the second page
  std::iota(host, host + kBytes, 1);
  std::fill(back, back + kBytes, 0xFF);
  const hipExtent extent = make_hipExtent(16, 4, 3);
  hipPitchedPtr p;
  ASSERT_HIP_OK(hipMalloc3D(&p, extent));
  ASSERT_HIP_OK(copy_3d(make_hipPitchedPtr(host, 16, 16, 4), p, extent, hipMemcpyHostToDevice));
  ASSERT_HIP_OK(copy_3d(p, make_hipPitchedPtr(back, 16, 16, 4), extent, hipMemcpyDeviceToHost));
  EXPECT_EQ(std::vector<uint8_t>(back, back + kBytes), std::vector<uint8_t>(host, host + kBytes));
  ASSERT_HIP_OK(hipFree(p.ptr));
  munmap(pages, 2 * kPage);
}

TEST(HipMemory, HIP_MEM_11_ArraysHoldRowsOfElements) {
  HIP_CLAUSE("HIP-MEM-11");
  hipChannelFormatDesc desc = hipCreateChannelDesc(32, 0, 0, 0, hipChannelFormatKindFloat);
  hipArray* array = nullptr;
  ASSERT_HIP_OK(hipMallocArray(&array, &desc, 8, 4, 0));
  std::vector<float> host(8 * 4), back(8 * 4, 0);
  std::iota(host.begin(), host.end(), 0.5f);
  ASSERT_HIP_OK(hipMemcpy2DToArray(array, 0, 0, host.data(), 8 * sizeof(float), 8 * sizeof(float), 4,
                                   hipMemcpyHostToDevice));
  ASSERT_HIP_OK(hipMemcpy2DFromArray(back.data(), 8 * sizeof(float), array, 0, 0, 8 * sizeof(float), 4,
                                     hipMemcpyDeviceToHost));
  EXPECT_EQ(back, host);
  hipChannelFormatDesc got = {};
  ASSERT_HIP_OK(hipGetChannelDesc(&got, array));
  EXPECT_EQ(got.x, 32);
  EXPECT_EQ(got.f, hipChannelFormatKindFloat);
  ASSERT_HIP_OK(hipFreeArray(array));
  EXPECT_HIP(hipErrorInvalidValue, hipMallocArray(&array, nullptr, 8, 4, 0));
  hipGetLastError();
}

TEST(HipMemory, HIP_MEM_12_ManagedAdviceAndPrefetch) {
  HIP_CLAUSE("HIP-MEM-12");
  int* m = nullptr;
  ASSERT_HIP_OK(hipMallocManaged(reinterpret_cast<void**>(&m), 4096, hipMemAttachGlobal));
  ASSERT_HIP_OK(hipMemAdvise(m, 4096, hipMemAdviseSetReadMostly, 0));
  ASSERT_HIP_OK(hipMemPrefetchAsync(m, 4096, 0, nullptr));
  ASSERT_HIP_OK(hipStreamSynchronize(nullptr));
  m[0] = 5;  // still host accessible after the prefetch
  EXPECT_EQ(m[0], 5);
  int device = 0;
  EXPECT_HIP(hipErrorInvalidValue, hipMemAdvise(nullptr, 4096, hipMemAdviseSetReadMostly, 0));
  EXPECT_HIP(hipErrorInvalidDevice, hipMemPrefetchAsync(m, 4096, 99, nullptr));
  (void)device;
  ASSERT_HIP_OK(hipFree(m));
  hipGetLastError();
}

TEST(HipMemory, HIP_MEM_13_TypedFillsWriteWholeElements) {
  HIP_CLAUSE("HIP-MEM-13");
  void* d = nullptr;
  ASSERT_HIP_OK(hipMalloc(&d, 64));
  uint16_t halves[32];
  ASSERT_HIP_OK(hipMemsetD16(reinterpret_cast<hipDeviceptr_t>(d), 0xBEEF, 32));
  ASSERT_HIP_OK(hipMemcpy(halves, d, sizeof halves, hipMemcpyDeviceToHost));
  for (uint16_t h : halves) ASSERT_EQ(h, 0xBEEF);
  uint8_t bytes[64];
  ASSERT_HIP_OK(hipMemsetD8(reinterpret_cast<hipDeviceptr_t>(d), 0x5A, 64));
  ASSERT_HIP_OK(hipMemcpy(bytes, d, sizeof bytes, hipMemcpyDeviceToHost));
  for (uint8_t b : bytes) ASSERT_EQ(b, 0x5A);
  uint32_t words[16];
  ASSERT_HIP_OK(hipMemsetD32Async(reinterpret_cast<hipDeviceptr_t>(d), 0x01020304, 16, nullptr));
  ASSERT_HIP_OK(hipStreamSynchronize(nullptr));
  ASSERT_HIP_OK(hipMemcpy(words, d, sizeof words, hipMemcpyDeviceToHost));
  for (uint32_t w : words) ASSERT_EQ(w, 0x01020304u);
  ASSERT_HIP_OK(hipFree(d));
}

TEST(HipMemory, HIP_MEM_14_StreamOrderedAllocation) {
  HIP_CLAUSE("HIP-MEM-14");
  hipStream_t s;
  ASSERT_HIP_OK(hipStreamCreate(&s));
  void* d = nullptr;
  ASSERT_HIP_OK(hipMallocAsync(&d, 1024, s));
  ASSERT_NE(d, nullptr);
  ASSERT_HIP_OK(hipMemsetAsync(d, 3, 1024, s));
  uint8_t back[1024];
  ASSERT_HIP_OK(hipMemcpyAsync(back, d, sizeof back, hipMemcpyDeviceToHost, s));
  ASSERT_HIP_OK(hipFreeAsync(d, s));
  ASSERT_HIP_OK(hipStreamSynchronize(s));
  for (uint8_t b : back) ASSERT_EQ(b, 3);
  EXPECT_HIP(hipErrorInvalidValue, hipMallocAsync(nullptr, 16, s));
  ASSERT_HIP_OK(hipStreamDestroy(s));
  hipGetLastError();
}

#if HIP_SUITE_AMD_API
TEST(HipMemory, HIP_MEM_15_PoolsChargeTheirAllocations) {
  HIP_CLAUSE("HIP-MEM-15");
  hipMemPool_t default_pool = nullptr, current = nullptr;
  ASSERT_HIP_OK(hipDeviceGetDefaultMemPool(&default_pool, 0));
  ASSERT_HIP_OK(hipDeviceGetMemPool(&current, 0));
  EXPECT_EQ(current, default_pool);
  hipMemPoolProps props = {};
  props.allocType = hipMemAllocationTypePinned;
  props.handleTypes = hipMemHandleTypeNone;
  props.location.type = hipMemLocationTypeDevice;
  props.location.id = 0;
  hipMemPool_t pool = nullptr;
  ASSERT_HIP_OK(hipMemPoolCreate(&pool, &props));
  hipStream_t s;
  ASSERT_HIP_OK(hipStreamCreate(&s));
  void* p = nullptr;
  ASSERT_HIP_OK(hipMallocFromPoolAsync(&p, 1 << 20, pool, s));
  uint64_t used = 0, high = 0;
  ASSERT_HIP_OK(hipMemPoolGetAttribute(pool, hipMemPoolAttrUsedMemCurrent, &used));
  EXPECT_GE(used, uint64_t{1} << 20);
  ASSERT_HIP_OK(hipFreeAsync(p, s));
  ASSERT_HIP_OK(hipStreamSynchronize(s));
  ASSERT_HIP_OK(hipMemPoolGetAttribute(pool, hipMemPoolAttrUsedMemCurrent, &used));
  EXPECT_EQ(used, 0u);
  ASSERT_HIP_OK(hipMemPoolGetAttribute(pool, hipMemPoolAttrUsedMemHigh, &high));
  EXPECT_GE(high, uint64_t{1} << 20);
  uint64_t threshold = 4096, got = 0;
  ASSERT_HIP_OK(hipMemPoolSetAttribute(pool, hipMemPoolAttrReleaseThreshold, &threshold));
  ASSERT_HIP_OK(hipMemPoolGetAttribute(pool, hipMemPoolAttrReleaseThreshold, &got));
  EXPECT_EQ(got, threshold);
  hipMemLocation location = {hipMemLocationTypeDevice, 0};
  hipMemAccessFlags flags = hipMemAccessFlagsProtNone;
  ASSERT_HIP_OK(hipMemPoolGetAccess(&flags, pool, &location));
  EXPECT_EQ(flags, hipMemAccessFlagsProtReadWrite);
  ASSERT_HIP_OK(hipMemPoolTrimTo(pool, 0));
  props.allocType = hipMemAllocationTypeInvalid;
  hipMemPool_t bad = nullptr;
  EXPECT_HIP(hipErrorInvalidValue, hipMemPoolCreate(&bad, &props));
  ASSERT_HIP_OK(hipMemPoolDestroy(pool));
  ASSERT_HIP_OK(hipStreamDestroy(s));
  hipGetLastError();
}
#endif  // HIP_SUITE_AMD_API

TEST(HipPeer, HIP_PEER_1_OneDeviceHasNoPeer) {
  HIP_CLAUSE("HIP-PEER-1");
  int count = 0;
  ASSERT_HIP_OK(hipGetDeviceCount(&count));
  int can = -1;
  ASSERT_HIP_OK(hipDeviceCanAccessPeer(&can, 0, 0));
  EXPECT_EQ(can, 0);  // a device is not its own peer
  EXPECT_HIP(hipErrorInvalidDevice, hipDeviceCanAccessPeer(&can, 0, count));
  EXPECT_HIP(hipErrorInvalidValue, hipDeviceCanAccessPeer(nullptr, 0, 0));
  EXPECT_HIP(hipErrorInvalidDevice, hipDeviceEnablePeerAccess(0, 0));
  // A peer copy within one device is a device-to-device copy.
  void* a = nullptr;
  void* b = nullptr;
  ASSERT_HIP_OK(hipMalloc(&a, 256));
  ASSERT_HIP_OK(hipMalloc(&b, 256));
  ASSERT_HIP_OK(hipMemset(a, 9, 256));
  ASSERT_HIP_OK(hipMemcpyPeer(b, 0, a, 0, 256));
  uint8_t back[256];
  ASSERT_HIP_OK(hipMemcpy(back, b, 256, hipMemcpyDeviceToHost));
  for (uint8_t v : back) ASSERT_EQ(v, 9);
  ASSERT_HIP_OK(hipFree(a));
  ASSERT_HIP_OK(hipFree(b));
  hipGetLastError();
}

}  // namespace
}  // namespace hip_suite
