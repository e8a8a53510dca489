// hip/hip_not_supported.cpp - the functions of hip_runtime_api.h rocref cannot give HIP 5.2.3 semantics (HIP-ABI-3).
//
// Each returns hipErrorNotSupported (recorded as the last error) and changes
// nothing; spec/hip.md lists each with its reason. The list is exported so the
// ABI check compares it with the spec.
#include "hip/hip_state.h"

#pragma GCC diagnostic ignored "-Wunused-parameter"

using rocref::hip::result;

hipError_t hipIpcGetMemHandle(hipIpcMemHandle_t* handle, void* devPtr) { return result(hipErrorNotSupported); }
hipError_t hipIpcOpenMemHandle(void** devPtr, hipIpcMemHandle_t handle, unsigned int flags) { return result(hipErrorNotSupported); }
hipError_t hipIpcCloseMemHandle(void* devPtr) { return result(hipErrorNotSupported); }
hipError_t hipIpcGetEventHandle(hipIpcEventHandle_t* handle, hipEvent_t event) { return result(hipErrorNotSupported); }
hipError_t hipIpcOpenEventHandle(hipEvent_t* event, hipIpcEventHandle_t handle) { return result(hipErrorNotSupported); }
hipError_t hipImportExternalSemaphore(hipExternalSemaphore_t* extSem_out, const hipExternalSemaphoreHandleDesc* semHandleDesc) { return result(hipErrorNotSupported); }
hipError_t hipSignalExternalSemaphoresAsync(const hipExternalSemaphore_t* extSemArray, const hipExternalSemaphoreSignalParams* paramsArray, unsigned int numExtSems, hipStream_t stream) { return result(hipErrorNotSupported); }
hipError_t hipWaitExternalSemaphoresAsync(const hipExternalSemaphore_t* extSemArray, const hipExternalSemaphoreWaitParams* paramsArray, unsigned int numExtSems, hipStream_t stream) { return result(hipErrorNotSupported); }
hipError_t hipDestroyExternalSemaphore(hipExternalSemaphore_t extSem) { return result(hipErrorNotSupported); }
hipError_t hipImportExternalMemory(hipExternalMemory_t* extMem_out, const hipExternalMemoryHandleDesc* memHandleDesc) { return result(hipErrorNotSupported); }
hipError_t hipExternalMemoryGetMappedBuffer(void **devPtr, hipExternalMemory_t extMem, const hipExternalMemoryBufferDesc *bufferDesc) { return result(hipErrorNotSupported); }
hipError_t hipDestroyExternalMemory(hipExternalMemory_t extMem) { return result(hipErrorNotSupported); }
hipError_t hipMemPoolExportToShareableHandle(void* shared_handle, hipMemPool_t mem_pool, hipMemAllocationHandleType handle_type, unsigned int flags) { return result(hipErrorNotSupported); }
hipError_t hipMemPoolImportFromShareableHandle(hipMemPool_t* mem_pool, void* shared_handle, hipMemAllocationHandleType handle_type, unsigned int flags) { return result(hipErrorNotSupported); }
hipError_t hipMemPoolExportPointer(hipMemPoolPtrExportData* export_data, void* dev_ptr) { return result(hipErrorNotSupported); }
hipError_t hipMemPoolImportPointer(void** dev_ptr, hipMemPool_t mem_pool, hipMemPoolPtrExportData* export_data) { return result(hipErrorNotSupported); }
hipError_t hipFreeMipmappedArray(hipMipmappedArray_t mipmappedArray) { return result(hipErrorNotSupported); }
hipError_t hipMallocMipmappedArray(hipMipmappedArray_t *mipmappedArray, const struct hipChannelFormatDesc* desc, struct hipExtent extent, unsigned int numLevels, unsigned int flags) { return result(hipErrorNotSupported); }
hipError_t hipGetMipmappedArrayLevel(hipArray_t *levelArray, hipMipmappedArray_const_t mipmappedArray, unsigned int level) { return result(hipErrorNotSupported); }
hipError_t hipModuleGetTexRef(textureReference** texRef, hipModule_t hmod, const char* name) { return result(hipErrorNotSupported); }
hipError_t hipProfilerStart() { return result(hipErrorNotSupported); }
hipError_t hipProfilerStop() { return result(hipErrorNotSupported); }
hipError_t hipBindTextureToMipmappedArray(const textureReference* tex, hipMipmappedArray_const_t mipmappedArray, const hipChannelFormatDesc* desc) { return result(hipErrorNotSupported); }
hipError_t hipTexRefSetArray(textureReference* tex, hipArray_const_t array, unsigned int flags) { return result(hipErrorNotSupported); }
hipError_t hipTexRefGetMipMappedArray(hipMipmappedArray_t* pArray, const textureReference* texRef) { return result(hipErrorNotSupported); }
hipError_t hipTexRefSetAddress(size_t* ByteOffset, textureReference* texRef, hipDeviceptr_t dptr, size_t bytes) { return result(hipErrorNotSupported); }
hipError_t hipTexRefSetAddress2D(textureReference* texRef, const HIP_ARRAY_DESCRIPTOR* desc, hipDeviceptr_t dptr, size_t Pitch) { return result(hipErrorNotSupported); }
hipError_t hipTexRefSetBorderColor(textureReference* texRef, float* pBorderColor) { return result(hipErrorNotSupported); }
hipError_t hipTexRefSetMipmappedArray(textureReference* texRef, struct hipMipmappedArray* mipmappedArray, unsigned int Flags) { return result(hipErrorNotSupported); }
hipError_t hipMipmappedArrayCreate(hipMipmappedArray_t* pHandle, HIP_ARRAY3D_DESCRIPTOR* pMipmappedArrayDesc, unsigned int numMipmapLevels) { return result(hipErrorNotSupported); }
hipError_t hipMipmappedArrayDestroy(hipMipmappedArray_t hMipmappedArray) { return result(hipErrorNotSupported); }
hipError_t hipMipmappedArrayGetLevel(hipArray_t* pLevelArray, hipMipmappedArray_t hMipMappedArray, unsigned int level) { return result(hipErrorNotSupported); }
hipError_t hipRegisterApiCallback(uint32_t id, void* fun, void* arg) { return result(hipErrorNotSupported); }
hipError_t hipRemoveApiCallback(uint32_t id) { return result(hipErrorNotSupported); }
hipError_t hipRegisterActivityCallback(uint32_t id, void* fun, void* arg) { return result(hipErrorNotSupported); }
hipError_t hipRemoveActivityCallback(uint32_t id) { return result(hipErrorNotSupported); }
hipError_t hipMemAddressFree(void* devPtr, size_t size) { return result(hipErrorNotSupported); }
hipError_t hipMemAddressReserve(void** ptr, size_t size, size_t alignment, void* addr, unsigned long long flags) { return result(hipErrorNotSupported); }
hipError_t hipMemCreate(hipMemGenericAllocationHandle_t* handle, size_t size, const hipMemAllocationProp* prop, unsigned long long flags) { return result(hipErrorNotSupported); }
hipError_t hipMemExportToShareableHandle(void* shareableHandle, hipMemGenericAllocationHandle_t handle, hipMemAllocationHandleType handleType, unsigned long long flags) { return result(hipErrorNotSupported); }
hipError_t hipMemGetAccess(unsigned long long* flags, const hipMemLocation* location, void* ptr) { return result(hipErrorNotSupported); }
hipError_t hipMemGetAllocationGranularity(size_t* granularity, const hipMemAllocationProp* prop, hipMemAllocationGranularity_flags option) { return result(hipErrorNotSupported); }
hipError_t hipMemGetAllocationPropertiesFromHandle(hipMemAllocationProp* prop, hipMemGenericAllocationHandle_t handle) { return result(hipErrorNotSupported); }
hipError_t hipMemImportFromShareableHandle(hipMemGenericAllocationHandle_t* handle, void* osHandle, hipMemAllocationHandleType shHandleType) { return result(hipErrorNotSupported); }
hipError_t hipMemMap(void* ptr, size_t size, size_t offset, hipMemGenericAllocationHandle_t handle, unsigned long long flags) { return result(hipErrorNotSupported); }
hipError_t hipMemMapArrayAsync(hipArrayMapInfo* mapInfoList, unsigned int count, hipStream_t stream) { return result(hipErrorNotSupported); }
hipError_t hipMemRelease(hipMemGenericAllocationHandle_t handle) { return result(hipErrorNotSupported); }
hipError_t hipMemRetainAllocationHandle(hipMemGenericAllocationHandle_t* handle, void* addr) { return result(hipErrorNotSupported); }
hipError_t hipMemSetAccess(void* ptr, size_t size, const hipMemAccessDesc* desc, size_t count) { return result(hipErrorNotSupported); }
hipError_t hipMemUnmap(void* ptr, size_t size) { return result(hipErrorNotSupported); }
hipError_t hipGLGetDevices(unsigned int* pHipDeviceCount, int* pHipDevices, unsigned int hipDeviceCount, hipGLDeviceList deviceList) { return result(hipErrorNotSupported); }
hipError_t hipGraphicsGLRegisterBuffer(hipGraphicsResource** resource, GLuint buffer, unsigned int flags) { return result(hipErrorNotSupported); }
hipError_t hipGraphicsGLRegisterImage(hipGraphicsResource** resource, GLuint image, GLenum target, unsigned int flags) { return result(hipErrorNotSupported); }
hipError_t hipGraphicsMapResources(int count, hipGraphicsResource_t* resources, hipStream_t stream) { return result(hipErrorNotSupported); }
hipError_t hipGraphicsSubResourceGetMappedArray(hipArray_t* array, hipGraphicsResource_t resource, unsigned int arrayIndex, unsigned int mipLevel) { return result(hipErrorNotSupported); }
hipError_t hipGraphicsResourceGetMappedPointer(void** devPtr, size_t* size, hipGraphicsResource_t resource) { return result(hipErrorNotSupported); }
hipError_t hipGraphicsUnmapResources(int count, hipGraphicsResource_t* resources, hipStream_t stream) { return result(hipErrorNotSupported); }
hipError_t hipGraphicsUnregisterResource(hipGraphicsResource_t resource) { return result(hipErrorNotSupported); }

