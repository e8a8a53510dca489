// tests/conformance/hip/hip_host_memory_test.cpp - kernels on registered and fine-grained host memory (HIP-MEM-16,
// HIP-MEM-17).
//
// Built by hipcc only: the kernels use gfx9 system-scope atomics, which rocref's host-compiled
// kernel language does not offer (the matrix lists them missing in the reference column).
#include <sys/mman.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstring>
#include <thread>
#include <vector>

#include "hip_suite.h"

#if HIP_SUITE_AMD_API && defined(__HIP__)
namespace hip_suite {
namespace {

__global__ void scale_and_mark(int* data, int n, int factor) {
  const int i = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
  if (i < n) data[i] = data[i] * factor + 1;
}

// HIP-MEM-16: kernels reach registered memory through its device pointer.
TEST(HipMemory, HIP_MEM_16_KernelsReachRegisteredHostMemory) {
  HIP_CLAUSE("HIP-MEM-16");
  constexpr int n = 3000;  // three pages and some
  // Heap memory and pages the test maps itself, each registered and written by a kernel.
  std::vector<int> heap(n);
  void* mapped = mmap(nullptr, 4 * 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  ASSERT_NE(mapped, MAP_FAILED);
  int* regions[] = {heap.data(), static_cast<int*>(mapped)};
  for (int* host : regions) {
    for (int i = 0; i < n; ++i) host[i] = i;
    ASSERT_HIP_OK(hipHostRegister(host, n * sizeof(int), hipHostRegisterMapped));
    int* device = nullptr;
    ASSERT_HIP_OK(hipHostGetDevicePointer(reinterpret_cast<void**>(&device), host, 0));
    ASSERT_NE(device, nullptr);
    // An address inside the range maps to the same offset of the device range.
    int* inner = nullptr;
    ASSERT_HIP_OK(hipHostGetDevicePointer(reinterpret_cast<void**>(&inner), host + 1000, 0));
    EXPECT_EQ(inner, device + 1000);
    hipLaunchKernelGGL(scale_and_mark, dim3((n + 255) / 256), dim3(256), 0, 0, device, n, 3);
    ASSERT_HIP_OK(hipDeviceSynchronize());
    for (int i = 0; i < n; ++i) ASSERT_EQ(host[i], 3 * i + 1) << i;
    // A copy between device memory and the registered range sees the kernel's stores.
    int* d = nullptr;
    ASSERT_HIP_OK(hipMalloc(reinterpret_cast<void**>(&d), n * sizeof(int)));
    ASSERT_HIP_OK(hipMemcpy(d, host, n * sizeof(int), hipMemcpyHostToDevice));
    std::vector<int> back(n);
    ASSERT_HIP_OK(hipMemcpy(back.data(), d, n * sizeof(int), hipMemcpyDeviceToHost));
    EXPECT_EQ(back[n - 1], 3 * (n - 1) + 1);
    ASSERT_HIP_OK(hipFree(d));
    ASSERT_HIP_OK(hipHostUnregister(host));
  }
  munmap(mapped, 4 * 4096);
  hipGetLastError();
}

// HIP-MEM-17: the kernel raises `counter` by one (a system-scope atomic, or a plain store of
// 1), then waits (a bounded spin) for the host's `flag`; it reports in `saw_flag` whether it
// saw the flag, and raises the counter again.
__global__ void handshake(unsigned* counter, unsigned* flag, unsigned* saw_flag, unsigned spins, int atomics) {
  const bool first = threadIdx.x == 0 && blockIdx.x == 0;
  if (atomics != 0) {
    atomicAdd_system(counter, 1u);  // every work-item of every work-group
  } else if (first) {
    *static_cast<volatile unsigned*>(counter) = 1u;
  }
  if (!first) return;
  unsigned seen = 0;
  for (unsigned i = 0; i < spins && seen == 0; ++i) {
    seen = atomics != 0 ? __hip_atomic_load(flag, __ATOMIC_ACQUIRE, __HIP_MEMORY_SCOPE_SYSTEM)
                        : *static_cast<volatile unsigned*>(flag);
  }
  *saw_flag = seen;
  atomicAdd_system(counter, 1u);
}

unsigned load(const unsigned* p) { return __atomic_load_n(p, __ATOMIC_ACQUIRE); }

TEST(HipMemory, HIP_MEM_17_FineGrainedMemoryIsSharedWhileKernelsRun) {
  HIP_CLAUSE("HIP-MEM-17");
  // Fine-grained host memory: hipHostMalloc's coherent form, and the default (coherent in HIP
  // 5.2.3), each with atomics and with plain stores and loads.
  for (unsigned flags : {unsigned{hipHostMallocMapped | hipHostMallocCoherent}, unsigned{hipHostMallocDefault}}) {
    for (int atomics : {1, 0}) {
      SCOPED_TRACE(::testing::Message() << "flags " << flags << " atomics " << atomics);
      unsigned* shared = nullptr;  // [0] counter, [1] flag, [2] what the kernel saw
      ASSERT_HIP_OK(hipHostMalloc(reinterpret_cast<void**>(&shared), 3 * sizeof(unsigned), flags));
      std::memset(shared, 0, 3 * sizeof(unsigned));
      hipStream_t stream = nullptr;
      ASSERT_HIP_OK(hipStreamCreate(&stream));
      // Long enough that a kernel that never sees the flag ends well after the host gave up.
      constexpr unsigned kSpins = 1u << 22;
      // With atomics, every work-item of four work-groups adds one while the first one waits.
      const unsigned blocks = atomics != 0 ? 4 : 1, threads = 64, expected = atomics != 0 ? blocks * threads : 1;
      hipLaunchKernelGGL(handshake, dim3(blocks), dim3(threads), 0, stream, shared, shared + 1, shared + 2, kSpins,
                         atomics);
      // The host sees the kernel's increment while the kernel still runs (it waits for the flag).
      const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
      bool seen = false;
      while (!seen && std::chrono::steady_clock::now() < deadline) {
        seen = load(&shared[0]) >= expected;
        if (!seen) std::this_thread::yield();
      }
      EXPECT_TRUE(seen) << "the host never saw the running kernel's store";
      EXPECT_EQ(load(&shared[0]), expected) << "the kernel ended before the host set the flag";
      EXPECT_EQ(static_cast<int>(hipStreamQuery(stream)), static_cast<int>(hipErrorNotReady));
      __atomic_store_n(&shared[1], 1u, __ATOMIC_RELEASE);
      ASSERT_HIP_OK(hipStreamSynchronize(stream));
      EXPECT_EQ(load(&shared[2]), 1u) << "the kernel never saw the host's flag";
      EXPECT_EQ(load(&shared[0]), expected + 1);
      ASSERT_HIP_OK(hipStreamDestroy(stream));
      ASSERT_HIP_OK(hipHostFree(shared));
    }
  }
  hipGetLastError();
}

}  // namespace
}  // namespace hip_suite
#endif
