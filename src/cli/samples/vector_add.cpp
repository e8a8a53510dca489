// cli/samples/vector_add.cpp - the hipLaunchKernel flow of the seeds, end to end.
#include <hip/hip_runtime.h>

#include <cstdio>
#include <vector>

#include "cli/samples/sample.h"

namespace rocref::samples {
namespace {

__global__ void vector_add(const float* a, const float* b, float* c, int n) {
  const int i = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
  if (i < n) c[i] = a[i] + b[i];
}

SampleResult fail(const char* what, hipError_t e) { return {false, std::string(what) + ": " + hipGetErrorName(e)}; }

}  // namespace

SampleResult run_vector_add() {
  constexpr int kN = 4096;
  std::vector<float> a(kN), b(kN), c(kN, 0.0f);
  for (int i = 0; i < kN; ++i) {
    a[i] = static_cast<float>(i);
    b[i] = 2.0f * static_cast<float>(i);
  }
  float *da = nullptr, *db = nullptr, *dc = nullptr;
  if (hipError_t e = hipMalloc(reinterpret_cast<void**>(&da), kN * sizeof(float)); e != hipSuccess) return fail("hipMalloc", e);
  if (hipError_t e = hipMalloc(reinterpret_cast<void**>(&db), kN * sizeof(float)); e != hipSuccess) return fail("hipMalloc", e);
  if (hipError_t e = hipMalloc(reinterpret_cast<void**>(&dc), kN * sizeof(float)); e != hipSuccess) return fail("hipMalloc", e);
  if (hipError_t e = hipMemcpy(da, a.data(), kN * sizeof(float), hipMemcpyHostToDevice); e != hipSuccess) return fail("hipMemcpy", e);
  if (hipError_t e = hipMemcpy(db, b.data(), kN * sizeof(float), hipMemcpyHostToDevice); e != hipSuccess) return fail("hipMemcpy", e);
  hipLaunchKernelGGL(vector_add, dim3(kN / 256), dim3(256), 0, 0, da, db, dc, kN);
  if (hipError_t e = hipGetLastError(); e != hipSuccess) return fail("hipLaunchKernelGGL", e);
  if (hipError_t e = hipDeviceSynchronize(); e != hipSuccess) return fail("hipDeviceSynchronize", e);
  if (hipError_t e = hipMemcpy(c.data(), dc, kN * sizeof(float), hipMemcpyDeviceToHost); e != hipSuccess) return fail("hipMemcpy", e);
  (void)hipFree(da);
  (void)hipFree(db);
  (void)hipFree(dc);
  for (int i = 0; i < kN; ++i) {
    if (c[i] != 3.0f * static_cast<float>(i)) {
      char text[96];
      std::snprintf(text, sizeof text, "c[%d] = %g, expected %g", i, c[i], 3.0 * i);
      return {false, text};
    }
  }
  return {true, "4096 sums correct"};
}

}  // namespace rocref::samples
