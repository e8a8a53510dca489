// tests/conformance/hip/hip_memory_test.cpp - allocation, copies and fills (HIP-MEM-*).
#include <cstdint>
#include <vector>

#include "hip_suite.h"

namespace hip_suite {
namespace {

__global__ void add_one(int* data, int n) {
  const int i = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
  if (i < n) data[i] += 1;
}

TEST(HipMemory, HIP_MEM_1_MallocGivesUsableDeviceMemory) {
  HIP_CLAUSE("HIP-MEM-1");
  int* d = nullptr;
  ASSERT_HIP_OK(hipMalloc(reinterpret_cast<void**>(&d), 1024 * sizeof(int)));
  ASSERT_NE(d, nullptr);
  std::vector<int> h(1024, 41), back(1024, 0);
  ASSERT_HIP_OK(hipMemcpy(d, h.data(), 1024 * sizeof(int), hipMemcpyHostToDevice));
  hipLaunchKernelGGL(add_one, dim3(4), dim3(256), 0, 0, d, 1024);
  ASSERT_HIP_OK(hipDeviceSynchronize());
  ASSERT_HIP_OK(hipMemcpy(back.data(), d, 1024 * sizeof(int), hipMemcpyDeviceToHost));
  EXPECT_EQ(back, std::vector<int>(1024, 42));
  EXPECT_HIP(hipSuccess, hipFree(d));
}

TEST(HipMemory, HIP_MEM_1_MallocBadArguments) {
  HIP_CLAUSE("HIP-MEM-1");
  EXPECT_HIP(hipErrorInvalidValue, hipMalloc(nullptr, 64));
  void* p = reinterpret_cast<void*>(0x1);
  EXPECT_HIP(hipSuccess, hipMalloc(&p, 0));
  EXPECT_EQ(p, nullptr);
  void* huge = nullptr;
  EXPECT_HIP(hipErrorOutOfMemory, hipMalloc(&huge, size_t{1} << 50));
  hipGetLastError();
}

TEST(HipMemory, HIP_MEM_2_MemcpyEveryKindMovesTheBytes) {
  HIP_CLAUSE("HIP-MEM-2");
  const size_t n = 3 * 4096 + 17;  // several blit chunks and a ragged tail
  std::vector<uint8_t> src(n), dst(n, 0);
  for (size_t i = 0; i < n; ++i) src[i] = static_cast<uint8_t>(i * 31 + 7);
  uint8_t *d1 = nullptr, *d2 = nullptr;
  ASSERT_HIP_OK(hipMalloc(reinterpret_cast<void**>(&d1), n));
  ASSERT_HIP_OK(hipMalloc(reinterpret_cast<void**>(&d2), n));
  ASSERT_HIP_OK(hipMemcpy(d1, src.data(), n, hipMemcpyHostToDevice));
  ASSERT_HIP_OK(hipMemcpy(d2, d1, n, hipMemcpyDeviceToDevice));
  ASSERT_HIP_OK(hipMemcpy(dst.data(), d2, n, hipMemcpyDeviceToHost));
  EXPECT_EQ(dst, src);
  std::vector<uint8_t> again(n, 0);
  ASSERT_HIP_OK(hipMemcpy(again.data(), d1, n, hipMemcpyDefault));
  EXPECT_EQ(again, src);
  std::vector<uint8_t> host_copy(n, 0);
  ASSERT_HIP_OK(hipMemcpy(host_copy.data(), src.data(), n, hipMemcpyHostToHost));
  EXPECT_EQ(host_copy, src);
  hipFree(d1);
  hipFree(d2);
}

TEST(HipMemory, HIP_MEM_2_MemcpyBadArguments) {
  HIP_CLAUSE("HIP-MEM-2");
  int* d = nullptr;
  ASSERT_HIP_OK(hipMalloc(reinterpret_cast<void**>(&d), 64));
  int h[16] = {};
  EXPECT_HIP(hipErrorInvalidMemcpyDirection, hipMemcpy(d, h, 64, static_cast<hipMemcpyKind>(7)));
  EXPECT_HIP(hipErrorInvalidValue, hipMemcpy(nullptr, h, 64, hipMemcpyHostToDevice));
  EXPECT_HIP(hipErrorInvalidValue, hipMemcpy(h, nullptr, 64, hipMemcpyDeviceToHost));
  EXPECT_HIP(hipSuccess, hipMemcpy(d, h, 0, hipMemcpyHostToDevice));
  hipFree(d);
  hipGetLastError();
}

TEST(HipMemory, HIP_MEM_3_FreeRules) {
  HIP_CLAUSE("HIP-MEM-3");
  EXPECT_HIP(hipSuccess, hipFree(nullptr));
  int on_stack = 0;
  EXPECT_HIP(hipErrorInvalidValue, hipFree(&on_stack));
  void* d = nullptr;
  ASSERT_HIP_OK(hipMalloc(&d, 256));
  EXPECT_HIP(hipSuccess, hipFree(d));
  EXPECT_HIP(hipErrorInvalidValue, hipFree(d));  // double free
  hipGetLastError();
}

TEST(HipMemory, HIP_MEM_4_CopyPastTheEndOfAnAllocationIsRejected) {
  HIP_CLAUSE("HIP-MEM-4");
  uint8_t* d = nullptr;
  ASSERT_HIP_OK(hipMalloc(reinterpret_cast<void**>(&d), 100));
  std::vector<uint8_t> h(200, 1);
  EXPECT_HIP(hipErrorInvalidValue, hipMemcpy(d, h.data(), 200, hipMemcpyHostToDevice));
  EXPECT_HIP(hipErrorInvalidValue, hipMemcpy(h.data(), d + 50, 51, hipMemcpyDeviceToHost));
  EXPECT_HIP(hipSuccess, hipMemcpy(h.data(), d + 50, 50, hipMemcpyDeviceToHost));
  hipFree(d);
  hipGetLastError();
}

TEST(HipMemory, HIP_MEM_5_MemsetFillsBytes) {
  HIP_CLAUSE("HIP-MEM-5");
  const size_t n = 10000;
  uint8_t* d = nullptr;
  ASSERT_HIP_OK(hipMalloc(reinterpret_cast<void**>(&d), n));
  ASSERT_HIP_OK(hipMemset(d, 0xab, n));
  ASSERT_HIP_OK(hipMemsetAsync(d + 10, 0x11, 5, 0));
  ASSERT_HIP_OK(hipDeviceSynchronize());
  std::vector<uint8_t> h(n, 0);
  ASSERT_HIP_OK(hipMemcpy(h.data(), d, n, hipMemcpyDeviceToHost));
  for (size_t i = 0; i < n; ++i) ASSERT_EQ(h[i], (i >= 10 && i < 15) ? 0x11 : 0xab) << i;
  EXPECT_HIP(hipErrorInvalidValue, hipMemset(nullptr, 0, 16));
  hipFree(d);
  hipGetLastError();
}

// Byte and 32-bit fills at aligned and unaligned starts with ragged ends, each at least one
// 8-byte word long (a shorter unaligned fill is MemsetFillsBytes' second case).
TEST(HipMemory, HIP_MEM_5_MemsetFormsFillExactlyTheirRange) {
  HIP_CLAUSE("HIP-MEM-5");
  const size_t n = 4096;
  uint8_t* d = nullptr;
  ASSERT_HIP_OK(hipMalloc(reinterpret_cast<void**>(&d), n));
  std::vector<uint8_t> want(n, 0x5a);
  ASSERT_HIP_OK(hipMemset(d, 0x5a, n));
  const auto bytes = [&](size_t at, uint8_t v, size_t count) {
    for (size_t i = 0; i < count; ++i) want[at + i] = v;
  };
  const auto dwords = [&](size_t at, uint32_t v, size_t count) {
    for (size_t i = 0; i < count * 4; ++i) want[at + i] = static_cast<uint8_t>(v >> (8 * (i % 4)));
  };
  ASSERT_HIP_OK(hipMemset(d + 3, 0xc3, 1000));
  bytes(3, 0xc3, 1000);
  ASSERT_HIP_OK(hipMemsetAsync(d + 1101, 0x7e, 37, 0));
  bytes(1101, 0x7e, 37);
  ASSERT_HIP_OK(
      hipMemsetD32(reinterpret_cast<hipDeviceptr_t>(d + 2052), 0x01020304, 101));  // 4 past an 8-byte boundary
  dwords(2052, 0x01020304, 101);
  ASSERT_HIP_OK(
      hipMemsetD32(reinterpret_cast<hipDeviceptr_t>(d + 3000), static_cast<int>(0xdeadbeefu), 7));  // ends 4 past one
  dwords(3000, 0xdeadbeefu, 7);
  ASSERT_HIP_OK(hipDeviceSynchronize());
  std::vector<uint8_t> h(n, 0);
  ASSERT_HIP_OK(hipMemcpy(h.data(), d, n, hipMemcpyDeviceToHost));
  for (size_t i = 0; i < n; ++i) ASSERT_EQ(h[i], want[i]) << i;
  hipFree(d);
}

TEST(HipMemory, HIP_MEM_6_HostMallocIsUsableByKernels) {
  HIP_CLAUSE("HIP-MEM-6");
  int* h = nullptr;
  ASSERT_HIP_OK(hipHostMalloc(reinterpret_cast<void**>(&h), 256 * sizeof(int), 0));
  for (int i = 0; i < 256; ++i) h[i] = i;
  hipLaunchKernelGGL(add_one, dim3(1), dim3(256), 0, 0, h, 256);
  ASSERT_HIP_OK(hipDeviceSynchronize());
  for (int i = 0; i < 256; ++i) ASSERT_EQ(h[i], i + 1);
  EXPECT_HIP(hipSuccess, hipHostFree(h));
  EXPECT_HIP(hipSuccess, hipHostFree(nullptr));
  void* p = nullptr;
  EXPECT_HIP(hipErrorInvalidValue, hipHostMalloc(&p, 64, hipHostMallocCoherent | hipHostMallocNonCoherent));
  void* d = nullptr;
  ASSERT_HIP_OK(hipMalloc(&d, 64));
  EXPECT_HIP(hipErrorInvalidValue, hipHostFree(d));  // device memory is not host memory
  hipFree(d);
  hipGetLastError();
}

TEST(HipMemory, HIP_MEM_7_ManagedMemoryIsSharedWithKernels) {
  HIP_CLAUSE("HIP-MEM-7");
  int* m = nullptr;
  ASSERT_HIP_OK(hipMallocManaged(reinterpret_cast<void**>(&m), 64 * sizeof(int), hipMemAttachGlobal));
  for (int i = 0; i < 64; ++i) m[i] = 2 * i;
  hipLaunchKernelGGL(add_one, dim3(1), dim3(64), 0, 0, m, 64);
  ASSERT_HIP_OK(hipDeviceSynchronize());
  for (int i = 0; i < 64; ++i) ASSERT_EQ(m[i], 2 * i + 1);
  hipFree(m);
  void* p = nullptr;
  EXPECT_HIP(hipErrorInvalidValue, hipMallocManaged(&p, 64, 0));
  hipGetLastError();
}

}  // namespace
}  // namespace hip_suite
