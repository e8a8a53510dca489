// thunk/api_memory.cpp - hsaKmtAllocMemory / FreeMemory / Register / Map / Unmap.
#include "thunk/hsakmt_api.h"  // first: exports the hsaKmt* declarations

#include <vector>

#include "thunk/api_guard.h"
#include "thunk/memory.h"
#include "common/trace.h"

namespace rocref::thunk {
namespace {

uint64_t page_size_from_flags(uint32_t code) {
  switch (code) {
    case HSA_PAGE_SIZE_64KB: return uint64_t{64} << 10;
    case HSA_PAGE_SIZE_2MB: return uint64_t{2} << 20;
    case HSA_PAGE_SIZE_1GB: return uint64_t{1} << 30;
    default: return kPageSize;
  }
}

}  // namespace
}  // namespace rocref::thunk

using namespace rocref::thunk;

extern "C" {

HSAKMT_STATUS HSAKMTAPI hsaKmtAllocMemory(HSAuint32 PreferredNode, HSAuint64 SizeInBytes, HsaMemFlags MemFlags,
                                          void** MemoryAddress) {
  ROCREF_TRACE_SPAN(rocref::trace::Layer::Thunk, "hsaKmtAllocMemory", "");
  ROCREF_THUNK_LOCK_OPEN(p);
  const HSAKMT_STATUS st = validate_api_node(p, PreferredNode, nullptr);
  if (st != HSAKMT_STATUS_SUCCESS) return st;  // MEM-ALLOC-1
  const uint64_t page = page_size_from_flags(MemFlags.ui32.PageSize);
  if (!MemoryAddress || !SizeInBytes || (SizeInBytes & (page - 1))) return HSAKMT_STATUS_INVALID_PARAMETER;
  if (MemFlags.ui32.FixedAddress && !*MemoryAddress) return HSAKMT_STATUS_INVALID_PARAMETER;
  if (MemFlags.ui32.Scratch) {
    GpuNode* gpu = p.gpus.count(PreferredNode) ? &p.gpus.at(PreferredNode) : nullptr;
    if (!gpu || MemFlags.ui32.FixedAddress) return HSAKMT_STATUS_NO_MEMORY;
    return allocate_scratch_locked(p, *gpu, SizeInBytes, MemoryAddress);
  }
  void* out = nullptr;
  const HSAKMT_STATUS r = allocate_locked(p, PreferredNode, SizeInBytes, MemFlags, &out);
  if (r == HSAKMT_STATUS_SUCCESS) *MemoryAddress = out;
  return r;
}

HSAKMT_STATUS HSAKMTAPI hsaKmtFreeMemory(void* MemoryAddress, HSAuint64 SizeInBytes) {
  ROCREF_TRACE_SPAN(rocref::trace::Layer::Thunk, "hsaKmtFreeMemory", "");
  (void)SizeInBytes;  // the buffer is found by address, as in libhsakmt
  ROCREF_THUNK_LOCK_OPEN(p);
  if (!MemoryAddress) return HSAKMT_STATUS_ERROR;
  if (GpuNode* g = scratch_owner(p, MemoryAddress)) {  // the whole scratch backing goes
    free_scratch_locked(p, *g);
    return HSAKMT_STATUS_SUCCESS;
  }
  Allocation* a = p.find_allocation(MemoryAddress);
  if (!a || a->kind == MemKind::Doorbell || a->kind == MemKind::MmioRemap)  // MEM-FREE-1
    return HSAKMT_STATUS_MEMORY_NOT_REGISTERED;
  return free_locked(p, *a);
}

HSAKMT_STATUS HSAKMTAPI hsaKmtRegisterMemory(void* MemoryAddress, HSAuint64 MemorySizeInBytes) {
  ROCREF_TRACE_SPAN(rocref::trace::Layer::Thunk, "hsaKmtRegisterMemory", "");
  ROCREF_THUNK_LOCK_OPEN(p);
  if (!MemoryAddress || !MemorySizeInBytes) return HSAKMT_STATUS_INVALID_PARAMETER;
  return register_locked(p, MemoryAddress, MemorySizeInBytes, {}, true);
}

HSAKMT_STATUS HSAKMTAPI hsaKmtRegisterMemoryToNodes(void* MemoryAddress, HSAuint64 MemorySizeInBytes,
                                                    HSAuint64 NumberOfNodes, HSAuint32* NodeArray) {
  ROCREF_THUNK_LOCK_OPEN(p);
  std::vector<uint32_t> ids;
  const HSAKMT_STATUS st = gpu_ids_of(p, NumberOfNodes, NodeArray, &ids);
  if (st != HSAKMT_STATUS_SUCCESS) return st;
  if (!MemoryAddress || !MemorySizeInBytes) return HSAKMT_STATUS_INVALID_PARAMETER;
  return register_locked(p, MemoryAddress, MemorySizeInBytes, std::move(ids), true);
}

HSAKMT_STATUS HSAKMTAPI hsaKmtDeregisterMemory(void* MemoryAddress) {
  ROCREF_THUNK_LOCK_OPEN(p);
  Allocation* a = p.find_allocation(MemoryAddress);
  if (!a) return HSAKMT_STATUS_MEMORY_NOT_REGISTERED;
  // A registered userptr or an imported IPC buffer: deregistering releases the buffer (fmm_deregister_memory).
  if (a->from_register || a->imported) return free_locked(p, *a);
  if (a->registered_gpus.empty()) return HSAKMT_STATUS_MEMORY_NOT_REGISTERED;
  a->registered_gpus.clear();
  return HSAKMT_STATUS_SUCCESS;
}

HSAKMT_STATUS HSAKMTAPI hsaKmtMapMemoryToGPU(void* MemoryAddress, HSAuint64 MemorySizeInBytes,
                                             HSAuint64* AlternateVAGPU) {
  ROCREF_TRACE_SPAN(rocref::trace::Layer::Thunk, "hsaKmtMapMemoryToGPU", "");
  ROCREF_THUNK_LOCK_OPEN(p);
  if (!MemoryAddress) return HSAKMT_STATUS_ERROR;
  if (AlternateVAGPU) *AlternateVAGPU = 0;
  if (GpuNode* g = scratch_owner(p, MemoryAddress)) return map_scratch_locked(p, *g, MemoryAddress, MemorySizeInBytes);
  Allocation* a = p.find_allocation(MemoryAddress);
  if (!a) return HSAKMT_STATUS_ERROR;  // MEM-MAP-1: libhsakmt's "Object not found"
  const HSAKMT_STATUS st = map_locked(p, *a, {});
  // A userptr reports its GPU address; here it equals the CPU address (MEM-VA-1).
  if (st == HSAKMT_STATUS_SUCCESS && AlternateVAGPU && a->kind == MemKind::Userptr)
    *AlternateVAGPU = reinterpret_cast<uintptr_t>(MemoryAddress);
  return st;
}

HSAKMT_STATUS HSAKMTAPI hsaKmtMapMemoryToGPUNodes(void* MemoryAddress, HSAuint64 MemorySizeInBytes,
                                                  HSAuint64* AlternateVAGPU, HsaMemMapFlags MemMapFlags,
                                                  HSAuint64 NumberOfNodes, HSAuint32* NodeArray) {
  ROCREF_TRACE_SPAN(rocref::trace::Layer::Thunk, "hsaKmtMapMemoryToGPUNodes", "");
  (void)MemMapFlags;
  ROCREF_THUNK_LOCK_OPEN(p);
  if (!MemoryAddress) return HSAKMT_STATUS_ERROR;
  std::vector<uint32_t> ids;
  const HSAKMT_STATUS st = gpu_ids_of(p, NumberOfNodes, NodeArray, &ids);
  if (st != HSAKMT_STATUS_SUCCESS) return st;
  if (AlternateVAGPU) *AlternateVAGPU = 0;
  if (GpuNode* g = scratch_owner(p, MemoryAddress)) return map_scratch_locked(p, *g, MemoryAddress, MemorySizeInBytes);
  Allocation* a = p.find_allocation(MemoryAddress);
  if (!a) return HSAKMT_STATUS_ERROR;
  const HSAKMT_STATUS r = map_locked(p, *a, ids);
  if (r == HSAKMT_STATUS_SUCCESS && AlternateVAGPU && a->kind == MemKind::Userptr)
    *AlternateVAGPU = reinterpret_cast<uintptr_t>(MemoryAddress);
  return r;
}

HSAKMT_STATUS HSAKMTAPI hsaKmtUnmapMemoryToGPU(void* MemoryAddress) {
  ROCREF_THUNK_LOCK_OPEN(p);
  if (!MemoryAddress) return HSAKMT_STATUS_SUCCESS;  // libhsakmt: "workaround for runtime bug"
  if (GpuNode* g = scratch_owner(p, MemoryAddress)) return unmap_scratch_locked(p, *g, MemoryAddress);
  Allocation* a = p.find_allocation(MemoryAddress);
  if (!a) return HSAKMT_STATUS_ERROR;  // MEM-UNMAP-1
  return unmap_locked(p, *a);
}

}  // extern "C"
