// tests/conformance/hip/hip_device_ext_test.cpp - attributes, identity, limits, contexts, error names (HIP-DEV-5..7,
// HIP-DEV-9, HIP-CTX-1, HIP-ERR-4).
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
    // Room for a pointer: HIP 5.2.3 stores the HDP flush registers' addresses through `pi`.
    alignas(8) int value[2] = {};
    const hipError_t e = hipDeviceGetAttribute(value, static_cast<hipDeviceAttribute_t>(a), 0);
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

#if HIP_SUITE_AMD_API
// hipDeviceArch_t in declaration order, as the gfx9 device compiler's __HIP_ARCH_HAS_*__ macros
// give them (amd_hip_runtime.h, device pass): no funnel shift, no __syncthreads extensions, no
// surface functions, no dynamic parallelism.
constexpr int kGfx9Arch[17] = {1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 1, 0, 0, 1, 0};

void arch_of(const hipDeviceArch_t& a, int* out) {
  const int flags[17] = {a.hasGlobalInt32Atomics, a.hasGlobalFloatAtomicExch,
                         a.hasSharedInt32Atomics, a.hasSharedFloatAtomicExch,
                         a.hasFloatAtomicAdd,     a.hasGlobalInt64Atomics,
                         a.hasSharedInt64Atomics, a.hasDoubles,
                         a.hasWarpVote,           a.hasWarpBallot,
                         a.hasWarpShuffle,        a.hasFunnelShift,
                         a.hasThreadFenceSystem,  a.hasSyncThreadsExt,
                         a.hasSurfaceFuncs,       a.has3dGrid,
                         a.hasDynamicParallelism};
  std::memcpy(out, flags, sizeof flags);
}

#if !defined(ROCREF_HIP_HOST_KERNELS)
// Built by hipcc: the device pass's own macros, read back from the GPU.
__global__ void arch_macros(int* out) {
  const int m[17] = {__HIP_ARCH_HAS_GLOBAL_INT32_ATOMICS__,
                     __HIP_ARCH_HAS_GLOBAL_FLOAT_ATOMIC_EXCH__,
                     __HIP_ARCH_HAS_SHARED_INT32_ATOMICS__,
                     __HIP_ARCH_HAS_SHARED_FLOAT_ATOMIC_EXCH__,
                     __HIP_ARCH_HAS_FLOAT_ATOMIC_ADD__,
                     __HIP_ARCH_HAS_GLOBAL_INT64_ATOMICS__,
                     __HIP_ARCH_HAS_SHARED_INT64_ATOMICS__,
                     __HIP_ARCH_HAS_DOUBLES__,
                     __HIP_ARCH_HAS_WARP_VOTE__,
                     __HIP_ARCH_HAS_WARP_BALLOT__,
                     __HIP_ARCH_HAS_WARP_SHUFFLE__,
                     __HIP_ARCH_HAS_WARP_FUNNEL_SHIFT__,
                     __HIP_ARCH_HAS_THREAD_FENCE_SYSTEM__,
                     __HIP_ARCH_HAS_SYNC_THREAD_EXT__,
                     __HIP_ARCH_HAS_SURFACE_FUNCS__,
                     __HIP_ARCH_HAS_3DGRID__,
                     __HIP_ARCH_HAS_DYNAMIC_PARALLEL__};
  for (int i = 0; i < 17; ++i) out[i] = m[i];
}
#endif

TEST(HipDevice, HIP_DEV_9_LimitsFlagsAndArchAsHip523) {
  HIP_CLAUSE("HIP-DEV-9");
  hipDeviceProp_t p;
  ASSERT_HIP_OK(hipGetDeviceProperties(&p, 0));
  // The heap limit is the device's global memory; the printf FIFO has no limit in HIP 5.2.3.
  size_t limit = 0;
  ASSERT_HIP_OK(hipDeviceGetLimit(&limit, hipLimitMallocHeapSize));
  EXPECT_EQ(limit, p.totalGlobalMem);
  EXPECT_HIP(hipErrorUnsupportedLimit, hipDeviceGetLimit(&limit, hipLimitPrintfFifoSize));
  EXPECT_HIP(hipErrorUnsupportedLimit, hipDeviceGetLimit(&limit, static_cast<hipLimit_t>(0)));
  // Sizes the attributes give as int are clamped in the properties too.
  int value = -1;
  ASSERT_HIP_OK(hipDeviceGetAttribute(&value, hipDeviceAttributeTotalConstantMemory, 0));
  EXPECT_EQ(static_cast<size_t>(value), p.totalConstMem);
  ASSERT_HIP_OK(hipDeviceGetAttribute(&value, hipDeviceAttributeMaxPitch, 0));
  EXPECT_EQ(static_cast<size_t>(value), p.memPitch);
  ASSERT_HIP_OK(hipDeviceGetAttribute(&value, hipDeviceAttributeMemoryPoolsSupported, 0));
  EXPECT_EQ(value, 0);
  // hipamd 5.2.3 does not list these attributes: hipErrorInvalidValue.
  for (hipDeviceAttribute_t a : {hipDeviceAttributeAsyncEngineCount, hipDeviceAttributeClockInstructionRate,
                                 hipDeviceAttributeGcnArch, hipDeviceAttributeIsLargeBar,
                                 hipDeviceAttributeMaxBlocksPerMultiProcessor, hipDeviceAttributeUnifiedAddressing}) {
    EXPECT_HIP(hipErrorInvalidValue, hipDeviceGetAttribute(&value, a, 0)) << "attribute " << a;
  }
  // Event flags: either release scope, not both, and nothing unknown.
  for (unsigned flags : {unsigned{hipEventReleaseToDevice}, unsigned{hipEventReleaseToSystem},
                         unsigned{hipEventDisableTiming | hipEventReleaseToDevice}}) {
    hipEvent_t e = nullptr;
    ASSERT_HIP_OK(hipEventCreateWithFlags(&e, flags)) << std::hex << flags;
    ASSERT_HIP_OK(hipEventDestroy(e));
  }
  hipEvent_t e = nullptr;
  EXPECT_HIP(hipErrorInvalidValue, hipEventCreateWithFlags(&e, hipEventReleaseToDevice | hipEventReleaseToSystem));
  EXPECT_HIP(hipErrorInvalidValue, hipEventCreateWithFlags(&e, 0x20000000u));
  EXPECT_HIP(hipErrorInvalidValue, hipEventCreateWithFlags(nullptr, 0));
  // The arch flags say what the device compiler says for the target.
  int reported[17];
  arch_of(p.arch, reported);
  if (std::strncmp(p.gcnArchName, "gfx9", 4) == 0) {
    for (int i = 0; i < 17; ++i) EXPECT_EQ(reported[i], kGfx9Arch[i]) << "hipDeviceArch_t flag " << i;
  }
#if !defined(ROCREF_HIP_HOST_KERNELS)
  int* d = nullptr;
  ASSERT_HIP_OK(hipMalloc(reinterpret_cast<void**>(&d), 17 * sizeof(int)));
  hipLaunchKernelGGL(arch_macros, dim3(1), dim3(1), 0, 0, d);
  int macros[17] = {};
  ASSERT_HIP_OK(hipMemcpy(macros, d, sizeof macros, hipMemcpyDeviceToHost));
  for (int i = 0; i < 17; ++i) EXPECT_EQ(reported[i], macros[i]) << "hipDeviceArch_t flag " << i;
  ASSERT_HIP_OK(hipFree(d));
#endif
  hipGetLastError();
}
#endif  // HIP_SUITE_AMD_API

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
