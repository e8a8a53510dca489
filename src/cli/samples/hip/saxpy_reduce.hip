// cli/samples/hip/saxpy_reduce.hip - the default sample of `rocref run`, built by Debian's hipcc for gfx900.
//
// An ordinary HIP program: its kernels are real gfx900 code objects, which rocref's drop-in
// libamdhip64 launches through the command layer, HSA runtime, thunk and KFD model onto the GPU
// model's ISA interpreter. It checks every result against the host, prints one line per check
// and exits 0 only when all are equal.
#include <hip/hip_runtime.h>

#include <cstdio>
#include <vector>

namespace {

constexpr int kN = 1 << 14;
constexpr int kBlock = 256;

__global__ void saxpy(float a, const float* x, float* y, int n) {
  const int i = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
  if (i < n) y[i] = a * x[i] + y[i];
}

// One sum per work-group: a tree in LDS, __syncthreads between its levels.
__global__ void block_sums(const int* in, int* out, int n) {
  __shared__ int part[kBlock];
  const int i = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
  part[threadIdx.x] = i < n ? in[i] : 0;
  __syncthreads();
  for (unsigned stride = blockDim.x / 2; stride > 0; stride /= 2) {
    if (threadIdx.x < stride) part[threadIdx.x] += part[threadIdx.x + stride];
    __syncthreads();
  }
  if (threadIdx.x == 0) out[blockIdx.x] = part[0];
}

bool ok(hipError_t e, const char* what) {
  if (e == hipSuccess) return true;
  std::printf("%s: %s\n", what, hipGetErrorString(e));
  return false;
}

}  // namespace

int main() {
  std::vector<float> x(kN), y(kN);
  for (int i = 0; i < kN; ++i) {
    x[i] = static_cast<float>(i % 97) * 0.25f;
    y[i] = static_cast<float>(i % 13) - 6.0f;
  }
  std::vector<int> in(kN);
  for (int i = 0; i < kN; ++i) in[i] = (i * 7919) % 1001 - 500;
  const int blocks = kN / kBlock;

  float *dx = nullptr, *dy = nullptr;
  int *din = nullptr, *dout = nullptr;
  if (!ok(hipMalloc(&dx, kN * sizeof(float)), "hipMalloc") || !ok(hipMalloc(&dy, kN * sizeof(float)), "hipMalloc") ||
      !ok(hipMalloc(&din, kN * sizeof(int)), "hipMalloc") || !ok(hipMalloc(&dout, blocks * sizeof(int)), "hipMalloc"))
    return 1;
  if (!ok(hipMemcpy(dx, x.data(), kN * sizeof(float), hipMemcpyHostToDevice), "hipMemcpy") ||
      !ok(hipMemcpy(dy, y.data(), kN * sizeof(float), hipMemcpyHostToDevice), "hipMemcpy") ||
      !ok(hipMemcpy(din, in.data(), kN * sizeof(int), hipMemcpyHostToDevice), "hipMemcpy"))
    return 1;

  const float a = 3.0f;
  hipLaunchKernelGGL(saxpy, dim3(kN / kBlock), dim3(kBlock), 0, 0, a, dx, dy, kN);
  hipLaunchKernelGGL(block_sums, dim3(blocks), dim3(kBlock), 0, 0, din, dout, kN);
  if (!ok(hipGetLastError(), "hipLaunchKernelGGL") || !ok(hipDeviceSynchronize(), "hipDeviceSynchronize")) return 1;

  std::vector<float> got_y(kN);
  std::vector<int> got_sums(blocks);
  if (!ok(hipMemcpy(got_y.data(), dy, kN * sizeof(float), hipMemcpyDeviceToHost), "hipMemcpy") ||
      !ok(hipMemcpy(got_sums.data(), dout, blocks * sizeof(int), hipMemcpyDeviceToHost), "hipMemcpy"))
    return 1;

  int bad_y = 0, bad_sums = 0;
  for (int i = 0; i < kN; ++i) bad_y += got_y[i] != a * x[i] + y[i];
  for (int b = 0; b < blocks; ++b) {
    int sum = 0;
    for (int i = b * kBlock; i < (b + 1) * kBlock; ++i) sum += in[i];
    bad_sums += got_sums[b] != sum;
  }
  std::printf("saxpy: %d of %d results differ from the host's\n", bad_y, kN);
  std::printf("block_sums (LDS, barriers): %d of %d sums differ from the host's\n", bad_sums, blocks);
  (void)hipFree(dx);
  (void)hipFree(dy);
  (void)hipFree(din);
  (void)hipFree(dout);
  return bad_y == 0 && bad_sums == 0 ? 0 : 1;
}
