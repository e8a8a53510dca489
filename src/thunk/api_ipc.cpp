// thunk/api_ipc.cpp - hsaKmtShareMemory and hsaKmtRegisterSharedHandle(ToNodes) (THUNK-IPC-*).
//
// libhsakmt 5.2.3's memory.c over fmm_share_memory / fmm_register_shared_memory: the driver's
// IPC_EXPORT_HANDLE and IPC_IMPORT_HANDLE (common/kfd_ipc_abi.h). The imported buffer is
// registered, not mapped: hsaKmtMapMemoryToGPU(Nodes) maps it, hsaKmtDeregisterMemory frees it.
#include "thunk/hsakmt_api.h"  // first: exports the hsaKmt* declarations

#include <vector>

#include "thunk/api_guard.h"
#include "thunk/memory.h"

using namespace rocref::thunk;

extern "C" {

// THUNK-IPC-1
HSAKMT_STATUS HSAKMTAPI hsaKmtShareMemory(void* MemoryAddress, HSAuint64 SizeInBytes,
                                          HsaSharedMemoryHandle* SharedMemoryHandle) {
  ROCREF_THUNK_LOCK_OPEN(p);
  if (!SharedMemoryHandle) return HSAKMT_STATUS_INVALID_PARAMETER;
  return share_locked(p, MemoryAddress, SizeInBytes, SharedMemoryHandle);
}

// THUNK-IPC-2
HSAKMT_STATUS HSAKMTAPI hsaKmtRegisterSharedHandleToNodes(const HsaSharedMemoryHandle* SharedMemoryHandle,
                                                          void** MemoryAddress, HSAuint64* SizeInBytes,
                                                          HSAuint64 NumberOfNodes, HSAuint32* NodeArray) {
  ROCREF_THUNK_LOCK_OPEN(p);
  // libhsakmt writes both results unchecked; a null one is INVALID_PARAMETER here, not a crash.
  if (!SharedMemoryHandle || !MemoryAddress || !SizeInBytes) return HSAKMT_STATUS_INVALID_PARAMETER;
  std::vector<uint32_t> ids;
  if (NodeArray) {
    if (const HSAKMT_STATUS st = gpu_ids_of(p, NumberOfNodes, NodeArray, &ids); st != HSAKMT_STATUS_SUCCESS) return st;
  } else if (NumberOfNodes > 0) {
    return HSAKMT_STATUS_INVALID_PARAMETER;  // fmm_register_shared_memory: a count without an array
  }
  return import_locked(p, *SharedMemoryHandle, std::move(ids), MemoryAddress, SizeInBytes);
}

HSAKMT_STATUS HSAKMTAPI hsaKmtRegisterSharedHandle(const HsaSharedMemoryHandle* SharedMemoryHandle,
                                                   void** MemoryAddress, HSAuint64* SizeInBytes) {
  return hsaKmtRegisterSharedHandleToNodes(SharedMemoryHandle, MemoryAddress, SizeInBytes, 0, nullptr);
}

}  // extern "C"
