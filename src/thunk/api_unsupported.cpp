// thunk/api_unsupported.cpp - hsaKmt calls ROCR links that need ioctls upstream KFD 1.11 lacks.
//
// IPC sharing (IPC_IMPORT/EXPORT_HANDLE) and graphics interop (dma-buf import)
// are out-of-tree or beyond this model. They answer
// NOT_SUPPORTED after the usual checks, which ROCR reports as an error of the
// feature and otherwise carries on.
#include "thunk/hsakmt_api.h"  // first: exports the hsaKmt* declarations

#include "thunk/api_guard.h"

extern "C" {

HSAKMT_STATUS HSAKMTAPI hsaKmtShareMemory(void* MemoryAddress, HSAuint64 SizeInBytes,
                                          HsaSharedMemoryHandle* SharedMemoryHandle) {
  (void)SizeInBytes;
  ROCREF_THUNK_LOCK_OPEN(p);
  if (!MemoryAddress || !SharedMemoryHandle) return HSAKMT_STATUS_INVALID_PARAMETER;
  return HSAKMT_STATUS_NOT_SUPPORTED;
}

HSAKMT_STATUS HSAKMTAPI hsaKmtRegisterSharedHandle(const HsaSharedMemoryHandle* SharedMemoryHandle,
                                                   void** MemoryAddress, HSAuint64* SizeInBytes) {
  ROCREF_THUNK_LOCK_OPEN(p);
  if (!SharedMemoryHandle || !MemoryAddress || !SizeInBytes) return HSAKMT_STATUS_INVALID_PARAMETER;
  return HSAKMT_STATUS_NOT_SUPPORTED;
}

HSAKMT_STATUS HSAKMTAPI hsaKmtRegisterSharedHandleToNodes(const HsaSharedMemoryHandle* SharedMemoryHandle,
                                                          void** MemoryAddress, HSAuint64* SizeInBytes,
                                                          HSAuint64 NumberOfNodes, HSAuint32* NodeArray) {
  (void)NumberOfNodes;
  (void)NodeArray;
  ROCREF_THUNK_LOCK_OPEN(p);
  if (!SharedMemoryHandle || !MemoryAddress || !SizeInBytes) return HSAKMT_STATUS_INVALID_PARAMETER;
  return HSAKMT_STATUS_NOT_SUPPORTED;
}

HSAKMT_STATUS HSAKMTAPI hsaKmtRegisterGraphicsHandleToNodes(HSAuint64 GraphicsResourceHandle,
                                                            HsaGraphicsResourceInfo* GraphicsResourceInfo,
                                                            HSAuint64 NumberOfNodes, HSAuint32* NodeArray) {
  (void)GraphicsResourceHandle;
  (void)NumberOfNodes;
  (void)NodeArray;
  ROCREF_THUNK_LOCK_OPEN(p);
  if (!GraphicsResourceInfo) return HSAKMT_STATUS_INVALID_PARAMETER;
  return HSAKMT_STATUS_NOT_SUPPORTED;
}

}  // extern "C"
