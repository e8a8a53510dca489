// tests/integration_foreign/hip_isa_kernels.hip - the ISA test kernels as a real HIP program (ISA-E2E-1).
//
// Built by Debian's hipcc for gfx900 and run under `rocref exec`: Debian's
// amdhip64, ROCclr and ROCR launch the kernels on the model, whose interpreter
// runs them; every result is checked against the host. Exit status 0 = all equal.
#include <hip/hip_runtime.h>

#include <cmath>
#include <cstdio>
#include <vector>

#include "isa_kernels.hip"

#define CHECK(call)                                                              \
  do {                                                                           \
    const hipError_t e = (call);                                                 \
    if (e != hipSuccess) {                                                       \
      std::fprintf(stderr, "%s:%d %s: %s\n", __FILE__, __LINE__, #call, hipGetErrorString(e)); \
      return 1;                                                                  \
    }                                                                            \
  } while (0)

template <typename T>
T* to_device(const std::vector<T>& host) {
  T* d = nullptr;
  if (hipMalloc(&d, host.size() * sizeof(T)) != hipSuccess) return nullptr;
  if (hipMemcpy(d, host.data(), host.size() * sizeof(T), hipMemcpyHostToDevice) != hipSuccess) return nullptr;
  return d;
}

template <typename T>
std::vector<T> to_host(const T* d, size_t n) {
  std::vector<T> host(n);
  if (hipMemcpy(host.data(), d, n * sizeof(T), hipMemcpyDeviceToHost) != hipSuccess) host.clear();
  return host;
}

int main() {
  int failures = 0;
  const int n = 1000;
  {  // vadd
    std::vector<float> a(n), b(n);
    for (int i = 0; i < n; ++i) { a[i] = i * 0.5f; b[i] = 1000.0f - 3.0f * i; }
    float *da = to_device(a), *db = to_device(b), *dc = to_device(std::vector<float>(n));
    hipLaunchKernelGGL(vadd, dim3((n + 255) / 256), dim3(256), 0, 0, da, db, dc, n);
    CHECK(hipDeviceSynchronize());
    const auto c = to_host(dc, n);
    for (int i = 0; i < n; ++i) failures += c.size() != size_t(n) || c[i] != a[i] + b[i];
    std::printf("vadd: %d failures so far\n", failures);
  }
  {  // reduce: LDS and __syncthreads
    std::vector<int> in(n);
    for (int i = 0; i < n; ++i) in[i] = (i * 7919) % 1001 - 500;
    const int blocks = (n + 255) / 256;
    int *din = to_device(in), *dout = to_device(std::vector<int>(blocks));
    hipLaunchKernelGGL(reduce, dim3(blocks), dim3(256), 0, 0, din, dout, n);
    CHECK(hipDeviceSynchronize());
    const auto out = to_host(dout, blocks);
    for (int b = 0; b < blocks; ++b) {
      int sum = 0;
      for (int i = b * 256; i < std::min(n, (b + 1) * 256); ++i) sum += in[i];
      failures += out.size() != size_t(blocks) || out[b] != sum;
    }
    std::printf("reduce: %d failures so far\n", failures);
  }
  {  // histogram: global atomics
    std::vector<unsigned> in(n);
    for (int i = 0; i < n; ++i) in[i] = static_cast<unsigned>(i * 2654435761u);
    unsigned *din = to_device(in), *dbins = to_device(std::vector<unsigned>(17));
    hipLaunchKernelGGL(histogram, dim3((n + 127) / 128), dim3(128), 0, 0, din, dbins, n);
    CHECK(hipDeviceSynchronize());
    const auto bins = to_host(dbins, 17);
    std::vector<unsigned> expect(17, 0);
    for (unsigned v : in) { ++expect[v % 16]; expect[16] = std::max(expect[16], v); }
    failures += bins != expect;
    std::printf("histogram: %d failures so far\n", failures);
  }
  {  // divergent branches and loops
    std::vector<int> in(n);
    for (int i = 0; i < n; ++i) in[i] = i * 37 - 200;
    int *din = to_device(in), *dout = to_device(std::vector<int>(n));
    hipLaunchKernelGGL(divergent, dim3((n + 127) / 128), dim3(128), 0, 0, din, dout, n);
    CHECK(hipDeviceSynchronize());
    const auto out = to_host(dout, n);
    for (int i = 0; i < n; ++i) {
      int v = in[i], r;
      if (v & 1) r = v * 3 + 1;
      else if (v % 3 == 0) r = v / 3;
      else r = -v;
      int steps = 0;
      while (v > 1 && steps < 100) { v = (v & 1) ? 3 * v + 1 : v / 2; ++steps; }
      failures += out.size() != size_t(n) || out[i] != r + steps;
    }
    std::printf("divergent: %d failures so far\n", failures);
  }
  std::printf("%s\n", failures == 0 ? "all kernels match the host" : "MISMATCH");
  return failures == 0 ? 0 : 1;
}