extern "C" __attribute__((visibility("default"))) const char* const* rocref_hip_not_supported(void) {
  static const char* const names[] = {
      "hipIpcGetMemHandle",
      "hipIpcOpenMemHandle",
      "hipIpcCloseMemHandle",
      "hipIpcGetEventHandle",
      "hipIpcOpenEventHandle",
      "hipImportExternalSemaphore",
      "hipSignalExternalSemaphoresAsync",
      "hipWaitExternalSemaphoresAsync",
      "hipDestroyExternalSemaphore",
      "hipImportExternalMemory",
      "hipExternalMemoryGetMappedBuffer",
      "hipDestroyExternalMemory",
      "hipMemPoolExportToShareableHandle",
      "hipMemPoolImportFromShareableHandle",
      "hipMemPoolExportPointer",
      "hipMemPoolImportPointer",
      "hipFreeMipmappedArray",
      "hipMallocMipmappedArray",
      "hipGetMipmappedArrayLevel",
      "hipModuleGetTexRef",
      "hipProfilerStart",
      "hipProfilerStop",
      "hipBindTextureToMipmappedArray",
      "hipTexRefSetArray",
      "hipTexRefGetMipMappedArray",
      "hipTexRefSetAddress",
      "hipTexRefSetAddress2D",
      "hipTexRefSetBorderColor",
      "hipTexRefSetMipmappedArray",
      "hipMipmappedArrayCreate",
      "hipMipmappedArrayDestroy",
      "hipMipmappedArrayGetLevel",
      "hipRegisterApiCallback",
      "hipRemoveApiCallback",
      "hipRegisterActivityCallback",
      "hipRemoveActivityCallback",
      "hipMemAddressFree",
      "hipMemAddressReserve",
      "hipMemCreate",
      "hipMemExportToShareableHandle",
      "hipMemGetAccess",
      "hipMemGetAllocationGranularity",
      "hipMemGetAllocationPropertiesFromHandle",
      "hipMemImportFromShareableHandle",
      "hipMemMap",
      "hipMemMapArrayAsync",
      "hipMemRelease",
      "hipMemRetainAllocationHandle",
      "hipMemSetAccess",
      "hipMemUnmap",
      "hipGLGetDevices",
      "hipGraphicsGLRegisterBuffer",
      "hipGraphicsGLRegisterImage",
      "hipGraphicsMapResources",
      "hipGraphicsSubResourceGetMappedArray",
      "hipGraphicsResourceGetMappedPointer",
      "hipGraphicsUnmapResources",
      "hipGraphicsUnregisterResource",
      nullptr};
  return names;
}
