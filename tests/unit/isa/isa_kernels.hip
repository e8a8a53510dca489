// tests/unit/isa/isa_kernels.hip - kernels built by hipcc for gfx900 and run by the ISA interpreter (ISA-SEM-1).
//
// Each has a host twin in isa_semantics_test.cpp; the test compares them on random inputs.
#include <hip/hip_runtime.h>

extern "C" __global__ void vadd(const float* a, const float* b, float* c, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) c[i] = a[i] + b[i];
}

extern "C" __global__ void saxpy(float a, const float* x, float* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i];
}

extern "C" __global__ void reduce(const int* in, int* out, int n) {
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

extern "C" __global__ void histogram(const unsigned* in, unsigned* bins, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    atomicAdd(&bins[in[i] % 16], 1u);
    atomicMax(&bins[16], in[i]);
  }
}

extern "C" __global__ void divergent(const int* in, int* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  int v = in[i];
  int r;
  if (v & 1) r = v * 3 + 1;
  else if (v % 3 == 0) r = v / 3;
  else r = -v;
  int steps = 0;
  while (v > 1 && steps < 100) {
    v = (v & 1) ? 3 * v + 1 : v / 2;
    ++steps;
  }
  out[i] = r + steps;
}

extern "C" __global__ void addr64(const long long* in, long long* out, long long stride, int n) {
  long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i * stride] = in[i] * 3 + (in[i] >> 7) - i;
}

extern "C" __global__ void fmath(const float* x, float* y, double* z, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float v = x[i];
    y[i] = fminf(v, 2.0f) * 0.5f - fmaxf(v, -1.0f) + (float)(int)v + fabsf(v) / (1.0f + v * v);
    z[i] = (double)v * 1.5 + 2.0;
  }
}

// At -O0 the locals live in scratch (private segment): MUBUF with the ABI's scratch V#.
extern "C" __global__ void private_array(const int* in, int* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int local[8];
  for (int k = 0; k < 8; ++k) local[k] = in[(i + k) % n] * (k + 1);
  int sum = 0;
  for (int k = 7; k >= 0; --k) sum = sum * 3 + local[k];
  if (i < n) out[i] = sum;
}
