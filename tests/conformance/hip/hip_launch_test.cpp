// tests/conformance/hip/hip_launch_test.cpp - kernel launches (HIP-LNC-*).
#include <vector>

#include "hip_suite.h"

namespace hip_suite {
namespace {

struct Coordinates {
  unsigned tx, ty, tz, bx, by, bz, dx, dy, dz, gx, gy, gz;
};

__global__ void record_coordinates(Coordinates* out) {
  const unsigned block = (blockIdx.z * gridDim.y + blockIdx.y) * gridDim.x + blockIdx.x;
  const unsigned thread = (threadIdx.z * blockDim.y + threadIdx.y) * blockDim.x + threadIdx.x;
  const unsigned per_block = blockDim.x * blockDim.y * blockDim.z;
  out[block * per_block + thread] = {threadIdx.x, threadIdx.y, threadIdx.z, blockIdx.x, blockIdx.y, blockIdx.z,
                                     blockDim.x,  blockDim.y,  blockDim.z,  gridDim.x,  gridDim.y,  gridDim.z};
}

__global__ void reverse_in_block(int* data) {
  __shared__ int tile[64];
  const unsigned t = threadIdx.x;
  tile[t] = data[blockIdx.x * 64 + t];
  __syncthreads();
  data[blockIdx.x * 64 + t] = tile[63 - t];
}

__global__ void dynamic_shared_sum(const int* in, int* out) {
  HIP_DYNAMIC_SHARED(int, scratch);
  const unsigned t = threadIdx.x;
  scratch[t] = in[t];
  __syncthreads();
  if (t == 0) {
    int sum = 0;
    for (unsigned i = 0; i < blockDim.x; ++i) sum += scratch[i];
    *out = sum;
  }
}

__global__ void axpy(float a, const float* x, float* y, int n) {
  const int i = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
  if (i < n) y[i] = a * x[i] + y[i];
}

__global__ void noop(int) {}

TEST(HipLaunch, HIP_LNC_1_BadBlockShapesAreInvalidConfiguration) {
  HIP_CLAUSE("HIP-LNC-1");
  hipGetLastError();
  hipLaunchKernelGGL(noop, dim3(1), dim3(0), 0, 0, 1);
  EXPECT_HIP(hipErrorInvalidConfiguration, hipGetLastError());
  hipLaunchKernelGGL(noop, dim3(1), dim3(2048), 0, 0, 1);
  EXPECT_HIP(hipErrorInvalidConfiguration, hipGetLastError());
  hipLaunchKernelGGL(noop, dim3(1), dim3(32, 32, 2), 0, 0, 1);
  EXPECT_HIP(hipErrorInvalidConfiguration, hipGetLastError());
  hipLaunchKernelGGL(noop, dim3(0), dim3(64), 0, 0, 1);
  EXPECT_HIP(hipErrorInvalidConfiguration, hipGetLastError());
  hipLaunchKernelGGL(noop, dim3(1), dim3(1024), 0, 0, 1);
  EXPECT_HIP(hipSuccess, hipGetLastError());
  EXPECT_HIP(hipSuccess, hipDeviceSynchronize());
}

TEST(HipLaunch, HIP_LNC_2_EveryWorkItemSeesItsCoordinates) {
  HIP_CLAUSE("HIP-LNC-2");
  const dim3 grid(3, 2, 2), block(4, 3, 2);
  const unsigned total = 3 * 2 * 2 * 4 * 3 * 2;
  Coordinates* d = nullptr;
  ASSERT_HIP_OK(hipMalloc(reinterpret_cast<void**>(&d), total * sizeof(Coordinates)));
  hipLaunchKernelGGL(record_coordinates, grid, block, 0, 0, d);
  ASSERT_HIP_OK(hipDeviceSynchronize());
  std::vector<Coordinates> h(total);
  ASSERT_HIP_OK(hipMemcpy(h.data(), d, total * sizeof(Coordinates), hipMemcpyDeviceToHost));
  unsigned index = 0;
  for (unsigned bz = 0; bz < 2; ++bz)
    for (unsigned by = 0; by < 2; ++by)
      for (unsigned bx = 0; bx < 3; ++bx)
        for (unsigned tz = 0; tz < 2; ++tz)
          for (unsigned ty = 0; ty < 3; ++ty)
            for (unsigned tx = 0; tx < 4; ++tx) {
              const Coordinates& c = h[index++];
              ASSERT_EQ(c.tx, tx);
              ASSERT_EQ(c.ty, ty);
              ASSERT_EQ(c.tz, tz);
              ASSERT_EQ(c.bx, bx);
              ASSERT_EQ(c.by, by);
              ASSERT_EQ(c.bz, bz);
              ASSERT_EQ(c.dx * c.dy * c.dz, 24u);
              ASSERT_EQ(c.gx * 100 + c.gy * 10 + c.gz, 322u);
            }
  hipFree(d);
}

TEST(HipLaunch, HIP_LNC_3_SharedMemoryAndSyncthreads) {
  HIP_CLAUSE("HIP-LNC-3");
  constexpr int blocks = 4;
  std::vector<int> h(blocks * 64);
  for (int i = 0; i < blocks * 64; ++i) h[i] = i;
  int* d = nullptr;
  ASSERT_HIP_OK(hipMalloc(reinterpret_cast<void**>(&d), h.size() * sizeof(int)));
  ASSERT_HIP_OK(hipMemcpy(d, h.data(), h.size() * sizeof(int), hipMemcpyHostToDevice));
  hipLaunchKernelGGL(reverse_in_block, dim3(blocks), dim3(64), 0, 0, d);
  ASSERT_HIP_OK(hipDeviceSynchronize());
  ASSERT_HIP_OK(hipMemcpy(h.data(), d, h.size() * sizeof(int), hipMemcpyDeviceToHost));
  for (int b = 0; b < blocks; ++b)
    for (int t = 0; t < 64; ++t) ASSERT_EQ(h[b * 64 + t], b * 64 + 63 - t);
  hipFree(d);
}

TEST(HipLaunch, HIP_LNC_3_DynamicSharedMemory) {
  HIP_CLAUSE("HIP-LNC-3");
  std::vector<int> h(128);
  for (int i = 0; i < 128; ++i) h[i] = i;
  int *din = nullptr, *dout = nullptr;
  ASSERT_HIP_OK(hipMalloc(reinterpret_cast<void**>(&din), 128 * sizeof(int)));
  ASSERT_HIP_OK(hipMalloc(reinterpret_cast<void**>(&dout), sizeof(int)));
  ASSERT_HIP_OK(hipMemcpy(din, h.data(), 128 * sizeof(int), hipMemcpyHostToDevice));
  hipLaunchKernelGGL(dynamic_shared_sum, dim3(1), dim3(128), 128 * sizeof(int), 0, din, dout);
  ASSERT_HIP_OK(hipDeviceSynchronize());
  int sum = 0;
  ASSERT_HIP_OK(hipMemcpy(&sum, dout, sizeof(int), hipMemcpyDeviceToHost));
  EXPECT_EQ(sum, 127 * 128 / 2);
  hipFree(din);
  hipFree(dout);
}

TEST(HipLaunch, HIP_LNC_4_LaunchKernelWithArgumentArray) {
  HIP_CLAUSE("HIP-LNC-4");
  constexpr int n = 300;
  std::vector<float> x(n, 2.0f), y(n, 1.0f);
  float *dx = nullptr, *dy = nullptr;
  ASSERT_HIP_OK(hipMalloc(reinterpret_cast<void**>(&dx), n * sizeof(float)));
  ASSERT_HIP_OK(hipMalloc(reinterpret_cast<void**>(&dy), n * sizeof(float)));
  ASSERT_HIP_OK(hipMemcpy(dx, x.data(), n * sizeof(float), hipMemcpyHostToDevice));
  ASSERT_HIP_OK(hipMemcpy(dy, y.data(), n * sizeof(float), hipMemcpyHostToDevice));
  float a = 3.0f;
  int count = n;
  void* args[] = {&a, &dx, &dy, &count};
  ASSERT_HIP_OK(hipLaunchKernel(HIP_SUITE_KERNEL(axpy), dim3((n + 127) / 128), dim3(128), args, 0, nullptr));
  ASSERT_HIP_OK(hipDeviceSynchronize());
  ASSERT_HIP_OK(hipMemcpy(y.data(), dy, n * sizeof(float), hipMemcpyDeviceToHost));
  for (float v : y) ASSERT_EQ(v, 7.0f);
  hipFree(dx);
  hipFree(dy);
}

}  // namespace
}  // namespace hip_suite
