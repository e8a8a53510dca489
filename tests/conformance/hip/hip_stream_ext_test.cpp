// tests/conformance/hip/hip_stream_ext_test.cpp - priorities, CU masks, host functions, stream memory operations, per-thread streams (HIP-STR-5..9).
#include <cstdint>
#include <thread>
#include <vector>

#include "hip_suite.h"

namespace hip_suite {
namespace {

TEST(HipStream, HIP_STR_5_PrioritiesAreClampedToTheRange) {
  HIP_CLAUSE("HIP-STR-5");
  int least = 0, greatest = 0;
  ASSERT_HIP_OK(hipDeviceGetStreamPriorityRange(&least, &greatest));
  hipStream_t high, low;
  ASSERT_HIP_OK(hipStreamCreateWithPriority(&high, hipStreamDefault, greatest - 100));
  ASSERT_HIP_OK(hipStreamCreateWithPriority(&low, hipStreamNonBlocking, least + 100));
  int priority = 0;
  ASSERT_HIP_OK(hipStreamGetPriority(high, &priority));
  EXPECT_EQ(priority, greatest);
  ASSERT_HIP_OK(hipStreamGetPriority(low, &priority));
  EXPECT_EQ(priority, least);
  unsigned flags = 0;
  ASSERT_HIP_OK(hipStreamGetFlags(low, &flags));
  EXPECT_EQ(flags, static_cast<unsigned>(hipStreamNonBlocking));
  EXPECT_HIP(hipErrorInvalidValue, hipStreamGetPriority(high, nullptr));
  ASSERT_HIP_OK(hipStreamDestroy(high));
  ASSERT_HIP_OK(hipStreamDestroy(low));
  hipGetLastError();
}

#if HIP_SUITE_AMD_API
TEST(HipStream, HIP_STR_6_CuMaskNarrowsTheDevicesCus) {
  HIP_CLAUSE("HIP-STR-6");
  hipDeviceProp_t p;
  ASSERT_HIP_OK(hipGetDeviceProperties(&p, 0));
  const uint32_t words = (p.multiProcessorCount + 31) / 32;
  std::vector<uint32_t> mask(words, 0);
  mask[0] = 0x3;  // the first two CUs
  hipStream_t s;
  ASSERT_HIP_OK(hipExtStreamCreateWithCUMask(&s, words, mask.data()));
  std::vector<uint32_t> got(words, 0xFFFFFFFF);
  ASSERT_HIP_OK(hipExtStreamGetCUMask(s, words, got.data()));
  EXPECT_EQ(got[0], 0x3u);
  EXPECT_HIP(hipErrorInvalidValue, hipExtStreamCreateWithCUMask(&s, 0, mask.data()));
  ASSERT_HIP_OK(hipStreamDestroy(s));
  hipGetLastError();
}
#endif  // HIP_SUITE_AMD_API

// HIP 5.2.3's header declares hipLaunchHostFunc, but its libamdhip64 does not
// export it: built against another HIP the suite runs the function as a callback.
struct HostFunction {
  hipHostFn_t fn;
  void* data;
};
void run_host_function(hipStream_t, hipError_t, void* arg) {
  auto* h = static_cast<HostFunction*>(arg);
  h->fn(h->data);
  delete h;
}
hipError_t launch_host_func(hipStream_t stream, hipHostFn_t fn, void* data) {
#if defined(ROCREF_HIP_HOST_KERNELS)
  return hipLaunchHostFunc(stream, fn, data);
#else
  if (fn == nullptr) return hipErrorInvalidValue;
  return hipStreamAddCallback(stream, run_host_function, new HostFunction{fn, data}, 0);
#endif
}

void record_order(void* data) {
  auto* log = static_cast<std::vector<int>*>(data);
  log->push_back(static_cast<int>(log->size()));
}

struct CallbackLog {
  hipStream_t stream = nullptr;
  hipStream_t seen = nullptr;
  hipError_t status = hipErrorUnknown;
  uint8_t first_byte = 0;
  uint8_t* host = nullptr;
};

void on_callback(hipStream_t stream, hipError_t status, void* data) {
  auto* log = static_cast<CallbackLog*>(data);
  log->seen = stream;
  log->status = status;
  log->first_byte = log->host[0];  // the copy before the callback has completed
}

TEST(HipStream, HIP_STR_7_HostFunctionsRunInStreamOrder) {
  HIP_CLAUSE("HIP-STR-7");
  hipStream_t s;
  ASSERT_HIP_OK(hipStreamCreate(&s));
  void* d = nullptr;
  uint8_t* h = nullptr;
  ASSERT_HIP_OK(hipMalloc(&d, 4096));
  ASSERT_HIP_OK(hipHostMalloc(reinterpret_cast<void**>(&h), 4096, 0));
  h[0] = 0;
  ASSERT_HIP_OK(hipMemsetAsync(d, 0x77, 4096, s));
  ASSERT_HIP_OK(hipMemcpyAsync(h, d, 4096, hipMemcpyDeviceToHost, s));
  CallbackLog log;
  log.stream = s;
  log.host = h;
  ASSERT_HIP_OK(hipStreamAddCallback(s, on_callback, &log, 0));
  std::vector<int> order;
  for (int i = 0; i < 3; ++i) ASSERT_HIP_OK(launch_host_func(s, record_order, &order));
  ASSERT_HIP_OK(hipStreamSynchronize(s));
  EXPECT_EQ(log.seen, s);
  EXPECT_EQ(log.status, hipSuccess);
  EXPECT_EQ(log.first_byte, 0x77);
  EXPECT_EQ(order, (std::vector<int>{0, 1, 2}));
  EXPECT_HIP(hipErrorInvalidValue, hipStreamAddCallback(s, on_callback, &log, 1));
  EXPECT_HIP(hipErrorInvalidValue, launch_host_func(s, nullptr, nullptr));
  ASSERT_HIP_OK(hipFree(d));
  ASSERT_HIP_OK(hipHostFree(h));
  ASSERT_HIP_OK(hipStreamDestroy(s));
  hipGetLastError();
}

#if HIP_SUITE_AMD_API
TEST(HipStream, HIP_STR_8_WaitValueHoldsTheStreamUntilTheValue) {
  HIP_CLAUSE("HIP-STR-8");
  hipStream_t s;
  ASSERT_HIP_OK(hipStreamCreate(&s));
  uint32_t* flag = nullptr;
  uint64_t* out = nullptr;
  // Signal memory is one 64-bit value; the wait reads its low 32 bits.
  EXPECT_HIP(hipErrorInvalidValue, hipExtMallocWithFlags(reinterpret_cast<void**>(&flag), 4, hipMallocSignalMemory));
  ASSERT_HIP_OK(hipExtMallocWithFlags(reinterpret_cast<void**>(&flag), sizeof(uint64_t), hipMallocSignalMemory));
  ASSERT_HIP_OK(hipHostMalloc(reinterpret_cast<void**>(&out), sizeof(uint64_t), 0));
  *flag = 0;
  *out = 0;
  ASSERT_HIP_OK(hipStreamWaitValue32(s, flag, 5, hipStreamWaitValueGte, 0xFFFFFFFF));
  ASSERT_HIP_OK(hipStreamWriteValue64(s, out, 42, 0));
  // Nothing behind the wait may run before the value arrives.
  EXPECT_HIP(hipErrorNotReady, hipStreamQuery(s));
  EXPECT_EQ(__atomic_load_n(out, __ATOMIC_ACQUIRE), 0u);
  __atomic_store_n(flag, 5u, __ATOMIC_RELEASE);
  ASSERT_HIP_OK(hipStreamSynchronize(s));
  EXPECT_EQ(*out, 42u);
  EXPECT_HIP(hipErrorInvalidValue, hipStreamWaitValue32(s, nullptr, 1, hipStreamWaitValueEq, 0xFFFFFFFF));
  EXPECT_HIP(hipErrorInvalidValue, hipStreamWriteValue32(s, nullptr, 1, 0));
  ASSERT_HIP_OK(hipFree(flag));
  ASSERT_HIP_OK(hipHostFree(out));
  ASSERT_HIP_OK(hipStreamDestroy(s));
  hipGetLastError();
}
#endif  // HIP_SUITE_AMD_API

TEST(HipStream, HIP_STR_9_PerThreadStreamIsOrderedAndSynchronizes) {
  HIP_CLAUSE("HIP-STR-9");
  void* d = nullptr;
  ASSERT_HIP_OK(hipMalloc(&d, 1024));
  std::vector<uint8_t> back(1024, 0);
  auto work = [&] {
    EXPECT_HIP(hipSuccess, hipMemsetAsync(d, 0x42, 1024, hipStreamPerThread));
    EXPECT_HIP(hipSuccess, hipMemcpyAsync(back.data(), d, 1024, hipMemcpyDeviceToHost, hipStreamPerThread));
    EXPECT_HIP(hipSuccess, hipStreamSynchronize(hipStreamPerThread));
  };
  std::thread(work).join();
  for (uint8_t b : back) ASSERT_EQ(b, 0x42);
  EXPECT_HIP(hipSuccess, hipStreamQuery(hipStreamPerThread));
  unsigned flags = 1;
  ASSERT_HIP_OK(hipStreamGetFlags(hipStreamPerThread, &flags));
  ASSERT_HIP_OK(hipFree(d));
}

}  // namespace
}  // namespace hip_suite
