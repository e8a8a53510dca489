// cli/samples/stream_pipeline.cpp - two streams ordered by events: copy, kernel, copy back.
#include <hip/hip_runtime.h>

#include <cstdio>
#include <vector>

#include "cli/samples/sample.h"

namespace rocref::samples {
namespace {

__global__ void scale(float* data, float factor, int n) {
  const int i = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
  if (i < n) data[i] *= factor;
}

}  // namespace

SampleResult run_stream_pipeline() {
  constexpr int kN = 2048;
  std::vector<float> host(kN), back(kN, 0.0f);
  for (int i = 0; i < kN; ++i) host[i] = static_cast<float>(i);
  float *pinned = nullptr, *device = nullptr;
  hipStream_t copy_stream = nullptr, compute_stream = nullptr;
  hipEvent_t uploaded = nullptr, computed = nullptr, start = nullptr, stop = nullptr;
  if (hipHostMalloc(reinterpret_cast<void**>(&pinned), kN * sizeof(float), 0) != hipSuccess ||
      hipMalloc(reinterpret_cast<void**>(&device), kN * sizeof(float)) != hipSuccess ||
      hipStreamCreate(&copy_stream) != hipSuccess || hipStreamCreate(&compute_stream) != hipSuccess ||
      hipEventCreate(&uploaded) != hipSuccess || hipEventCreate(&computed) != hipSuccess ||
      hipEventCreate(&start) != hipSuccess || hipEventCreate(&stop) != hipSuccess) {
    return {false, "setup failed"};
  }
  for (int i = 0; i < kN; ++i) pinned[i] = host[i];
  (void)hipEventRecord(start, copy_stream);
  (void)hipMemcpyAsync(device, pinned, kN * sizeof(float), hipMemcpyHostToDevice, copy_stream);
  (void)hipEventRecord(uploaded, copy_stream);
  (void)hipStreamWaitEvent(compute_stream, uploaded, 0);
  hipLaunchKernelGGL(scale, dim3(kN / 256), dim3(256), 0, compute_stream, device, 3.0f, kN);
  (void)hipEventRecord(computed, compute_stream);
  (void)hipStreamWaitEvent(copy_stream, computed, 0);
  (void)hipMemcpyAsync(pinned, device, kN * sizeof(float), hipMemcpyDeviceToHost, copy_stream);
  (void)hipEventRecord(stop, copy_stream);
  if (hipError_t e = hipStreamSynchronize(copy_stream); e != hipSuccess) {
    return {false, std::string("hipStreamSynchronize: ") + hipGetErrorName(e)};
  }
  float ms = -1.0f;
  const hipError_t timing = hipEventElapsedTime(&ms, start, stop);
  for (int i = 0; i < kN; ++i) back[i] = pinned[i];
  (void)hipEventDestroy(uploaded);
  (void)hipEventDestroy(computed);
  (void)hipEventDestroy(start);
  (void)hipEventDestroy(stop);
  (void)hipStreamDestroy(copy_stream);
  (void)hipStreamDestroy(compute_stream);
  (void)hipFree(device);
  (void)hipHostFree(pinned);
  for (int i = 0; i < kN; ++i) {
    if (back[i] != 3.0f * static_cast<float>(i)) {
      char text[96];
      std::snprintf(text, sizeof text, "element %d = %g, expected %g", i, back[i], 3.0 * i);
      return {false, text};
    }
  }
  if (timing != hipSuccess || ms <= 0.0f) return {false, std::string("hipEventElapsedTime: ") + hipGetErrorName(timing)};
  char text[96];
  std::snprintf(text, sizeof text, "%d elements through 2 streams, %.3f ms between first and last event", kN, ms);
  return {true, text};
}

}  // namespace rocref::samples
