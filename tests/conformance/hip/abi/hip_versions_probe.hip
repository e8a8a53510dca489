// tests/conformance/hip/abi/hip_versions_probe.hip - a hipcc-built program importing versioned HIP symbols (HIP-ABI-4).
//
// hipcc links it against Debian's libamdhip64.so.5, so it asks for hipMalloc@hip_4.2,
// hipMallocAsync@hip_5.1 and friends; run with rocref's library in LD_LIBRARY_PATH it must bind
// them without the loader's "no version information available" warning.
#include <hip/hip_runtime.h>

#include <cstdio>

int main() {
  int count = 0;
  if (hipGetDeviceCount(&count) != hipSuccess || count < 1) return 1;
  void* p = nullptr;
  if (hipMalloc(&p, 4096) != hipSuccess) return 2;
  hipStream_t s = nullptr;
  if (hipStreamCreate(&s) != hipSuccess) return 3;
  void* q = nullptr;
  if (hipMallocAsync(&q, 4096, s) != hipSuccess || hipFreeAsync(q, s) != hipSuccess) return 4;
  if (hipStreamSynchronize(s) != hipSuccess || hipStreamDestroy(s) != hipSuccess) return 5;
  if (hipFree(p) != hipSuccess) return 6;
  std::printf("ok\n");
  return 0;
}
