// tests/conformance/hip/hip_stream_event_test.cpp - streams and events (HIP-STR-*, HIP-EVT-*).
#include <vector>

#include "hip_suite.h"

namespace hip_suite {
namespace {

__global__ void scale(float* data, float factor, int n) {
  const int i = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
  if (i < n) data[i] *= factor;
}

__global__ void add_to(float* data, float value, int n) {
  const int i = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
  if (i < n) data[i] += value;
}

TEST(HipStream, HIP_STR_1_CreateAndDestroy) {
  HIP_CLAUSE("HIP-STR-1");
  hipStream_t s = nullptr;
  ASSERT_HIP_OK(hipStreamCreate(&s));
  unsigned flags = 99;
  ASSERT_HIP_OK(hipStreamGetFlags(s, &flags));
  EXPECT_EQ(flags, static_cast<unsigned>(hipStreamDefault));
  EXPECT_HIP(hipSuccess, hipStreamDestroy(s));
  hipStream_t nb = nullptr;
  ASSERT_HIP_OK(hipStreamCreateWithFlags(&nb, hipStreamNonBlocking));
  ASSERT_HIP_OK(hipStreamGetFlags(nb, &flags));
  EXPECT_EQ(flags, static_cast<unsigned>(hipStreamNonBlocking));
  EXPECT_HIP(hipSuccess, hipStreamDestroy(nb));
  EXPECT_HIP(hipErrorInvalidValue, hipStreamCreate(nullptr));
  EXPECT_HIP(hipErrorInvalidValue, hipStreamCreateWithFlags(&s, 0x40));
  hipGetLastError();
}

TEST(HipStream, HIP_STR_2_WorkInOneStreamRunsInOrder) {
  HIP_CLAUSE("HIP-STR-2");
  constexpr int n = 1024;
  hipStream_t s = nullptr;
  ASSERT_HIP_OK(hipStreamCreate(&s));
  float* d = nullptr;
  ASSERT_HIP_OK(hipMalloc(reinterpret_cast<void**>(&d), n * sizeof(float)));
  std::vector<float> h(n, 1.0f);
  ASSERT_HIP_OK(hipMemcpyAsync(d, h.data(), n * sizeof(float), hipMemcpyHostToDevice, s));
  for (int k = 0; k < 5; ++k) {  // (((1*2)+1)*2+1)... order matters
    hipLaunchKernelGGL(scale, dim3(n / 256), dim3(256), 0, s, d, 2.0f, n);
    hipLaunchKernelGGL(add_to, dim3(n / 256), dim3(256), 0, s, d, 1.0f, n);
  }
  ASSERT_HIP_OK(hipMemcpyAsync(h.data(), d, n * sizeof(float), hipMemcpyDeviceToHost, s));
  ASSERT_HIP_OK(hipStreamSynchronize(s));
  EXPECT_EQ(h[0], 63.0f);
  EXPECT_EQ(h[n - 1], 63.0f);
  EXPECT_HIP(hipSuccess, hipStreamQuery(s));
  hipFree(d);
  hipStreamDestroy(s);
}

TEST(HipStream, HIP_STR_3_DestroyedStreamIsAnInvalidHandle) {
  HIP_CLAUSE("HIP-STR-3");
  hipStream_t s = nullptr;
  ASSERT_HIP_OK(hipStreamCreate(&s));
  ASSERT_HIP_OK(hipStreamDestroy(s));
  EXPECT_HIP(hipErrorInvalidResourceHandle, hipStreamDestroy(s));
  EXPECT_HIP(hipErrorInvalidResourceHandle, hipStreamSynchronize(s));
  EXPECT_HIP(hipErrorInvalidResourceHandle, hipStreamQuery(s));
  hipGetLastError();
}

TEST(HipStream, HIP_STR_4_WaitEventOrdersAcrossStreams) {
  HIP_CLAUSE("HIP-STR-4");
  constexpr int n = 512;
  hipStream_t producer = nullptr, consumer = nullptr;
  ASSERT_HIP_OK(hipStreamCreate(&producer));
  ASSERT_HIP_OK(hipStreamCreate(&consumer));
  hipEvent_t ready = nullptr;
  ASSERT_HIP_OK(hipEventCreate(&ready));
  float* d = nullptr;
  ASSERT_HIP_OK(hipMalloc(reinterpret_cast<void**>(&d), n * sizeof(float)));
  ASSERT_HIP_OK(hipMemset(d, 0, n * sizeof(float)));
  hipLaunchKernelGGL(add_to, dim3(n / 256), dim3(256), 0, producer, d, 5.0f, n);
  ASSERT_HIP_OK(hipEventRecord(ready, producer));
  ASSERT_HIP_OK(hipStreamWaitEvent(consumer, ready, 0));
  hipLaunchKernelGGL(scale, dim3(n / 256), dim3(256), 0, consumer, d, 3.0f, n);
  ASSERT_HIP_OK(hipStreamSynchronize(consumer));
  std::vector<float> h(n);
  ASSERT_HIP_OK(hipMemcpy(h.data(), d, n * sizeof(float), hipMemcpyDeviceToHost));
  EXPECT_EQ(h[0], 15.0f);
  EXPECT_EQ(h[n - 1], 15.0f);
  EXPECT_HIP(hipErrorInvalidValue, hipStreamWaitEvent(consumer, ready, 7));
  hipFree(d);
  hipEventDestroy(ready);
  hipStreamDestroy(producer);
  hipStreamDestroy(consumer);
  hipGetLastError();
}

TEST(HipEvent, HIP_EVT_1_RecordSynchronizeQuery) {
  HIP_CLAUSE("HIP-EVT-1");
  hipEvent_t e = nullptr;
  ASSERT_HIP_OK(hipEventCreate(&e));
  EXPECT_HIP(hipSuccess, hipEventQuery(e));  // never recorded: complete
  ASSERT_HIP_OK(hipEventRecord(e, 0));
  ASSERT_HIP_OK(hipEventSynchronize(e));
  EXPECT_HIP(hipSuccess, hipEventQuery(e));
  EXPECT_HIP(hipSuccess, hipEventDestroy(e));
  EXPECT_HIP(hipErrorInvalidValue, hipEventCreate(nullptr));
  EXPECT_HIP(hipErrorInvalidValue, hipEventCreateWithFlags(&e, 0x100));
  hipGetLastError();
}

// An event is independent of the stream it was recorded on: it may outlive it.
TEST(HipEvent, HIP_EVT_1_EventOutlivesItsStream) {
  HIP_CLAUSE("HIP-EVT-1");
  hipStream_t s = nullptr;
  hipEvent_t e = nullptr;
  ASSERT_HIP_OK(hipStreamCreate(&s));
  ASSERT_HIP_OK(hipEventCreate(&e));
  ASSERT_HIP_OK(hipEventRecord(e, s));
  ASSERT_HIP_OK(hipStreamDestroy(s));
  EXPECT_HIP(hipSuccess, hipEventSynchronize(e));
  EXPECT_HIP(hipSuccess, hipEventQuery(e));
  EXPECT_HIP(hipSuccess, hipEventDestroy(e));
}

// Found by tests/fuzz/hip: the same event as start and stop deadlocked on its own mutex.
TEST(HipEvent, HIP_EVT_2_ElapsedTimeOfAnEventToItselfIsZero) {
  HIP_CLAUSE("HIP-EVT-2");
  hipEvent_t e = nullptr;
  ASSERT_HIP_OK(hipEventCreate(&e));
  ASSERT_HIP_OK(hipEventRecord(e, 0));
  ASSERT_HIP_OK(hipEventSynchronize(e));
  float ms = -1.0f;
  ASSERT_HIP_OK(hipEventElapsedTime(&ms, e, e));
  EXPECT_EQ(ms, 0.0f);
  hipEventDestroy(e);
  hipGetLastError();
}

TEST(HipEvent, HIP_EVT_2_ElapsedTimeBetweenRecordedEvents) {
  HIP_CLAUSE("HIP-EVT-2");
  constexpr int n = 4096;
  hipEvent_t start = nullptr, stop = nullptr, untimed = nullptr;
  ASSERT_HIP_OK(hipEventCreate(&start));
  ASSERT_HIP_OK(hipEventCreate(&stop));
  ASSERT_HIP_OK(hipEventCreateWithFlags(&untimed, hipEventDisableTiming));
  float* d = nullptr;
  ASSERT_HIP_OK(hipMalloc(reinterpret_cast<void**>(&d), n * sizeof(float)));
  ASSERT_HIP_OK(hipEventRecord(start, 0));
  hipLaunchKernelGGL(add_to, dim3(n / 256), dim3(256), 0, 0, d, 1.0f, n);
  ASSERT_HIP_OK(hipEventRecord(stop, 0));
  ASSERT_HIP_OK(hipEventRecord(untimed, 0));
  ASSERT_HIP_OK(hipEventSynchronize(stop));
  ASSERT_HIP_OK(hipEventSynchronize(untimed));
  float ms = -1.0f;
  ASSERT_HIP_OK(hipEventElapsedTime(&ms, start, stop));
  EXPECT_GT(ms, 0.0f);
  EXPECT_HIP(hipErrorInvalidValue, hipEventElapsedTime(nullptr, start, stop));
  EXPECT_HIP(hipErrorInvalidResourceHandle, hipEventElapsedTime(&ms, start, untimed));
  hipFree(d);
  hipEventDestroy(start);
  hipEventDestroy(stop);
  hipEventDestroy(untimed);
  hipGetLastError();
}

TEST(HipEvent, HIP_EVT_3_UnrecordedEventHasNoTime) {
  HIP_CLAUSE("HIP-EVT-3");
  hipEvent_t a = nullptr, b = nullptr;
  ASSERT_HIP_OK(hipEventCreate(&a));
  ASSERT_HIP_OK(hipEventCreate(&b));
  ASSERT_HIP_OK(hipEventRecord(a, 0));
  ASSERT_HIP_OK(hipEventSynchronize(a));
  float ms = 0;
  EXPECT_HIP(hipErrorInvalidResourceHandle, hipEventElapsedTime(&ms, a, b));
  hipEventDestroy(a);
  hipEventDestroy(b);
  EXPECT_HIP(hipErrorInvalidResourceHandle, hipEventDestroy(a));
  hipGetLastError();
}

}  // namespace
}  // namespace hip_suite
