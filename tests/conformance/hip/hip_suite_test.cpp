// tests/conformance/hip/hip_suite_test.cpp - devices, errors, and the deviation table (HIP-DEV-*, HIP-ERR-*).
#include <cstring>
#include <map>
#include <utility>

#include "hip_suite.h"

namespace hip_suite {

// Differences between implementations are data: each entry names the clause and why.
const char* deviation(const std::string& implementation, const std::string& clause) {
  static const std::map<std::pair<std::string, std::string>, const char*> kDeviations = {
      {{"hip-cpu", "HIP-ERR-1"}, "HIP-CPU does not record failed calls as the last error"},
      {{"hip-cpu", "HIP-EVT-2"}, "HIP-CPU returns hipSuccess for elapsed time on DisableTiming events"},
      {{"hip-cpu", "HIP-LNC-4"}, "HIP-CPU has no hipLaunchKernel"},
      {{"hip-cpu", "HIP-STR-4"}, "HIP-CPU hangs waiting on another stream's pending event"},
      {{"hip-cuda", "HIP-ERR-2"}, "HIP on CUDA returns CUDA's error names"},
  };
  auto it = kDeviations.find({implementation, clause});
  return it == kDeviations.end() ? nullptr : it->second;
}

namespace {

TEST(HipDevice, HIP_DEV_1_AtLeastOneDevice) {
  HIP_CLAUSE("HIP-DEV-1");
  int count = 0;
  ASSERT_HIP_OK(hipGetDeviceCount(&count));
  EXPECT_GE(count, 1);
  EXPECT_HIP(hipErrorInvalidValue, hipGetDeviceCount(nullptr));
}

TEST(HipDevice, HIP_DEV_2_SetAndGetDevice) {
  HIP_CLAUSE("HIP-DEV-2");
  int count = 0;
  ASSERT_HIP_OK(hipGetDeviceCount(&count));
  ASSERT_HIP_OK(hipSetDevice(0));
  int current = -1;
  ASSERT_HIP_OK(hipGetDevice(&current));
  EXPECT_EQ(current, 0);
  EXPECT_HIP(hipErrorInvalidDevice, hipSetDevice(count));
  EXPECT_HIP(hipErrorInvalidDevice, hipSetDevice(-1));
  EXPECT_HIP(hipErrorInvalidValue, hipGetDevice(nullptr));
  hipGetLastError();
}

TEST(HipDevice, HIP_DEV_3_PropertiesDescribeTheDevice) {
  HIP_CLAUSE("HIP-DEV-3");
  hipDeviceProp_t prop;
  std::memset(&prop, 0, sizeof prop);
  ASSERT_HIP_OK(hipGetDeviceProperties(&prop, 0));
  EXPECT_GT(std::strlen(prop.name), 0u);
  EXPECT_GT(prop.warpSize, 0);
  EXPECT_GE(prop.maxThreadsPerBlock, 256);
  EXPECT_GT(prop.totalGlobalMem, 0u);
  EXPECT_GT(prop.multiProcessorCount, 0);
  EXPECT_GT(prop.sharedMemPerBlock, 0u);
  EXPECT_HIP(hipErrorInvalidDevice, hipGetDeviceProperties(&prop, 99));
  EXPECT_HIP(hipErrorInvalidValue, hipGetDeviceProperties(nullptr, 0));
  hipGetLastError();
}

TEST(HipDevice, HIP_DEV_4_DeviceSynchronizeWithNothingPending) {
  HIP_CLAUSE("HIP-DEV-4");
  EXPECT_HIP(hipSuccess, hipDeviceSynchronize());
}

TEST(HipError, HIP_ERR_1_LastErrorIsKeptUntilReadThenReset) {
  HIP_CLAUSE("HIP-ERR-1");
  hipGetLastError();
  EXPECT_HIP(hipErrorInvalidValue, hipMalloc(nullptr, 16));
  EXPECT_HIP(hipErrorInvalidValue, hipPeekAtLastError());
  EXPECT_HIP(hipErrorInvalidValue, hipPeekAtLastError());
  EXPECT_HIP(hipErrorInvalidValue, hipGetLastError());
  EXPECT_HIP(hipSuccess, hipGetLastError());
}

TEST(HipError, HIP_ERR_2_NamesAndStrings) {
  HIP_CLAUSE("HIP-ERR-2");
  EXPECT_STREQ(hipGetErrorName(hipSuccess), "hipSuccess");
  EXPECT_STREQ(hipGetErrorName(hipErrorInvalidValue), "hipErrorInvalidValue");
  EXPECT_STREQ(hipGetErrorName(hipErrorInvalidConfiguration), "hipErrorInvalidConfiguration");
  EXPECT_GT(std::strlen(hipGetErrorString(hipErrorOutOfMemory)), 0u);
}

TEST(HipError, HIP_ERR_3_NumericValuesMatchHip) {
  HIP_CLAUSE("HIP-ERR-3");
  EXPECT_EQ(static_cast<int>(hipErrorInvalidValue), 1);
  EXPECT_EQ(static_cast<int>(hipErrorOutOfMemory), 2);
  EXPECT_EQ(static_cast<int>(hipErrorInvalidConfiguration), 9);
  EXPECT_EQ(static_cast<int>(hipErrorInvalidDevicePointer), 17);
  EXPECT_EQ(static_cast<int>(hipErrorInvalidMemcpyDirection), 21);
  EXPECT_EQ(static_cast<int>(hipErrorInvalidDeviceFunction), 98);
  EXPECT_EQ(static_cast<int>(hipErrorInvalidDevice), 101);
  EXPECT_EQ(static_cast<int>(hipErrorInvalidResourceHandle), 400);
  EXPECT_EQ(static_cast<int>(hipErrorNotReady), 600);
}

}  // namespace
}  // namespace hip_suite
