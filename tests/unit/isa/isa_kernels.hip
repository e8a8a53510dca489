// tests/unit/isa/isa_kernels.hip - kernels built by hipcc for gfx900 and run by the ISA interpreter (ISA-SEM-1).
//
// Each has a host twin in isa_semantics_test.cpp; the test compares them on random inputs.
#include <hip/hip_runtime.h>
#include <hip/hip_fp16.h>

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

// Packed f16 (VOP3P with op_sel, op_sel_hi, neg_lo, neg_hi): hipcc contracts the
// subtraction of a product into a second v_pk_fma_f16.
extern "C" __global__ void half2_math(const __half2* a, const __half2* b, const __half2* c, __half2* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    __half2 x = a[i], y = b[i], z = c[i];
    __half2 r = __hfma2(x, y, z);
    r = __hsub2(r, __hmul2(x, __lowhigh2highlow(z)));
    out[i] = __hadd2(r, __low2half2(y));
  }
}

// Packed 16-bit integers (v_pk_mul_lo_u16, v_pk_add_u16) and an SDWA word select.
extern "C" __global__ void short2_math(const short2* a, const short2* b, short2* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    short2 x = a[i], y = b[i];
    out[i] = make_short2((short)(x.x * y.x + x.y), (short)(x.y * y.y + y.x));
  }
}

// Byte and word extraction: SDWA selects with sign extension (v_mul_i32_i24_sdwa, v_xor_b32_sdwa).
extern "C" __global__ void bytes(const unsigned* in, unsigned* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    unsigned v = in[i];
    unsigned char b0 = v, b1 = v >> 8, b2 = v >> 16, b3 = v >> 24;
    signed char s2 = (signed char)(v >> 16);
    short w1 = (short)(v >> 16);
    out[i] = (unsigned)(b0 * b1) + (b2 ^ b3) * 3u + (unsigned)(int)s2 * (unsigned)w1 + (unsigned)(b3 * (v & 0xffff));
  }
}

// An inclusive prefix sum over each wave of 64 with DPP (row_shr, row_bcast:15/31, row masks).
extern "C" __global__ void dpp_scan(const int* in, int* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int v = i < n ? in[i] : 0;
  v += __builtin_amdgcn_update_dpp(0, v, 0x111, 0xf, 0xf, false);  // row_shr:1
  v += __builtin_amdgcn_update_dpp(0, v, 0x112, 0xf, 0xf, false);  // row_shr:2
  v += __builtin_amdgcn_update_dpp(0, v, 0x114, 0xf, 0xf, false);  // row_shr:4
  v += __builtin_amdgcn_update_dpp(0, v, 0x118, 0xf, 0xf, false);  // row_shr:8
  v += __builtin_amdgcn_update_dpp(0, v, 0x142, 0xa, 0xf, false);  // row_bcast:15 into rows 1 and 3
  v += __builtin_amdgcn_update_dpp(0, v, 0x143, 0xc, 0xf, false);  // row_bcast:31 into rows 2 and 3
  if (i < n) out[i] = v;
}

// ISA-DISP-3: work-group 0 waits (a bounded spin) for a flag the grid's last work-group sets;
// out[0] is 1 when it saw the flag, out[1] counts the work-groups that ran.
extern "C" __global__ void cross_group_flag(unsigned* flag, unsigned* out, unsigned spins) {
  if (threadIdx.x != 0) return;
  if (blockIdx.x == gridDim.x - 1) __hip_atomic_store(flag, 1u, __ATOMIC_RELEASE, __HIP_MEMORY_SCOPE_AGENT);
  if (blockIdx.x == 0) {
    unsigned seen = 0;
    for (unsigned i = 0; i < spins && seen == 0; ++i) {
      seen = __hip_atomic_load(flag, __ATOMIC_ACQUIRE, __HIP_MEMORY_SCOPE_AGENT);
    }
    out[0] = seen;
  }
  atomicAdd(&out[1], 1u);
}
