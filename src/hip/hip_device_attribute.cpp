// hip/hip_device_attribute.cpp - hipDeviceGetAttribute: every hipDeviceAttribute_t of HIP 5.2.3 (HIP-DEV-5).
//
// As hipamd 5.2.3 does, each attribute is read from the hipDeviceProp_t of the
// device; the attributes hipamd 5.2.3 does not list (AsyncEngineCount, Luid, Uuid,
// ClockInstructionRate, ...) and values outside the enumeration are hipErrorInvalidValue.
#include <algorithm>
#include <cstring>

#include "hip/hip_device_props.h"
#include "hip/hip_mutant.h"
#include "hip/hip_state.h"

using rocref::hip::result;

namespace {

// The attribute's value, or false for an attribute HIP 5.2.3 answers with hipErrorInvalidValue:
// hipamd 5.2.3's hipDeviceGetAttribute knows exactly these (HIP-DEV-9).
bool attribute_value(const hipDeviceProp_t& p, hipDeviceAttribute_t attr, int* v) {
  constexpr size_t kIntMax = INT32_MAX;
  switch (attr) {
    case hipDeviceAttributeMaxThreadsPerBlock: *v = p.maxThreadsPerBlock; return true;
    case hipDeviceAttributeMaxBlockDimX: *v = p.maxThreadsDim[0]; return true;
    case hipDeviceAttributeMaxBlockDimY: *v = p.maxThreadsDim[1]; return true;
    case hipDeviceAttributeMaxBlockDimZ: *v = p.maxThreadsDim[2]; return true;
    case hipDeviceAttributeMaxGridDimX: *v = p.maxGridSize[0]; return true;
    case hipDeviceAttributeMaxGridDimY: *v = p.maxGridSize[1]; return true;
    case hipDeviceAttributeMaxGridDimZ: *v = p.maxGridSize[2]; return true;
    case hipDeviceAttributeMaxSharedMemoryPerBlock: *v = static_cast<int>(p.sharedMemPerBlock); return true;
    case hipDeviceAttributeTotalConstantMemory: *v = static_cast<int>(std::min(p.totalConstMem, kIntMax)); return true;
    case hipDeviceAttributeWarpSize: *v = p.warpSize; return true;
    case hipDeviceAttributeMaxRegistersPerBlock: *v = p.regsPerBlock; return true;
    case hipDeviceAttributeClockRate: *v = p.clockRate; return true;
    case hipDeviceAttributeMemoryClockRate: *v = p.memoryClockRate; return true;
    case hipDeviceAttributeMemoryBusWidth: *v = p.memoryBusWidth; return true;
    case hipDeviceAttributeMultiprocessorCount: *v = p.multiProcessorCount; return true;
    case hipDeviceAttributeComputeMode: *v = p.computeMode; return true;
    case hipDeviceAttributeL2CacheSize: *v = p.l2CacheSize; return true;
    case hipDeviceAttributeMaxThreadsPerMultiProcessor: *v = p.maxThreadsPerMultiProcessor; return true;
    case hipDeviceAttributeComputeCapabilityMajor: *v = p.major; return true;
    case hipDeviceAttributeComputeCapabilityMinor: *v = p.minor; return true;
    case hipDeviceAttributePciBusId: *v = p.pciBusID; return true;
    case hipDeviceAttributeConcurrentKernels: *v = p.concurrentKernels; return true;
    case hipDeviceAttributePciDeviceId: *v = p.pciDeviceID; return true;
    case hipDeviceAttributeMaxSharedMemoryPerMultiprocessor:
      *v = static_cast<int>(p.maxSharedMemoryPerMultiProcessor);
      return true;
    case hipDeviceAttributeIsMultiGpuBoard: *v = p.isMultiGpuBoard; return true;
    case hipDeviceAttributeCooperativeLaunch: *v = p.cooperativeLaunch; return true;
    case hipDeviceAttributeCooperativeMultiDeviceLaunch: *v = p.cooperativeMultiDeviceLaunch; return true;
    case hipDeviceAttributeIntegrated: *v = p.integrated; return true;
    case hipDeviceAttributeMaxTexture1DWidth: *v = p.maxTexture1D; return true;
    case hipDeviceAttributeMaxTexture2DWidth: *v = p.maxTexture2D[0]; return true;
    case hipDeviceAttributeMaxTexture2DHeight: *v = p.maxTexture2D[1]; return true;
    case hipDeviceAttributeMaxTexture3DWidth: *v = p.maxTexture3D[0]; return true;
    case hipDeviceAttributeMaxTexture3DHeight: *v = p.maxTexture3D[1]; return true;
    case hipDeviceAttributeMaxTexture3DDepth: *v = p.maxTexture3D[2]; return true;
    // HIP 5.2.3 stores the register's address through `pi`, a pointer's width: callers pass one.
    case hipDeviceAttributeHdpMemFlushCntl: std::memcpy(v, &p.hdpMemFlushCntl, sizeof p.hdpMemFlushCntl); return true;
    case hipDeviceAttributeHdpRegFlushCntl: std::memcpy(v, &p.hdpRegFlushCntl, sizeof p.hdpRegFlushCntl); return true;
    case hipDeviceAttributeMaxPitch: *v = static_cast<int>(std::min(p.memPitch, kIntMax)); return true;
    case hipDeviceAttributeTextureAlignment: *v = static_cast<int>(p.textureAlignment); return true;
    case hipDeviceAttributeTexturePitchAlignment: *v = static_cast<int>(p.texturePitchAlignment); return true;
    case hipDeviceAttributeKernelExecTimeout: *v = p.kernelExecTimeoutEnabled; return true;
    case hipDeviceAttributeCanMapHostMemory: *v = p.canMapHostMemory; return true;
    case hipDeviceAttributeEccEnabled: *v = p.ECCEnabled; return true;
    case hipDeviceAttributeCooperativeMultiDeviceUnmatchedFunc: *v = p.cooperativeMultiDeviceUnmatchedFunc; return true;
    case hipDeviceAttributeCooperativeMultiDeviceUnmatchedGridDim: *v = p.cooperativeMultiDeviceUnmatchedGridDim; return true;
    case hipDeviceAttributeCooperativeMultiDeviceUnmatchedBlockDim: *v = p.cooperativeMultiDeviceUnmatchedBlockDim; return true;
    case hipDeviceAttributeCooperativeMultiDeviceUnmatchedSharedMem:
      *v = p.cooperativeMultiDeviceUnmatchedSharedMem;
      return true;
    case hipDeviceAttributeAsicRevision: *v = p.asicRevision; return true;
    case hipDeviceAttributeManagedMemory: *v = p.managedMemory; return true;
    case hipDeviceAttributeDirectManagedMemAccessFromHost: *v = p.directManagedMemAccessFromHost; return true;
    case hipDeviceAttributeConcurrentManagedAccess: *v = p.concurrentManagedAccess; return true;
    case hipDeviceAttributePageableMemoryAccess: *v = p.pageableMemoryAccess; return true;
    case hipDeviceAttributePageableMemoryAccessUsesHostPageTables:
      *v = p.pageableMemoryAccessUsesHostPageTables;
      return true;
    case hipDeviceAttributeCanUseStreamWaitValue: *v = 1; return true;  // BARRIER_VALUE packets (HIP-STR-8)
    case hipDeviceAttributeImageSupport: *v = 1; return true;  // texture objects (HIP-TEX-1); kernels fetch linear ones
    case hipDeviceAttributePhysicalMultiProcessorCount: *v = p.multiProcessorCount; return true;
    // ROCclr's isFineGrainSupported(): gfx90a's fine-grained device memory, not gfx900's.
    case hipDeviceAttributeFineGrainSupport: *v = std::strncmp(p.gcnArchName, "gfx90a", 6) == 0; return true;
    case hipDeviceAttributeMemoryPoolsSupported:
      *v = 0;
      return true;  // HIP 5.2.3's HIP_MEM_POOL_SUPPORT default
    // Everything else: AccessPolicyMaxWindowSize, AsyncEngineCount, ClockInstructionRate, GcnArch,
    // IsLargeBar, the texture and surface limits hipamd does not list, Luid, Uuid, ...
    default:
      return rocref::hip::hip_mutant_active(rocref::hip::HipMutant::ArchFlagsAsCuda) &&
                     attr == hipDeviceAttributeAsyncEngineCount
                 ? (*v = 1, true)
                 : false;
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
