// tests/unit/isa/same_source_kernels.hip - one kernel source built two ways (ISA-SEM-2):
// by hipcc's clang for gfx900 (run by the ISA interpreter) and by the host compiler with
// rocref's kernel language (src/hip/include/hip/hip_runtime.h, run by the GPU model's
// work-item fibers). isa_same_source_test.cpp includes this file after that header.
// Only what both give is used: no contraction-sensitive float expressions.
#include <hip/hip_runtime.h>

// Divergent branches, a data-dependent loop, integer division.
extern "C" __global__ void ss_collatz(const int* in, int* out, int n, int k) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  int v = in[i];
  int steps = 0;
  while (v > 1 && steps < 64) {
    // Wrapping arithmetic in both builds: unsigned, converted back (modular since C++20).
    v = (v & 1) ? static_cast<int>(3u * static_cast<unsigned>(v) + static_cast<unsigned>(k)) : v / 2;
    ++steps;
  }
  out[i] = (in[i] < 0 ? in[i] / (k | 1) : in[i] % (k | 1)) * 7 + steps;
}

// A reduction through LDS with barriers, one sum per work-group of 256.
extern "C" __global__ void ss_block_sum(const int* in, int* out, int n) {
  __shared__ int tile[256];
  unsigned t = threadIdx.x;
  unsigned i = blockIdx.x * blockDim.x + t;
  tile[t] = i < (unsigned)n ? in[i] : 0;
  __syncthreads();
  for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
    if (t < s) tile[t] += tile[t + s];
    __syncthreads();
  }
  if (t == 0) out[blockIdx.x] = tile[0];
}

// Global atomics from every lane.
extern "C" __global__ void ss_histogram(const unsigned* in, unsigned* bins, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    atomicAdd(&bins[(in[i] >> 3) % 32], 1u);
    atomicMax(&bins[32], in[i] % 1000003u);
  }
}

// Byte and halfword extraction (SDWA on gfx900), 64-bit products and addressing.
extern "C" __global__ void ss_bytes(const unsigned* in, unsigned long long* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    unsigned v = in[i];
    unsigned char b1 = v >> 8, b3 = v >> 24;
    signed char s2 = (signed char)(v >> 16);
    short w0 = (short)v;
    unsigned long long wide = (unsigned long long)v * (unsigned)(b1 + 1);
    out[(long long)n - 1 - i] = wide + (unsigned long long)(long long)(s2 * w0) + (b3 ^ b1);
  }
}

// IEEE-rounded float operations, one rounding each (no a * b + c to contract).
extern "C" __global__ void ss_float(const float* x, float* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float m = fminf(x[i] * 3.0f, 100.0f);
    y[i] = fmaxf(m, -50.0f) - fabsf(x[i]) / 7.0f;
  }
}
