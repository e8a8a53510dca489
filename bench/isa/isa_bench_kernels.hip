// bench/isa/isa_bench_kernels.hip - kernels for the interpreter benchmark, built by hipcc's clang for gfx900.
#include <hip/hip_runtime.h>

// ALU-bound: a float multiply-add and an integer LCG per iteration, no memory in the loop.
extern "C" __global__ void alu(float* out, int iters) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  float a = static_cast<float>(threadIdx.x);
  unsigned x = threadIdx.x;
  for (int k = 0; k < iters; ++k) {
    a = a * 1.0001f + 0.5f;
    x = x * 1664525u + 1013904223u;
  }
  out[i] = a + static_cast<float>(x);
}

// Memory-bound: two loads, one store per work-item.
extern "C" __global__ void vadd(const float* a, const float* b, float* c, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) c[i] = a[i] + b[i];
}
