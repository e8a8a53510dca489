// tests/conformance/hip/hip_multi_device_test.cpp - several devices: selection, per-device
// streams and memory, peer access and copies between devices (HIP-DEV-8, HIP-PEER-2, HIP-PEER-3).
//
// Every test needs two devices and skips with fewer (rocref presents them with ROCREF_GPUS=2).
#include <cstdint>
#include <thread>
#include <vector>

#include "hip_suite.h"

namespace hip_suite {
namespace {

__global__ void write_index(int* out, int base) { out[threadIdx.x] = base + static_cast<int>(threadIdx.x); }

int device_count() {
  int count = 0;
  if (hipGetDeviceCount(&count) != hipSuccess) return 0;
  return count;
}

#define REQUIRE_TWO_DEVICES()                                                            \
  do {                                                                                   \
    if (device_count() < 2) GTEST_SKIP() << "needs two devices (hipGetDeviceCount < 2)"; \
  } while (0)

// Restores device 0 as the thread's device whatever the test did.
struct DeviceZeroAfter {
  ~DeviceZeroAfter() { (void)hipSetDevice(0); }
};

TEST(HipMultiDevice, HIP_DEV_8_EachThreadChoosesItsDevice) {
  HIP_CLAUSE("HIP-DEV-8");
  REQUIRE_TWO_DEVICES();
  DeviceZeroAfter restore;
  const int count = device_count();
  EXPECT_HIP(hipErrorInvalidDevice, hipSetDevice(count));
  EXPECT_HIP(hipErrorInvalidDevice, hipSetDevice(-1));
  int current = -1;
  ASSERT_HIP_OK(hipGetDevice(&current));
  EXPECT_EQ(current, 0);  // a refused hipSetDevice changes nothing
  ASSERT_HIP_OK(hipSetDevice(1));
  ASSERT_HIP_OK(hipGetDevice(&current));
  EXPECT_EQ(current, 1);
  // Another thread starts on device 0 and its choice does not reach this one.
  int other = -1;
  std::thread([&] {
    (void)hipGetDevice(&other);
    (void)hipSetDevice(0);
  }).join();
  EXPECT_EQ(other, 0);
  ASSERT_HIP_OK(hipGetDevice(&current));
  EXPECT_EQ(current, 1);
  // Each device answers for itself: distinct PCI buses, attributes match properties.
  hipDeviceProp_t p0{}, p1{};
  ASSERT_HIP_OK(hipGetDeviceProperties(&p0, 0));
  ASSERT_HIP_OK(hipGetDeviceProperties(&p1, 1));
  EXPECT_NE(p0.pciBusID, p1.pciBusID);
  int bus = -1;
  ASSERT_HIP_OK(hipDeviceGetAttribute(&bus, hipDeviceAttributePciBusId, 1));
  EXPECT_EQ(bus, p1.pciBusID);
  EXPECT_HIP(hipErrorInvalidDevice, hipGetDeviceProperties(&p1, count));
  EXPECT_HIP(hipErrorInvalidDevice, hipDeviceGetAttribute(&bus, hipDeviceAttributePciBusId, count));
  hipGetLastError();
}

TEST(HipMultiDevice, HIP_DEV_8_MemoryAndStreamsBelongToTheCurrentDevice) {
  HIP_CLAUSE("HIP-DEV-8");
  REQUIRE_TWO_DEVICES();
  DeviceZeroAfter restore;
  constexpr int kN = 64;
  int* on0 = nullptr;
  int* on1 = nullptr;
  ASSERT_HIP_OK(hipSetDevice(0));
  ASSERT_HIP_OK(hipMalloc(reinterpret_cast<void**>(&on0), kN * sizeof(int)));
  ASSERT_HIP_OK(hipSetDevice(1));
  ASSERT_HIP_OK(hipMalloc(reinterpret_cast<void**>(&on1), kN * sizeof(int)));
  hipPointerAttribute_t attributes{};
  ASSERT_HIP_OK(hipPointerGetAttributes(&attributes, on1));
  EXPECT_EQ(attributes.device, 1);
  ASSERT_HIP_OK(hipPointerGetAttributes(&attributes, on0));
  EXPECT_EQ(attributes.device, 0);
  // A stream made on device 1 runs device 1's work whichever device is current later.
  hipStream_t stream = nullptr;
  hipEvent_t done = nullptr;
  ASSERT_HIP_OK(hipStreamCreate(&stream));
  ASSERT_HIP_OK(hipEventCreate(&done));
  ASSERT_HIP_OK(hipSetDevice(0));
  hipLaunchKernelGGL(write_index, dim3(1), dim3(kN), 0, stream, on1, 100);
  ASSERT_HIP_OK(hipGetLastError());
  ASSERT_HIP_OK(hipEventRecord(done, stream));
  ASSERT_HIP_OK(hipEventSynchronize(done));
  // Device 0's kernel on device 0's memory, on the null stream of device 0.
  hipLaunchKernelGGL(write_index, dim3(1), dim3(kN), 0, 0, on0, 200);
  ASSERT_HIP_OK(hipDeviceSynchronize());
  std::vector<int> back(kN, 0);
  ASSERT_HIP_OK(hipMemcpy(back.data(), on1, kN * sizeof(int), hipMemcpyDeviceToHost));
  for (int i = 0; i < kN; ++i) ASSERT_EQ(back[i], 100 + i);
  ASSERT_HIP_OK(hipMemcpy(back.data(), on0, kN * sizeof(int), hipMemcpyDeviceToHost));
  for (int i = 0; i < kN; ++i) ASSERT_EQ(back[i], 200 + i);
  ASSERT_HIP_OK(hipEventDestroy(done));
  ASSERT_HIP_OK(hipStreamDestroy(stream));
  ASSERT_HIP_OK(hipFree(on0));
  ASSERT_HIP_OK(hipFree(on1));
}

// The null stream and the device a call acts on follow hipSetDevice back and forth,
// each launch after the first on a device included.
TEST(HipMultiDevice, HIP_DEV_8_NullStreamFollowsTheCurrentDevice) {
  HIP_CLAUSE("HIP-DEV-8");
  REQUIRE_TWO_DEVICES();
  DeviceZeroAfter restore;
  constexpr int kN = 32;
  int* on[2] = {nullptr, nullptr};
  for (int round = 0; round < 2; ++round) {
    for (int device = 0; device < 2; ++device) {
      ASSERT_HIP_OK(hipSetDevice(device));
      if (on[device] == nullptr) ASSERT_HIP_OK(hipMalloc(reinterpret_cast<void**>(&on[device]), kN * sizeof(int)));
      hipPointerAttribute_t attributes{};
      ASSERT_HIP_OK(hipPointerGetAttributes(&attributes, on[device]));
      EXPECT_EQ(attributes.device, device);
      hipLaunchKernelGGL(write_index, dim3(1), dim3(kN), 0, 0, on[device], 1000 * (device + 1) + round);
      ASSERT_HIP_OK(hipGetLastError());
      ASSERT_HIP_OK(hipStreamSynchronize(nullptr));
      std::vector<int> back(kN, 0);
      ASSERT_HIP_OK(hipMemcpy(back.data(), on[device], kN * sizeof(int), hipMemcpyDeviceToHost));
      for (int i = 0; i < kN; ++i) ASSERT_EQ(back[i], 1000 * (device + 1) + round + i) << "device " << device;
    }
  }
  for (int device = 0; device < 2; ++device) {
    ASSERT_HIP_OK(hipSetDevice(device));
    ASSERT_HIP_OK(hipFree(on[device]));
  }
}

TEST(HipPeer, HIP_PEER_2_PeerAccessMapsThePeersMemory) {
  HIP_CLAUSE("HIP-PEER-2");
  REQUIRE_TWO_DEVICES();
  DeviceZeroAfter restore;
  const int count = device_count();
  int can = -1;
  ASSERT_HIP_OK(hipDeviceCanAccessPeer(&can, 0, 1));
  EXPECT_EQ(can, 1);
  ASSERT_HIP_OK(hipDeviceCanAccessPeer(&can, 1, 0));
  EXPECT_EQ(can, 1);
  ASSERT_HIP_OK(hipDeviceCanAccessPeer(&can, 1, 1));
  EXPECT_EQ(can, 0);
  EXPECT_HIP(hipErrorInvalidDevice, hipDeviceCanAccessPeer(&can, 0, count));
  EXPECT_HIP(hipErrorInvalidDevice, hipDeviceCanAccessPeer(&can, count, 0));
  int value = -1;
  ASSERT_HIP_OK(hipDeviceGetP2PAttribute(&value, hipDevP2PAttrAccessSupported, 0, 1));
  EXPECT_EQ(value, 1);
  EXPECT_HIP(hipErrorInvalidDevice, hipDeviceGetP2PAttribute(&value, hipDevP2PAttrAccessSupported, 0, 0));
  EXPECT_HIP(hipErrorInvalidDevice, hipDeviceGetP2PAttribute(&value, hipDevP2PAttrAccessSupported, 0, count));

  constexpr int kN = 64;
  int* before = nullptr;  // device 1's memory made before access is enabled
  int* after = nullptr;   // and after
  ASSERT_HIP_OK(hipSetDevice(1));
  ASSERT_HIP_OK(hipMalloc(reinterpret_cast<void**>(&before), kN * sizeof(int)));
  ASSERT_HIP_OK(hipSetDevice(0));
  EXPECT_HIP(hipErrorPeerAccessNotEnabled, hipDeviceDisablePeerAccess(1));
  EXPECT_HIP(hipErrorInvalidDevice, hipDeviceEnablePeerAccess(0, 0));
  EXPECT_HIP(hipErrorInvalidDevice, hipDeviceEnablePeerAccess(count, 0));
  EXPECT_HIP(hipErrorInvalidDevice, hipDeviceDisablePeerAccess(0));
  ASSERT_HIP_OK(hipDeviceEnablePeerAccess(1, 0));
  EXPECT_HIP(hipErrorPeerAccessAlreadyEnabled, hipDeviceEnablePeerAccess(1, 0));
  ASSERT_HIP_OK(hipSetDevice(1));
  ASSERT_HIP_OK(hipMalloc(reinterpret_cast<void**>(&after), kN * sizeof(int)));
  ASSERT_HIP_OK(hipSetDevice(0));
  // Device 0's kernels write device 1's memory, old and new.
  hipLaunchKernelGGL(write_index, dim3(1), dim3(kN), 0, 0, before, 1000);
  hipLaunchKernelGGL(write_index, dim3(1), dim3(kN), 0, 0, after, 2000);
  ASSERT_HIP_OK(hipDeviceSynchronize());
  std::vector<int> back(kN, 0);
  ASSERT_HIP_OK(hipMemcpy(back.data(), before, kN * sizeof(int), hipMemcpyDeviceToHost));
  for (int i = 0; i < kN; ++i) ASSERT_EQ(back[i], 1000 + i);
  ASSERT_HIP_OK(hipMemcpy(back.data(), after, kN * sizeof(int), hipMemcpyDeviceToHost));
  for (int i = 0; i < kN; ++i) ASSERT_EQ(back[i], 2000 + i);
  ASSERT_HIP_OK(hipDeviceDisablePeerAccess(1));
  EXPECT_HIP(hipErrorPeerAccessNotEnabled, hipDeviceDisablePeerAccess(1));
  ASSERT_HIP_OK(hipFree(before));
  ASSERT_HIP_OK(hipFree(after));
  hipGetLastError();
}

TEST(HipPeer, HIP_PEER_3_CopiesBetweenDevicesMoveTheBytes) {
  HIP_CLAUSE("HIP-PEER-3");
  REQUIRE_TWO_DEVICES();
  DeviceZeroAfter restore;
  const int count = device_count();
  constexpr size_t kBytes = 3 * 1024 * 1024 + 100;  // more than one staging chunk
  std::vector<uint8_t> pattern(kBytes);
  for (size_t i = 0; i < kBytes; ++i) pattern[i] = static_cast<uint8_t>(i * 7 + 3);
  void* a0 = nullptr;
  void* a1 = nullptr;
  ASSERT_HIP_OK(hipSetDevice(0));
  ASSERT_HIP_OK(hipMalloc(&a0, kBytes));
  ASSERT_HIP_OK(hipSetDevice(1));
  ASSERT_HIP_OK(hipMalloc(&a1, kBytes));
  // Device 1 current: host to device 0's memory, then device 0 to device 1.
  ASSERT_HIP_OK(hipMemcpy(a0, pattern.data(), kBytes, hipMemcpyHostToDevice));
  ASSERT_HIP_OK(hipMemcpyPeer(a1, 1, a0, 0, kBytes));
  std::vector<uint8_t> back(kBytes, 0);
  ASSERT_HIP_OK(hipMemcpy(back.data(), a1, kBytes, hipMemcpyDeviceToHost));
  EXPECT_EQ(back, pattern);
  // Device 0 current: a stream of device 0 copies device 1's memory back, asynchronously.
  ASSERT_HIP_OK(hipSetDevice(0));
  hipStream_t stream = nullptr;
  ASSERT_HIP_OK(hipStreamCreate(&stream));
  ASSERT_HIP_OK(hipMemsetAsync(a1, 0x5a, kBytes / 2, stream));
  ASSERT_HIP_OK(hipMemcpyPeerAsync(a0, 0, a1, 1, kBytes, stream));
  ASSERT_HIP_OK(hipStreamSynchronize(stream));
  ASSERT_HIP_OK(hipMemcpy(back.data(), a0, kBytes, hipMemcpyDeviceToHost));
  for (size_t i = 0; i < kBytes; ++i) ASSERT_EQ(back[i], i < kBytes / 2 ? 0x5a : pattern[i]) << "byte " << i;
  // hipMemcpy with either direction that names device memory does the same.
  ASSERT_HIP_OK(hipMemset(a0, 0x11, kBytes));
  ASSERT_HIP_OK(hipMemcpy(a1, a0, kBytes, hipMemcpyDefault));
  ASSERT_HIP_OK(hipMemcpy(back.data(), a1, kBytes, hipMemcpyDeviceToHost));
  for (size_t i = 0; i < kBytes; ++i) ASSERT_EQ(back[i], 0x11) << "byte " << i;
  ASSERT_HIP_OK(hipMemset(a1, 0x22, kBytes));
  ASSERT_HIP_OK(hipMemcpy(a0, a1, kBytes, hipMemcpyDeviceToDevice));
  ASSERT_HIP_OK(hipMemcpy(back.data(), a0, kBytes, hipMemcpyDeviceToHost));
  for (size_t i = 0; i < kBytes; ++i) ASSERT_EQ(back[i], 0x22) << "byte " << i;
  EXPECT_HIP(hipErrorInvalidDevice, hipMemcpyPeer(a1, count, a0, 0, 16));
  EXPECT_HIP(hipErrorInvalidDevice, hipMemcpyPeer(a1, 1, a0, -1, 16));
  ASSERT_HIP_OK(hipStreamDestroy(stream));
  ASSERT_HIP_OK(hipFree(a0));
  ASSERT_HIP_OK(hipFree(a1));
  hipGetLastError();
}

}  // namespace
}  // namespace hip_suite
