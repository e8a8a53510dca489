// thunk/api_pointer.cpp - hsaKmtQueryPointerInfo / SetMemoryUserData / RegisterMemoryWithFlags.
#include "thunk/hsakmt_api.h"  // first: exports the hsaKmt* declarations

#include "thunk/api_guard.h"
#include "thunk/memory.h"

using namespace rocref::thunk;

extern "C" {

HSAKMT_STATUS HSAKMTAPI hsaKmtQueryPointerInfo(const void* Pointer, HsaPointerInfo* PointerInfo) {
  ROCREF_THUNK_LOCK_OPEN(p);
  if (!PointerInfo) return HSAKMT_STATUS_INVALID_PARAMETER;
  *PointerInfo = {};
  Allocation* a = p.find_allocation(Pointer);
  if (!a) {  // libhsakmt: unknown pointers are HSA_POINTER_UNKNOWN with an error
    PointerInfo->Type = HSA_POINTER_UNKNOWN;
    return HSAKMT_STATUS_ERROR;
  }
  PointerInfo->Type = a->from_register ? HSA_POINTER_REGISTERED_USER : HSA_POINTER_ALLOCATED;
  PointerInfo->Node = a->node;
  PointerInfo->MemFlags = a->flags;
  PointerInfo->CPUAddress = a->address;
  PointerInfo->GPUAddress = reinterpret_cast<uintptr_t>(a->address);  // MEM-VA-1
  PointerInfo->SizeInBytes = a->size;
  if (a->from_register) {  // libhsakmt: the pointer and bytes registered, the GPU address of that pointer
    PointerInfo->CPUAddress = a->user_address;
    PointerInfo->SizeInBytes = a->user_size;
    PointerInfo->GPUAddress += reinterpret_cast<uintptr_t>(a->user_address) & (kPageSize - 1);
  }
  PointerInfo->UserData = a->user_data;
  // The arrays stay valid until the buffer changes, as libhsakmt's do.
  auto to_nodes = [&p](const std::vector<uint32_t>& gpu_ids, std::vector<uint32_t>* nodes) {
    nodes->clear();
    for (uint32_t id : gpu_ids)
      if (const auto n = p.node_of_gpu_id(id)) nodes->push_back(*n);
  };
  to_nodes(a->registered_gpus, &a->node_scratch[0]);
  to_nodes(a->mapped_gpus, &a->node_scratch[1]);
  PointerInfo->NRegisteredNodes = static_cast<HSAuint32>(a->node_scratch[0].size());
  PointerInfo->RegisteredNodes = a->node_scratch[0].empty() ? nullptr : a->node_scratch[0].data();
  PointerInfo->NMappedNodes = static_cast<HSAuint32>(a->node_scratch[1].size());
  PointerInfo->MappedNodes = a->node_scratch[1].empty() ? nullptr : a->node_scratch[1].data();
  return HSAKMT_STATUS_SUCCESS;
}

HSAKMT_STATUS HSAKMTAPI hsaKmtSetMemoryUserData(const void* Pointer, void* UserData) {
  ROCREF_THUNK_LOCK_OPEN(p);
  Allocation* a = p.find_allocation(Pointer);
  if (!a) return HSAKMT_STATUS_ERROR;
  a->user_data = UserData;
  return HSAKMT_STATUS_SUCCESS;
}

HSAKMT_STATUS HSAKMTAPI hsaKmtRegisterMemoryWithFlags(void* MemoryAddress, HSAuint64 MemorySizeInBytes,
                                                      HsaMemFlags MemFlags) {
  ROCREF_THUNK_LOCK_OPEN(p);
  // libhsakmt: registered memory must be ordinary paged host memory.
  if (MemFlags.ui32.HostAccess != 1 || MemFlags.ui32.NonPaged == 1) return HSAKMT_STATUS_NOT_SUPPORTED;
  if (!MemoryAddress || !MemorySizeInBytes) return HSAKMT_STATUS_INVALID_PARAMETER;
  return register_locked(p, MemoryAddress, MemorySizeInBytes, {}, MemFlags.ui32.CoarseGrain);
}

}  // extern "C"
