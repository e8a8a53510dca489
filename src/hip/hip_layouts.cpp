// hip/hip_layouts.cpp - the public structs rocref's HIP reads and writes have HIP 5.2.3's layouts (HIP-ABI-2).
//
// The numbers are those of Debian's libamdhip64-dev 5.2.3 on x86-64: a
// header of another HIP version with a different layout stops the build
// instead of exchanging misplaced fields with programs built against 5.2.3.
#include <cstddef>

#include "hip/hip_runtime.h"

static_assert(HIP_VERSION_MAJOR == 5 && HIP_VERSION_MINOR == 2, "rocref's HIP implements HIP 5.2");
static_assert(sizeof(hipDeviceProp_t) == 792);
static_assert(offsetof(hipDeviceProp_t, totalGlobalMem) == 256);
static_assert(offsetof(hipDeviceProp_t, maxThreadsPerBlock) == 280);
static_assert(offsetof(hipDeviceProp_t, clockRate) == 308);
static_assert(offsetof(hipDeviceProp_t, arch) == 356);
static_assert(offsetof(hipDeviceProp_t, gcnArch) == 392);
static_assert(offsetof(hipDeviceProp_t, gcnArchName) == 396);
static_assert(offsetof(hipDeviceProp_t, cooperativeLaunch) == 656);
static_assert(offsetof(hipDeviceProp_t, maxTexture3D) == 680);
static_assert(offsetof(hipDeviceProp_t, hdpMemFlushCntl) == 696);
static_assert(offsetof(hipDeviceProp_t, memPitch) == 712);
static_assert(offsetof(hipDeviceProp_t, isLargeBar) == 764);
static_assert(offsetof(hipDeviceProp_t, managedMemory) == 772);
static_assert(offsetof(hipDeviceProp_t, pageableMemoryAccessUsesHostPageTables) == 788);
static_assert(sizeof(hipDeviceArch_t) == 4);
static_assert(sizeof(hipPointerAttribute_t) == 32);
static_assert(offsetof(hipPointerAttribute_t, device) == 4);
static_assert(offsetof(hipPointerAttribute_t, devicePointer) == 8);
static_assert(offsetof(hipPointerAttribute_t, hostPointer) == 16);
static_assert(offsetof(hipPointerAttribute_t, isManaged) == 24);
static_assert(offsetof(hipPointerAttribute_t, allocationFlags) == 28);
static_assert(sizeof(hipMemcpy3DParms) == 160);
static_assert(offsetof(hipMemcpy3DParms, srcPos) == 8);
static_assert(offsetof(hipMemcpy3DParms, srcPtr) == 32);
static_assert(offsetof(hipMemcpy3DParms, dstArray) == 64);
static_assert(offsetof(hipMemcpy3DParms, dstPos) == 72);
static_assert(offsetof(hipMemcpy3DParms, dstPtr) == 96);
static_assert(offsetof(hipMemcpy3DParms, extent) == 128);
static_assert(offsetof(hipMemcpy3DParms, kind) == 152);
static_assert(sizeof(hipChannelFormatDesc) == 20);
static_assert(offsetof(hipChannelFormatDesc, f) == 16);
static_assert(sizeof(hipPitchedPtr) == 32);
static_assert(sizeof(hipExtent) == 24);
static_assert(sizeof(hipPos) == 24);
static_assert(sizeof(hip_Memcpy2D) == 128);
static_assert(offsetof(hip_Memcpy2D, srcPitch) == 48);
static_assert(offsetof(hip_Memcpy2D, dstXInBytes) == 56);
static_assert(offsetof(hip_Memcpy2D, WidthInBytes) == 112);
static_assert(offsetof(hip_Memcpy2D, Height) == 120);
static_assert(sizeof(HIP_MEMCPY3D) == 128);
static_assert(offsetof(HIP_MEMCPY3D, dstXInBytes) == 56);
static_assert(offsetof(HIP_MEMCPY3D, WidthInBytes) == 112);
static_assert(offsetof(HIP_MEMCPY3D, Depth) == 120);
static_assert(sizeof(hipArray) == 64);
static_assert(offsetof(hipArray, desc) == 8);
static_assert(offsetof(hipArray, Format) == 44);
static_assert(offsetof(hipArray, isDrv) == 52);
static_assert(sizeof(HIP_ARRAY_DESCRIPTOR) == 24);
static_assert(sizeof(HIP_ARRAY3D_DESCRIPTOR) == 40);
static_assert(sizeof(hipFuncAttributes) == 56);
static_assert(offsetof(hipFuncAttributes, maxThreadsPerBlock) == 28);
static_assert(offsetof(hipFuncAttributes, sharedSizeBytes) == 48);
static_assert(sizeof(hipUUID) == 16);
static_assert(sizeof(dim3) == 12);
static_assert(sizeof(hipIpcMemHandle_t) == 64);
static_assert(sizeof(hipIpcEventHandle_t) == 64);
static_assert(sizeof(hipKernelNodeParams) == 64);
static_assert(offsetof(hipKernelNodeParams, func) == 24);
static_assert(offsetof(hipKernelNodeParams, gridDim) == 32);
static_assert(offsetof(hipKernelNodeParams, kernelParams) == 48);
static_assert(offsetof(hipKernelNodeParams, sharedMemBytes) == 56);
static_assert(sizeof(hipMemsetParams) == 48);
static_assert(offsetof(hipMemsetParams, elementSize) == 8);
static_assert(offsetof(hipMemsetParams, height) == 16);
static_assert(offsetof(hipMemsetParams, pitch) == 24);
static_assert(offsetof(hipMemsetParams, value) == 32);
static_assert(offsetof(hipMemsetParams, width) == 40);
static_assert(sizeof(hipHostNodeParams) == 16);
static_assert(sizeof(hipLaunchParams) == 56);
static_assert(offsetof(hipLaunchParams, args) == 32);
static_assert(offsetof(hipLaunchParams, stream) == 48);
// Texture objects and references (HIP-TEX-1..2): read and written in place.
static_assert(sizeof(textureReference) == 88);
static_assert(offsetof(textureReference, textureObject) == 72);
static_assert(offsetof(textureReference, format) == 84);
static_assert(sizeof(hipResourceDesc) == 64);
static_assert(offsetof(hipResourceDesc, res) == 8);
static_assert(sizeof(hipTextureDesc) == 64);
static_assert(offsetof(hipTextureDesc, normalizedCoords) == 40);
static_assert(sizeof(hipResourceViewDesc) == 48);
static_assert(sizeof(HIP_RESOURCE_DESC) == 144);
static_assert(offsetof(HIP_RESOURCE_DESC, flags) == 136);
static_assert(sizeof(HIP_TEXTURE_DESC) == 104);
static_assert(offsetof(HIP_TEXTURE_DESC, borderColor) == 40);
static_assert(sizeof(HIP_RESOURCE_VIEW_DESC) == 112);
