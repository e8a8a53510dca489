// hip/hip_device_attribute.cpp - hipDeviceGetAttribute: every hipDeviceAttribute_t of HIP 5.2.3 (HIP-DEV-5).
//
// As hipamd 5.2.3 does, each attribute is read from the hipDeviceProp_t of the
// device; attributes without a value on AMD GPUs (Luid, Uuid, Name as int, ...)
// and values outside the enumeration are hipErrorInvalidValue.
#include "hip/hip_device_props.h"
#include "hip/hip_state.h"

using rocref::hip::result;

namespace {

// The attribute's value, or false for an attribute HIP 5.2.3 answers with hipErrorInvalidValue.
bool attribute_value(const hipDeviceProp_t& p, hipDeviceAttribute_t attr, int* v) {
  switch (attr) {
    case hipDeviceAttributeEccEnabled: *v = p.ECCEnabled; return true;
    case hipDeviceAttributeAccessPolicyMaxWindowSize: *v = 0; return true;
    case hipDeviceAttributeAsyncEngineCount: *v = 1; return true;
    case hipDeviceAttributeCanMapHostMemory: *v = p.canMapHostMemory; return true;
    case hipDeviceAttributeCanUseHostPointerForRegisteredMem: *v = 1; return true;
    case hipDeviceAttributeClockRate: *v = p.clockRate; return true;
    case hipDeviceAttributeComputeMode: *v = p.computeMode; return true;
    case hipDeviceAttributeComputePreemptionSupported: *v = 0; return true;
    case hipDeviceAttributeConcurrentKernels: *v = p.concurrentKernels; return true;
    case hipDeviceAttributeConcurrentManagedAccess: *v = p.concurrentManagedAccess; return true;
    case hipDeviceAttributeCooperativeLaunch: *v = p.cooperativeLaunch; return true;
    case hipDeviceAttributeCooperativeMultiDeviceLaunch: *v = p.cooperativeMultiDeviceLaunch; return true;
    case hipDeviceAttributeDeviceOverlap: *v = 1; return true;
    case hipDeviceAttributeDirectManagedMemAccessFromHost: *v = p.directManagedMemAccessFromHost; return true;
    case hipDeviceAttributeGlobalL1CacheSupported: *v = 1; return true;
    case hipDeviceAttributeHostNativeAtomicSupported: *v = 1; return true;
    case hipDeviceAttributeIntegrated: *v = p.integrated; return true;
    case hipDeviceAttributeIsMultiGpuBoard: *v = p.isMultiGpuBoard; return true;
    case hipDeviceAttributeKernelExecTimeout: *v = p.kernelExecTimeoutEnabled; return true;
    case hipDeviceAttributeL2CacheSize: *v = p.l2CacheSize; return true;
    case hipDeviceAttributeLocalL1CacheSupported: *v = 1; return true;
    case hipDeviceAttributeComputeCapabilityMajor: *v = p.major; return true;
    case hipDeviceAttributeManagedMemory: *v = p.managedMemory; return true;
    case hipDeviceAttributeMaxBlocksPerMultiProcessor: *v = rocref::hip::kMaxBlocksPerCu; return true;
    case hipDeviceAttributeMaxBlockDimX: *v = p.maxThreadsDim[0]; return true;
    case hipDeviceAttributeMaxBlockDimY: *v = p.maxThreadsDim[1]; return true;
    case hipDeviceAttributeMaxBlockDimZ: *v = p.maxThreadsDim[2]; return true;
    case hipDeviceAttributeMaxGridDimX: *v = p.maxGridSize[0]; return true;
    case hipDeviceAttributeMaxGridDimY: *v = p.maxGridSize[1]; return true;
    case hipDeviceAttributeMaxGridDimZ: *v = p.maxGridSize[2]; return true;
    case hipDeviceAttributeMaxTexture1DWidth: *v = p.maxTexture1D; return true;
    case hipDeviceAttributeMaxTexture1DLinear: *v = p.maxTexture1DLinear; return true;
    case hipDeviceAttributeMaxTexture2DWidth: *v = p.maxTexture2D[0]; return true;
    case hipDeviceAttributeMaxTexture2DHeight: *v = p.maxTexture2D[1]; return true;
    case hipDeviceAttributeMaxTexture3DWidth: *v = p.maxTexture3D[0]; return true;
    case hipDeviceAttributeMaxTexture3DHeight: *v = p.maxTexture3D[1]; return true;
    case hipDeviceAttributeMaxTexture3DDepth: *v = p.maxTexture3D[2]; return true;
    case hipDeviceAttributeMaxThreadsPerBlock: *v = p.maxThreadsPerBlock; return true;
    case hipDeviceAttributeMaxThreadsPerMultiProcessor: *v = p.maxThreadsPerMultiProcessor; return true;
    case hipDeviceAttributeMaxPitch: *v = static_cast<int>(p.memPitch > INT32_MAX ? INT32_MAX : p.memPitch); return true;
    case hipDeviceAttributeMemoryBusWidth: *v = p.memoryBusWidth; return true;
    case hipDeviceAttributeMemoryClockRate: *v = p.memoryClockRate; return true;
    case hipDeviceAttributeComputeCapabilityMinor: *v = p.minor; return true;
    case hipDeviceAttributeMultiGpuBoardGroupID: *v = 0; return true;
    case hipDeviceAttributeMultiprocessorCount: *v = p.multiProcessorCount; return true;
    case hipDeviceAttributePageableMemoryAccess: *v = p.pageableMemoryAccess; return true;
    case hipDeviceAttributePageableMemoryAccessUsesHostPageTables: *v = p.pageableMemoryAccessUsesHostPageTables; return true;
    case hipDeviceAttributePciBusId: *v = p.pciBusID; return true;
    case hipDeviceAttributePciDeviceId: *v = p.pciDeviceID; return true;
    case hipDeviceAttributePciDomainID: *v = p.pciDomainID; return true;
    case hipDeviceAttributePersistingL2CacheMaxSize: *v = 0; return true;
    case hipDeviceAttributeMaxRegistersPerBlock: *v = p.regsPerBlock; return true;
    case hipDeviceAttributeMaxRegistersPerMultiprocessor: *v = p.regsPerBlock; return true;
    case hipDeviceAttributeReservedSharedMemPerBlock: *v = 0; return true;
    case hipDeviceAttributeMaxSharedMemoryPerBlock: *v = static_cast<int>(p.sharedMemPerBlock); return true;
    case hipDeviceAttributeSharedMemPerBlockOptin: *v = static_cast<int>(p.sharedMemPerBlock); return true;
    case hipDeviceAttributeSharedMemPerMultiprocessor: *v = static_cast<int>(p.maxSharedMemoryPerMultiProcessor); return true;
    case hipDeviceAttributeSingleToDoublePrecisionPerfRatio: *v = 2; return true;
    case hipDeviceAttributeStreamPrioritiesSupported: *v = 1; return true;
    case hipDeviceAttributeSurfaceAlignment: *v = static_cast<int>(p.textureAlignment); return true;
    case hipDeviceAttributeTccDriver: *v = p.tccDriver; return true;
    case hipDeviceAttributeTextureAlignment: *v = static_cast<int>(p.textureAlignment); return true;
    case hipDeviceAttributeTexturePitchAlignment: *v = static_cast<int>(p.texturePitchAlignment); return true;
    case hipDeviceAttributeTotalConstantMemory:
      *v = static_cast<int>(p.totalConstMem > INT32_MAX ? INT32_MAX : p.totalConstMem);
      return true;
    case hipDeviceAttributeTotalGlobalMem:
      *v = static_cast<int>(p.totalGlobalMem > INT32_MAX ? INT32_MAX : p.totalGlobalMem);
      return true;
    case hipDeviceAttributeUnifiedAddressing: *v = 1; return true;
    case hipDeviceAttributeWarpSize: *v = p.warpSize; return true;
    case hipDeviceAttributeMemoryPoolsSupported: *v = 1; return true;
    case hipDeviceAttributeClockInstructionRate: *v = p.clockInstructionRate; return true;
    case hipDeviceAttributeMaxSharedMemoryPerMultiprocessor: *v = static_cast<int>(p.maxSharedMemoryPerMultiProcessor); return true;
    case hipDeviceAttributeGcnArch: *v = p.gcnArch; return true;
    case hipDeviceAttributeHdpMemFlushCntl:
    case hipDeviceAttributeHdpRegFlushCntl: return false;  // pointers in hipDeviceProp_t, not ints
    case hipDeviceAttributeCooperativeMultiDeviceUnmatchedFunc: *v = p.cooperativeMultiDeviceUnmatchedFunc; return true;
    case hipDeviceAttributeCooperativeMultiDeviceUnmatchedGridDim: *v = p.cooperativeMultiDeviceUnmatchedGridDim; return true;
    case hipDeviceAttributeCooperativeMultiDeviceUnmatchedBlockDim: *v = p.cooperativeMultiDeviceUnmatchedBlockDim; return true;
    case hipDeviceAttributeCooperativeMultiDeviceUnmatchedSharedMem: *v = p.cooperativeMultiDeviceUnmatchedSharedMem; return true;
    case hipDeviceAttributeIsLargeBar: *v = p.isLargeBar; return true;
    case hipDeviceAttributeAsicRevision: *v = p.asicRevision; return true;
    case hipDeviceAttributeCanUseStreamWaitValue: *v = 1; return true;
    case hipDeviceAttributeImageSupport: *v = 1; return true;  // texture objects (HIP-TEX-1); kernels fetch linear ones
    case hipDeviceAttributePhysicalMultiProcessorCount: *v = p.multiProcessorCount; return true;
    case hipDeviceAttributeFineGrainSupport: *v = 1; return true;
    default: return false;  // Luid, Uuid, Name, Arch, GcnArchName, surfaces, layered/cubemap/mipmap textures
  }
}

}  // namespace

hipError_t hipDeviceGetAttribute(int* pi, hipDeviceAttribute_t attr, int deviceId) {
  if (pi == nullptr) return result(hipErrorInvalidValue);
  hipDeviceProp_t prop;
  if (hipError_t e = rocref::hip::fill_properties(&prop, deviceId); e != hipSuccess) return result(e);
  if (!attribute_value(prop, attr, pi)) return result(hipErrorInvalidValue);
  return hipSuccess;
}
