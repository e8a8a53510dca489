// cli/samples/reduction.cpp - a work-group reduction in __shared__ memory with __syncthreads().
#include <hip/hip_runtime.h>

#include <cstdio>
#include <vector>

#include "cli/samples/sample.h"

namespace rocref::samples {
namespace {

constexpr unsigned kBlock = 128;

__global__ void block_sum(const int* in, int* block_sums, int n) {
  __shared__ int partial[kBlock];
  const unsigned t = threadIdx.x;
  const unsigned i = blockIdx.x * blockDim.x + t;
  partial[t] = i < static_cast<unsigned>(n) ? in[i] : 0;
  __syncthreads();
  for (unsigned stride = blockDim.x / 2; stride > 0; stride /= 2) {
    if (t < stride) partial[t] += partial[t + stride];
    __syncthreads();
  }
  if (t == 0) block_sums[blockIdx.x] = partial[0];
}

}  // namespace

SampleResult run_reduction() {
  constexpr int kN = 8192;
  constexpr int kBlocks = kN / kBlock;
  std::vector<int> in(kN);
  long long expected = 0;
  for (int i = 0; i < kN; ++i) {
    in[i] = (i * 7) % 13 - 6;
    expected += in[i];
  }
  int *din = nullptr, *dsums = nullptr;
  if (hipMalloc(reinterpret_cast<void**>(&din), kN * sizeof(int)) != hipSuccess ||
      hipMalloc(reinterpret_cast<void**>(&dsums), kBlocks * sizeof(int)) != hipSuccess) {
    return {false, "hipMalloc failed"};
  }
  (void)hipMemcpy(din, in.data(), kN * sizeof(int), hipMemcpyHostToDevice);
  hipLaunchKernelGGL(block_sum, dim3(kBlocks), dim3(kBlock), 0, 0, din, dsums, kN);
  if (hipError_t e = hipDeviceSynchronize(); e != hipSuccess) return {false, std::string("kernel: ") + hipGetErrorName(e)};
  std::vector<int> sums(kBlocks);
  (void)hipMemcpy(sums.data(), dsums, kBlocks * sizeof(int), hipMemcpyDeviceToHost);
  (void)hipFree(din);
  (void)hipFree(dsums);
  long long total = 0;
  for (int s : sums) total += s;
  char text[96];
  std::snprintf(text, sizeof text, "sum of %d values = %lld (expected %lld) over %d work-groups", kN, total, expected,
                kBlocks);
  return {total == expected, text};
}

}  // namespace rocref::samples
