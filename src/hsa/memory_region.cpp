// hsa/memory_region.cpp - region / memory pool attributes and thunk allocation.
#include "hsa/memory_region.h"

#include <cstring>

#include "hsa/agent.h"
#include "hsa/info_value.h"

namespace rocref::hsa {

uint32_t MemoryRegion::global_flags() const noexcept {
  // The region and pool flag bits have the same values (KERNARG 1, FINE 2, COARSE 4).
  switch (kind_) {
    case Kind::DeviceLocal: return HSA_REGION_GLOBAL_FLAG_COARSE_GRAINED;
    case Kind::Group: return 0;
    case Kind::System: return HSA_REGION_GLOBAL_FLAG_FINE_GRAINED;
    case Kind::Kernarg: return HSA_REGION_GLOBAL_FLAG_FINE_GRAINED | HSA_REGION_GLOBAL_FLAG_KERNARG;
    case Kind::SystemCoarse: return HSA_REGION_GLOBAL_FLAG_COARSE_GRAINED;
  }
  return 0;
}

hsa_status_t MemoryRegion::get_region_info(uint32_t attribute, void* value) const {
  switch (attribute) {
    case HSA_REGION_INFO_SEGMENT:
      return put_info<hsa_region_segment_t>(value, kind_ == Kind::Group ? HSA_REGION_SEGMENT_GROUP
                                                                        : HSA_REGION_SEGMENT_GLOBAL);
    case HSA_REGION_INFO_GLOBAL_FLAGS: return put_info<uint32_t>(value, global_flags());
    case HSA_REGION_INFO_SIZE: return put_info<size_t>(value, size_);
    case HSA_REGION_INFO_ALLOC_MAX_SIZE: return put_info<size_t>(value, alloc_max_size());
    case HSA_REGION_INFO_RUNTIME_ALLOC_ALLOWED: return put_info<bool>(value, allocatable());
    case HSA_REGION_INFO_RUNTIME_ALLOC_GRANULE: return put_info<size_t>(value, allocatable() ? kGranule : 0);
    case HSA_REGION_INFO_RUNTIME_ALLOC_ALIGNMENT: return put_info<size_t>(value, allocatable() ? kGranule : 0);
    // ROCR: only system memory counts as host-accessible, large BAR or not.
    case HSA_AMD_REGION_INFO_HOST_ACCESSIBLE: return put_info<bool>(value, is_system());
    case HSA_AMD_REGION_INFO_BASE: return put_info<void*>(value, nullptr);
    case HSA_AMD_REGION_INFO_BUS_WIDTH: return put_info<uint32_t>(value, 0);
    case HSA_AMD_REGION_INFO_MAX_CLOCK_FREQUENCY: return put_info<uint32_t>(value, 0);
    default: return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  }
}

hsa_status_t MemoryRegion::get_pool_info(uint32_t attribute, void* value) const {
  switch (attribute) {
    case HSA_AMD_MEMORY_POOL_INFO_SEGMENT:
      return put_info<hsa_amd_segment_t>(value, kind_ == Kind::Group ? HSA_AMD_SEGMENT_GROUP : HSA_AMD_SEGMENT_GLOBAL);
    case HSA_AMD_MEMORY_POOL_INFO_GLOBAL_FLAGS: {
      uint32_t flags = global_flags();
      if (kind_ == Kind::Kernarg) flags = HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_FINE_GRAINED |
                                          HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_KERNARG_INIT;
      return put_info<uint32_t>(value, flags);
    }
    case HSA_AMD_MEMORY_POOL_INFO_SIZE: return put_info<size_t>(value, size_);
    case HSA_AMD_MEMORY_POOL_INFO_RUNTIME_ALLOC_ALLOWED: return put_info<bool>(value, allocatable());
    case HSA_AMD_MEMORY_POOL_INFO_RUNTIME_ALLOC_GRANULE: return put_info<size_t>(value, allocatable() ? kGranule : 0);
    case HSA_AMD_MEMORY_POOL_INFO_RUNTIME_ALLOC_ALIGNMENT: return put_info<size_t>(value, allocatable() ? kGranule : 0);
    // System memory is reachable by every agent; VRAM only by its GPU until allowed; LDS by its GPU.
    case HSA_AMD_MEMORY_POOL_INFO_ACCESSIBLE_BY_ALL: return put_info<bool>(value, is_system());
    case HSA_AMD_MEMORY_POOL_INFO_ALLOC_MAX_SIZE: return put_info<size_t>(value, alloc_max_size());
    default: return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  }
}

hsa_status_t MemoryRegion::get_agent_access_info(const Agent& agent, uint32_t attribute, void* value) const {
  switch (attribute) {
    case HSA_AMD_AGENT_MEMORY_POOL_INFO_ACCESS: {
      // ROCR: the owner may use its pool; another agent reaches VRAM, and a GPU reaches system
      // memory, after hsa_amd_agents_allow_access; nothing but its GPU ever reaches LDS.
      hsa_amd_memory_pool_access_t access = HSA_AMD_MEMORY_POOL_ACCESS_ALLOWED_BY_DEFAULT;
      if (&agent != &owner_) {
        access = kind_ == Kind::Group ? HSA_AMD_MEMORY_POOL_ACCESS_NEVER_ALLOWED
                                      : HSA_AMD_MEMORY_POOL_ACCESS_DISALLOWED_BY_DEFAULT;
      }
      return put_info(value, access);
    }
    case HSA_AMD_AGENT_MEMORY_POOL_INFO_NUM_LINK_HOPS:
      return put_info<uint32_t>(value, &agent == &owner_ || kind_ == Kind::Group ? 0 : 1);
    default: return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  }
}

HsaMemFlags MemoryRegion::thunk_flags() const noexcept {
  HsaMemFlags flags{};
  flags.ui32.PageSize = HSA_PAGE_SIZE_4KB;
  flags.ui32.NonPaged = 1;
  // HSA-MEM-2: the model is a large-BAR part, so VRAM is host-visible as well.
  flags.ui32.HostAccess = 1;
  if (kind_ == Kind::DeviceLocal) {
    flags.ui32.CoarseGrain = 1;
    flags.ui32.NoSubstitute = 1;
  } else {
    flags.ui32.CoarseGrain = kind_ == Kind::SystemCoarse ? 1 : 0;
    flags.ui32.CachePolicy = HSA_CACHING_CACHED;
    flags.ui32.Uncached = kind_ == Kind::Kernarg ? 1 : 0;  // as ROCR (pointer info: KERNARG_INIT)
    flags.ui32.ExecuteAccess = 1;
  }
  return flags;
}

hsa_status_t MemoryRegion::allocate_pages(size_t size, void** ptr) const {
  void* address = nullptr;
  if (hsaKmtAllocMemory(owner_.node_id(), size, thunk_flags(), &address) != HSAKMT_STATUS_SUCCESS ||
      address == nullptr)
    return HSA_STATUS_ERROR_OUT_OF_RESOURCES;
  HSAuint64 gpu_va = 0;
  // HSA-AGENT-3, as ROCR's MemoryRegion::Allocate: VRAM is mapped into its own GPU's VM only
  // (other GPUs get it from hsa_amd_agents_allow_access); system memory into every GPU's.
  HSAuint32 owner_node = owner_.node_id();
  const HSAKMT_STATUS mapped = kind_ == Kind::DeviceLocal
                                   ? hsaKmtMapMemoryToGPUNodes(address, size, &gpu_va, HsaMemMapFlags{}, 1, &owner_node)
                                   : hsaKmtMapMemoryToGPU(address, size, &gpu_va);
  if (mapped != HSAKMT_STATUS_SUCCESS) {
    hsaKmtFreeMemory(address, size);
    return HSA_STATUS_ERROR_OUT_OF_RESOURCES;
  }
  *ptr = address;
  return HSA_STATUS_SUCCESS;
}

void MemoryRegion::free_pages(void* ptr, size_t size) const {
  hsaKmtUnmapMemoryToGPU(ptr);
  hsaKmtFreeMemory(ptr, size);
}

}  // namespace rocref::hsa
