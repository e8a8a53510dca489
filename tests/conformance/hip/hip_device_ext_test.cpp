// tests/conformance/hip/hip_device_ext_test.cpp - attributes, identity, limits, contexts, error names (HIP-DEV-5..7, HIP-CTX-1, HIP-ERR-4).
#include <cstring>
#include <string>

#include "hip_suite.h"

namespace hip_suite {
namespace {

TEST(HipDevice, HIP_DEV_5_AttributesMatchProperties) {
  HIP_CLAUSE("HIP-DEV-5");
  hipDeviceProp_t p;
  ASSERT_HIP_OK(hipGetDeviceProperties(&p, 0));
  const struct {
    hipDeviceAttribute_t attribute;
    int expected;
  } pairs[] = {
      {hipDeviceAttributeMaxThreadsPerBlock, p.maxThreadsPerBlock},
      {hipDeviceAttributeMaxBlockDimX, p.maxThreadsDim[0]},
      {hipDeviceAttributeMaxBlockDimY, p.maxThreadsDim[1]},
      {hipDeviceAttributeMaxBlockDimZ, p.maxThreadsDim[2]},
      {hipDeviceAttributeMaxGridDimX, p.maxGridSize[0]},
      {hipDeviceAttributeWarpSize, p.warpSize},
      {hipDeviceAttributeMultiprocessorCount, p.multiProcessorCount},
      {hipDeviceAttributeComputeCapabilityMajor, p.major},
      {hipDeviceAttributeComputeCapabilityMinor, p.minor},
      {hipDeviceAttributeMaxSharedMemoryPerBlock, static_cast<int>(p.sharedMemPerBlock)},
      {hipDeviceAttributeClockRate, p.clockRate},
      {hipDeviceAttributePciBusId, p.pciBusID},
      {hipDeviceAttributePciDeviceId, p.pciDeviceID},
      {hipDeviceAttributeL2CacheSize, p.l2CacheSize},
      {hipDeviceAttributeMaxThreadsPerMultiProcessor, p.maxThreadsPerMultiProcessor},
      {hipDeviceAttributeIntegrated, p.integrated},
      {hipDeviceAttributeManagedMemory, p.managedMemory},
      {hipDeviceAttributeCanMapHostMemory, p.canMapHostMemory},
  };
  for (const auto& pair : pairs) {
    int value = -12345;
    ASSERT_HIP_OK(hipDeviceGetAttribute(&value, pair.attribute, 0)) << pair.attribute;
    EXPECT_EQ(value, pair.expected) << "attribute " << pair.attribute;
  }
  int value = 0;
  EXPECT_HIP(hipErrorInvalidValue, hipDeviceGetAttribute(nullptr, hipDeviceAttributeWarpSize, 0));
  EXPECT_HIP(hipErrorInvalidDevice, hipDeviceGetAttribute(&value, hipDeviceAttributeWarpSize, 99));
  EXPECT_HIP(hipErrorInvalidValue, hipDeviceGetAttribute(&value, static_cast<hipDeviceAttribute_t>(-7), 0));
  hipGetLastError();
}

TEST(HipDevice, HIP_DEV_5_EveryAttributeAnswers) {
  HIP_CLAUSE("HIP-DEV-5");
  // Every enumerator from the first CUDA-compatible one to the last AMD-specific one
  // either gives a value or is hipErrorInvalidValue; none fails any other way.
  int answered = 0;
  for (int a = hipDeviceAttributeCudaCompatibleBegin; a < hipDeviceAttributeAmdSpecificEnd; ++a) {
    int value = 0;
    const hipError_t e = hipDeviceGetAttribute(&value, static_cast<hipDeviceAttribute_t>(a), 0);
    ASSERT_TRUE(e == hipSuccess || e == hipErrorInvalidValue) << "attribute " << a << " gave " << e;
    answered += e == hipSuccess;
  }
  EXPECT_GE(answered, 50);
  hipGetLastError();
}

TEST(HipDevice, HIP_DEV_6_IdentityNameMemoryAndPciBusId) {
  HIP_CLAUSE("HIP-DEV-6");
  hipDeviceProp_t p;
  ASSERT_HIP_OK(hipGetDeviceProperties(&p, 0));
  hipDevice_t device = -1;
  ASSERT_HIP_OK(hipDeviceGet(&device, 0));
  EXPECT_EQ(device, 0);
  char name[256] = {};
  ASSERT_HIP_OK(hipDeviceGetName(name, sizeof name, device));
  EXPECT_STREQ(name, p.name);
  size_t total = 0;
  ASSERT_HIP_OK(hipDeviceTotalMem(&total, device));
  EXPECT_EQ(total, p.totalGlobalMem);
  int major = -1, minor = -1;
  ASSERT_HIP_OK(hipDeviceComputeCapability(&major, &minor, device));
  EXPECT_EQ(major, p.major);
  EXPECT_EQ(minor, p.minor);
  char bus[32] = {};
  ASSERT_HIP_OK(hipDeviceGetPCIBusId(bus, sizeof bus, 0));
  int found = -1;
  ASSERT_HIP_OK(hipDeviceGetByPCIBusId(&found, bus));
  EXPECT_EQ(found, 0);
  EXPECT_HIP(hipErrorInvalidDevice, hipDeviceGet(&device, 99));
  EXPECT_HIP(hipErrorInvalidValue, hipDeviceGetName(nullptr, 10, 0));
  EXPECT_HIP(hipErrorInvalidDevice, hipDeviceTotalMem(&total, 99));
  hipGetLastError();
}

TEST(HipDevice, HIP_DEV_7_ConfigurationsAndFlags) {
  HIP_CLAUSE("HIP-DEV-7");
  ASSERT_HIP_OK(hipDeviceSetCacheConfig(hipFuncCachePreferShared));
  hipFuncCache_t cache = hipFuncCachePreferNone;
  ASSERT_HIP_OK(hipDeviceGetCacheConfig(&cache));
  ASSERT_HIP_OK(hipDeviceSetCacheConfig(hipFuncCachePreferNone));
  hipSharedMemConfig shared;
  ASSERT_HIP_OK(hipDeviceGetSharedMemConfig(&shared));
  size_t heap = 1;
  ASSERT_HIP_OK(hipDeviceGetLimit(&heap, hipLimitMallocHeapSize));
  EXPECT_HIP(hipErrorInvalidValue, hipDeviceGetLimit(nullptr, hipLimitMallocHeapSize));
  int least = 0, greatest = 0;
  ASSERT_HIP_OK(hipDeviceGetStreamPriorityRange(&least, &greatest));
  EXPECT_LE(greatest, least);  // lower numbers are higher priorities
  unsigned flags = 0xdead;
  ASSERT_HIP_OK(hipGetDeviceFlags(&flags));
  EXPECT_HIP(hipErrorInvalidValue, hipSetDeviceFlags(0x1000));
  int version = 0;
  ASSERT_HIP_OK(hipRuntimeGetVersion(&version));
  EXPECT_GT(version, 0);
  hipGetLastError();
}

TEST(HipContext, HIP_CTX_1_PrimaryContextIsTheDevice) {
  HIP_CLAUSE("HIP-CTX-1");
  hipCtx_t ctx = nullptr;
  ASSERT_HIP_OK(hipDevicePrimaryCtxRetain(&ctx, 0));
  ASSERT_NE(ctx, nullptr);
  unsigned flags = 0;
  int active = 0;
  ASSERT_HIP_OK(hipDevicePrimaryCtxGetState(0, &flags, &active));
  EXPECT_EQ(active, 1);
  ASSERT_HIP_OK(hipCtxPushCurrent(ctx));
  hipCtx_t current = nullptr;
  ASSERT_HIP_OK(hipCtxGetCurrent(&current));
  EXPECT_EQ(current, ctx);
  hipDevice_t device = -1;
  ASSERT_HIP_OK(hipCtxGetDevice(&device));
  EXPECT_EQ(device, 0);
  ASSERT_HIP_OK(hipCtxSynchronize());
  hipCtx_t popped = nullptr;
  ASSERT_HIP_OK(hipCtxPopCurrent(&popped));
  EXPECT_EQ(popped, ctx);
  ASSERT_HIP_OK(hipDevicePrimaryCtxRelease(0));
  EXPECT_HIP(hipErrorInvalidValue, hipDevicePrimaryCtxRetain(nullptr, 0));
  hipGetLastError();
}

TEST(HipError, HIP_ERR_4_EveryCodeHasItsNameAndAText) {
  HIP_CLAUSE("HIP-ERR-4");
  const struct {
    hipError_t code;
    const char* name;
  } codes[] = {
      {hipErrorProfilerDisabled, "hipErrorProfilerDisabled"},
      {hipErrorContextAlreadyCurrent, "hipErrorContextAlreadyCurrent"},
      {hipErrorMapFailed, "hipErrorMapFailed"},
      {hipErrorNoBinaryForGpu, "hipErrorNoBinaryForGpu"},
      {hipErrorUnsupportedLimit, "hipErrorUnsupportedLimit"},
      {hipErrorPeerAccessUnsupported, "hipErrorPeerAccessUnsupported"},
      {hipErrorFileNotFound, "hipErrorFileNotFound"},
      {hipErrorSharedObjectInitFailed, "hipErrorSharedObjectInitFailed"},
      {hipErrorPeerAccessAlreadyEnabled, "hipErrorPeerAccessAlreadyEnabled"},
      {hipErrorPeerAccessNotEnabled, "hipErrorPeerAccessNotEnabled"},
      {hipErrorContextIsDestroyed, "hipErrorContextIsDestroyed"},
      {hipErrorHostMemoryAlreadyRegistered, "hipErrorHostMemoryAlreadyRegistered"},
      {hipErrorHostMemoryNotRegistered, "hipErrorHostMemoryNotRegistered"},
      {hipErrorCooperativeLaunchTooLarge, "hipErrorCooperativeLaunchTooLarge"},
      {hipErrorStreamCaptureUnsupported, "hipErrorStreamCaptureUnsupported"},
      {hipErrorCapturedEvent, "hipErrorCapturedEvent"},
      {hipErrorGraphExecUpdateFailure, "hipErrorGraphExecUpdateFailure"},
  };
  for (const auto& c : codes) {
    EXPECT_STREQ(hipGetErrorName(c.code), c.name);
    const char* text = hipGetErrorString(c.code);
    ASSERT_NE(text, nullptr);
    EXPECT_GT(std::strlen(text), 0u) << c.name;
  }
}

}  // namespace
}  // namespace hip_suite
