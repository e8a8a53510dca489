// tests/conformance/hip/hip_kernel_ext_test.cpp - launch bounds, function attributes, occupancy, launch lists, symbols, call configuration, modules (HIP-LNC-5..9, HIP-SYM-1, HIP-REG-1, HIP-MOD-1).
#include <cstdint>
#include <cstring>
#include <vector>

#include "hip_suite.h"

__device__ int g_counter;
__device__ float g_table[16];

namespace hip_suite {
namespace {

__global__ void __launch_bounds__(64) bounded_fill(int* out) {
  out[blockIdx.x * blockDim.x + threadIdx.x] = static_cast<int>(threadIdx.x);
}

__global__ void unbounded_fill(int* out) { out[blockIdx.x * blockDim.x + threadIdx.x] = 1; }

__global__ void bump_counter(int n) {
  if (threadIdx.x == 0 && blockIdx.x == 0) g_counter += n;
}

TEST(HipLaunch, HIP_LNC_5_LaunchAboveTheBoundFails) {
  HIP_CLAUSE("HIP-LNC-5");
  int* d = nullptr;
  ASSERT_HIP_OK(hipMalloc(reinterpret_cast<void**>(&d), 256 * sizeof(int)));
  hipGetLastError();
  hipLaunchKernelGGL(bounded_fill, dim3(2), dim3(64), 0, 0, d);
  ASSERT_HIP_OK(hipGetLastError());
  ASSERT_HIP_OK(hipDeviceSynchronize());
  hipLaunchKernelGGL(bounded_fill, dim3(1), dim3(128), 0, 0, d);
  EXPECT_HIP(hipErrorLaunchFailure, hipGetLastError());
  hipLaunchKernelGGL(unbounded_fill, dim3(1), dim3(128), 0, 0, d);
  EXPECT_HIP(hipSuccess, hipGetLastError());
  ASSERT_HIP_OK(hipDeviceSynchronize());
  hipFuncAttributes attr;
  ASSERT_HIP_OK(hipFuncGetAttributes(&attr, HIP_SUITE_KERNEL(bounded_fill)));
  EXPECT_EQ(attr.maxThreadsPerBlock, 64);
  ASSERT_HIP_OK(hipFuncGetAttributes(&attr, HIP_SUITE_KERNEL(unbounded_fill)));
  EXPECT_GE(attr.maxThreadsPerBlock, 256);
  ASSERT_HIP_OK(hipFree(d));
}

TEST(HipLaunch, HIP_LNC_6_OccupancyRespectsBoundsAndSharedMemory) {
  HIP_CLAUSE("HIP-LNC-6");
  int blocks = -1;
  ASSERT_HIP_OK(hipOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, HIP_SUITE_KERNEL(unbounded_fill), 256, 0));
  EXPECT_GE(blocks, 1);
  int with_lds = -1;
  hipDeviceProp_t p;
  ASSERT_HIP_OK(hipGetDeviceProperties(&p, 0));
  ASSERT_HIP_OK(hipOccupancyMaxActiveBlocksPerMultiprocessor(&with_lds, HIP_SUITE_KERNEL(unbounded_fill), 256,
                                                             p.sharedMemPerBlock));
  EXPECT_EQ(with_lds, 1);  // one block fills the CU's LDS
  int grid = 0, block = 0;
  ASSERT_HIP_OK(hipOccupancyMaxPotentialBlockSize(&grid, &block, HIP_SUITE_KERNEL(bounded_fill), 0, 0));
  EXPECT_GT(block, 0);
  EXPECT_LE(block, 64);
  EXPECT_GE(grid, p.multiProcessorCount);
  EXPECT_HIP(hipErrorInvalidValue,
             hipOccupancyMaxActiveBlocksPerMultiprocessor(nullptr, HIP_SUITE_KERNEL(unbounded_fill), 256, 0));
  hipGetLastError();
}

TEST(HipLaunch, HIP_LNC_7_FunctionAttributesCanBeSet) {
  HIP_CLAUSE("HIP-LNC-7");
  hipFuncAttributes attr;
  ASSERT_HIP_OK(hipFuncGetAttributes(&attr, HIP_SUITE_KERNEL(unbounded_fill)));  // typed: known from here on
  ASSERT_HIP_OK(hipFuncSetCacheConfig(reinterpret_cast<const void*>(&unbounded_fill), hipFuncCachePreferL1));
  ASSERT_HIP_OK(hipFuncSetAttribute(reinterpret_cast<const void*>(&unbounded_fill),
                                    hipFuncAttributeMaxDynamicSharedMemorySize, 1024));
  ASSERT_HIP_OK(hipFuncGetAttributes(&attr, reinterpret_cast<const void*>(&unbounded_fill)));
  EXPECT_EQ(attr.maxDynamicSharedSizeBytes, 1024);
  int not_a_kernel = 0;
  EXPECT_HIP(hipErrorInvalidDeviceFunction, hipFuncGetAttributes(&attr, &not_a_kernel));
  hipGetLastError();
}

__global__ void shared_fill(int* out) { out[threadIdx.x] = 2; }

// A launch right after hipFuncSetAttribute sees the new limit, though the kernel launched before it.
TEST(HipLaunch, HIP_LNC_7_SetAttributeLimitsTheNextLaunch) {
  HIP_CLAUSE("HIP-LNC-7");
  int* d = nullptr;
  ASSERT_HIP_OK(hipMalloc(reinterpret_cast<void**>(&d), 64 * sizeof(int)));
  hipGetLastError();
  hipLaunchKernelGGL(shared_fill, dim3(1), dim3(64), 2048, 0, d);
  ASSERT_HIP_OK(hipGetLastError());
  ASSERT_HIP_OK(hipDeviceSynchronize());
  ASSERT_HIP_OK(hipFuncSetAttribute(reinterpret_cast<const void*>(&shared_fill),
                                    hipFuncAttributeMaxDynamicSharedMemorySize, 1024));
  hipLaunchKernelGGL(shared_fill, dim3(1), dim3(64), 2048, 0, d);
  EXPECT_HIP(hipErrorInvalidValue, hipGetLastError());
  hipLaunchKernelGGL(shared_fill, dim3(1), dim3(64), 1024, 0, d);
  EXPECT_HIP(hipSuccess, hipGetLastError());
  ASSERT_HIP_OK(hipFuncSetAttribute(reinterpret_cast<const void*>(&shared_fill),
                                    hipFuncAttributeMaxDynamicSharedMemorySize, 4096));
  hipLaunchKernelGGL(shared_fill, dim3(1), dim3(64), 2048, 0, d);
  EXPECT_HIP(hipSuccess, hipGetLastError());
  ASSERT_HIP_OK(hipDeviceSynchronize());
  ASSERT_HIP_OK(hipFree(d));
}

#if HIP_SUITE_AMD_API
TEST(HipLaunch, HIP_LNC_9_LaunchListsOnePerDevice) {
  HIP_CLAUSE("HIP-LNC-9");
  int devices = 0;
  ASSERT_HIP_OK(hipGetDeviceCount(&devices));
  constexpr int n = 256;
  int* out = nullptr;
  ASSERT_HIP_OK(hipMalloc(reinterpret_cast<void**>(&out), n * sizeof(int)));
  ASSERT_HIP_OK(hipMemset(out, 0, n * sizeof(int)));
  // A typed launch first: rocref's C entry points know kernels launched that way (HIP-LNC-4).
  hipLaunchKernelGGL(unbounded_fill, dim3(1), dim3(1), 0, 0, out);
  ASSERT_HIP_OK(hipDeviceSynchronize());
  ASSERT_HIP_OK(hipMemset(out, 0, n * sizeof(int)));
  hipStream_t stream = nullptr;
  ASSERT_HIP_OK(hipStreamCreate(&stream));
  void* args[] = {&out};
  hipLaunchParams list[2] = {};
  list[0].func = reinterpret_cast<void*>(&unbounded_fill);
  list[0].gridDim = dim3(n / 64);
  list[0].blockDim = dim3(64);
  list[0].args = args;
  list[0].stream = stream;
  // Without the no-post-sync flag the call returns with the kernels complete.
  ASSERT_HIP_OK(hipExtLaunchMultiKernelMultiDevice(list, 1, 0));
  std::vector<int> back(n, 0);
  ASSERT_HIP_OK(hipMemcpy(back.data(), out, n * sizeof(int), hipMemcpyDeviceToHost));
  EXPECT_EQ(back, std::vector<int>(n, 1));
  ASSERT_HIP_OK(hipMemset(out, 0, n * sizeof(int)));
  ASSERT_HIP_OK(hipLaunchCooperativeKernelMultiDevice(list, 1, 0));
  ASSERT_HIP_OK(hipMemcpy(back.data(), out, n * sizeof(int), hipMemcpyDeviceToHost));
  EXPECT_EQ(back, std::vector<int>(n, 1));
  // More entries than devices, an empty block, and a missing stream are refused.
  list[1] = list[0];
  EXPECT_HIP(hipErrorInvalidValue, hipExtLaunchMultiKernelMultiDevice(list, devices + 1, 0));
  EXPECT_HIP(hipErrorInvalidValue, hipExtLaunchMultiKernelMultiDevice(nullptr, 1, 0));
  list[0].blockDim = dim3(0);
  EXPECT_HIP(hipErrorInvalidConfiguration, hipExtLaunchMultiKernelMultiDevice(list, 1, 0));
  list[0].blockDim = dim3(64);
  list[0].stream = nullptr;
  EXPECT_HIP(hipErrorInvalidResourceHandle, hipLaunchCooperativeKernelMultiDevice(list, 1, 0));
  if (devices >= 2) {
    // Two entries on one device's streams.
    list[0].stream = stream;
    list[1].stream = stream;
    EXPECT_HIP(hipErrorInvalidDevice, hipExtLaunchMultiKernelMultiDevice(list, 2, 0));
  }
  ASSERT_HIP_OK(hipStreamDestroy(stream));
  ASSERT_HIP_OK(hipFree(out));
  hipGetLastError();
}
#endif  // HIP_SUITE_AMD_API

TEST(HipSymbol, HIP_SYM_1_DeviceVariablesByAddress) {
  HIP_CLAUSE("HIP-SYM-1");
  const int five = 5;
  ASSERT_HIP_OK(hipMemcpyToSymbol(HIP_SYMBOL(g_counter), &five, sizeof five));
  hipLaunchKernelGGL(bump_counter, dim3(1), dim3(64), 0, 0, 10);
  ASSERT_HIP_OK(hipDeviceSynchronize());
  int back = 0;
  ASSERT_HIP_OK(hipMemcpyFromSymbol(&back, HIP_SYMBOL(g_counter), sizeof back));
  EXPECT_EQ(back, 15);
  size_t size = 0;
  ASSERT_HIP_OK(hipGetSymbolSize(&size, HIP_SYMBOL(g_table)));
  EXPECT_EQ(size, sizeof(g_table));
  void* address = nullptr;
  ASSERT_HIP_OK(hipGetSymbolAddress(&address, HIP_SYMBOL(g_table)));
  EXPECT_NE(address, nullptr);
  const float values[2] = {1.5f, 2.5f};
  ASSERT_HIP_OK(hipMemcpyToSymbol(HIP_SYMBOL(g_table), values, sizeof values, 8 * sizeof(float)));
  float got[2] = {};
  ASSERT_HIP_OK(hipMemcpyFromSymbol(got, HIP_SYMBOL(g_table), sizeof got, 8 * sizeof(float)));
  EXPECT_EQ(got[1], 2.5f);
  EXPECT_HIP(hipErrorInvalidValue, hipMemcpyToSymbol(HIP_SYMBOL(g_table), values, sizeof values, 15 * sizeof(float)));
  hipGetLastError();
}

#if HIP_SUITE_AMD_API
TEST(HipRegistration, HIP_REG_1_CallConfigurationIsAStack) {
  HIP_CLAUSE("HIP-REG-1");
  ASSERT_HIP_OK(__hipPushCallConfiguration(dim3(4, 2, 1), dim3(64, 1, 1), 128, nullptr));
  ASSERT_HIP_OK(__hipPushCallConfiguration(dim3(8, 1, 1), dim3(32, 2, 1), 0, nullptr));
  dim3 grid, block;
  size_t shared = 1;
  hipStream_t stream = reinterpret_cast<hipStream_t>(1);
  ASSERT_HIP_OK(__hipPopCallConfiguration(&grid, &block, &shared, &stream));
  EXPECT_EQ(grid.x, 8u);
  EXPECT_EQ(block.y, 2u);
  EXPECT_EQ(shared, 0u);
  EXPECT_EQ(stream, nullptr);
  ASSERT_HIP_OK(__hipPopCallConfiguration(&grid, &block, &shared, &stream));
  EXPECT_EQ(grid.y, 2u);
  EXPECT_EQ(block.x, 64u);
  EXPECT_EQ(shared, 128u);
}
#endif  // HIP_SUITE_AMD_API

TEST(HipModule, HIP_MOD_1_MalformedImagesAreRejected) {
  HIP_CLAUSE("HIP-MOD-1");
  hipModule_t module = nullptr;
  const char garbage[64] = "not a code object";
  EXPECT_HIP(hipErrorInvalidKernelFile, hipModuleLoadData(&module, garbage));
  EXPECT_HIP(hipErrorFileNotFound, hipModuleLoad(&module, "/nonexistent/kernels.co"));
  EXPECT_HIP(hipErrorInvalidValue, hipModuleLoadData(nullptr, garbage));
  hipGetLastError();
}

}  // namespace
}  // namespace hip_suite
