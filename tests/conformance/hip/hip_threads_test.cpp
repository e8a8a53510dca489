// tests/conformance/hip/hip_threads_test.cpp - several host threads copying on streams of their own and freeing
// (HIP-STR-10).
#include <atomic>
#include <cstring>
#include <thread>
#include <vector>

#include "hip_suite.h"

namespace hip_suite {
namespace {

constexpr int kThreads = 4;
constexpr int kRounds = 6;
constexpr size_t kBytes = size_t{1} << 20;

// One thread's rounds: H2D, D2D and D2H on its own stream, then hipDeviceSynchronize (which
// must wait for this stream too, whatever other threads do) and hipFree of both buffers, while
// the other threads do the same and make and destroy streams of their own.
void rounds(int id, std::atomic<int>* failures) {
  hipStream_t stream = nullptr;
  if (hipStreamCreate(&stream) != hipSuccess) {
    ++*failures;
    return;
  }
  unsigned char* host = nullptr;
  unsigned char* back = nullptr;
  if (hipHostMalloc(reinterpret_cast<void**>(&host), kBytes, 0) != hipSuccess ||
      hipHostMalloc(reinterpret_cast<void**>(&back), kBytes, 0) != hipSuccess) {
    ++*failures;
    return;
  }
  for (int r = 0; r < kRounds; ++r) {
    const unsigned char value = static_cast<unsigned char>(id * 16 + r + 1);
    std::memset(host, value, kBytes);
    std::memset(back, 0, kBytes);
    void *a = nullptr, *b = nullptr;
    bool ok = hipMalloc(&a, kBytes) == hipSuccess && hipMalloc(&b, kBytes) == hipSuccess;
    ok = ok && hipMemcpyAsync(a, host, kBytes, hipMemcpyHostToDevice, stream) == hipSuccess;
    ok = ok && hipMemcpyAsync(b, a, kBytes, hipMemcpyDeviceToDevice, stream) == hipSuccess;
    ok = ok && hipMemcpyAsync(back, b, kBytes, hipMemcpyDeviceToHost, stream) == hipSuccess;
    ok = ok && hipDeviceSynchronize() == hipSuccess;
    for (size_t i = 0; ok && i < kBytes; i += 4093) ok = back[i] == value;
    ok = ok && back[kBytes - 1] == value;
    ok = ok && hipFree(a) == hipSuccess && hipFree(b) == hipSuccess;
    // A stream made and destroyed while the others wait for every stream.
    hipStream_t scratch = nullptr;
    ok = ok && hipStreamCreate(&scratch) == hipSuccess;
    ok = ok && hipMemsetAsync(back, 0, 64, scratch) == hipSuccess;
    ok = ok && hipStreamDestroy(scratch) == hipSuccess;
    if (!ok) ++*failures;
  }
  if (hipHostFree(host) != hipSuccess || hipHostFree(back) != hipSuccess) ++*failures;
  if (hipStreamDestroy(stream) != hipSuccess) ++*failures;
}

TEST(HipStream, HIP_STR_10_ThreadsCopyAndFreeConcurrently) {
  HIP_CLAUSE("HIP-STR-10");
  std::atomic<int> failures{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) threads.emplace_back(rounds, t, &failures);
  for (auto& t : threads) t.join();
  EXPECT_EQ(failures.load(), 0);
  ASSERT_HIP_OK(hipDeviceSynchronize());
}

}  // namespace
}  // namespace hip_suite
