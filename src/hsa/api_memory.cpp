// hsa/api_memory.cpp - C entry points: allocation, free, copy, fill and access.
#include <hsa/hsa.h>
#include <hsa/hsa_ext_amd.h>
#include <hsakmt.h>

#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

#include "common/trace.h"
#include "hsa/agent.h"
#include "hsa/async_copy.h"
#include "hsa/blit_kernel.h"
#include "hsa/hsa_mutant.h"
#include "hsa/memory_region.h"
#include "hsa/runtime.h"
#include "hsa/signal_object.h"

using rocref::hsa::Agent;
using rocref::hsa::Allocation;
using rocref::hsa::AsyncCopy;
using rocref::hsa::hsa_mutant_active;
using rocref::hsa::HsaMutant;
using rocref::hsa::MemoryRegion;
using rocref::hsa::Runtime;
using rocref::hsa::runtime;

namespace {

// HSA-MEM-3: checks shared by hsa_memory_allocate and hsa_amd_memory_pool_allocate.
hsa_status_t allocate(Runtime* rt, MemoryRegion* region, size_t size, void** ptr) {
  if (ptr == nullptr || size == 0) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  if (!region->allocatable() || size > region->alloc_max_size()) return HSA_STATUS_ERROR_INVALID_ALLOCATION;
  return rt->allocate(*region, size, ptr);
}

}  // namespace

extern "C" {

hsa_status_t HSA_API hsa_memory_allocate(hsa_region_t region, size_t size, void** ptr) {
  Runtime* rt = runtime();
  if (rt == nullptr) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  MemoryRegion* object = rt->find_region(region.handle);
  if (object == nullptr) return HSA_STATUS_ERROR_INVALID_REGION;
  return allocate(rt, object, size, ptr);
}

hsa_status_t HSA_API hsa_amd_memory_pool_allocate(hsa_amd_memory_pool_t memory_pool, size_t size, uint32_t flags,
                                                  void** ptr) {
  ROCREF_TRACE_SPAN(rocref::trace::Layer::Hsa, "hsa_amd_memory_pool_allocate", "size=" + std::to_string(size));
  Runtime* rt = runtime();
  if (rt == nullptr) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  MemoryRegion* object = rt->find_region(memory_pool.handle);
  if (object == nullptr) return static_cast<hsa_status_t>(HSA_STATUS_ERROR_INVALID_MEMORY_POOL);
  if (flags != 0) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  return allocate(rt, object, size, ptr);
}

// hsa.h: a null pointer is no action; an unknown one is INVALID_ARGUMENT here
// (the header leaves it undefined; rejecting it keeps the state intact).
hsa_status_t HSA_API hsa_memory_free(void* ptr) {
  Runtime* rt = runtime();
  if (rt == nullptr) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  if (ptr == nullptr) return HSA_STATUS_SUCCESS;
  return rt->free(ptr);
}

hsa_status_t HSA_API hsa_amd_memory_pool_free(void* ptr) { return hsa_memory_free(ptr); }

// HSA-MEM-4: a copy that touches VRAM is a blit-kernel dispatch on the owning GPU's queue, as
// in ROCR (the destination's GPU when both are VRAM); system-to-system copies are a host memcpy
// (ROCR too). A side outside every allocation is host memory ROCR locks for the copy
// (CopyMemory); here it is staged (BlitKernel::copy_with_host): memory the process cannot
// access is the lock's HSA_STATUS_ERROR and nothing is copied.
hsa_status_t HSA_API hsa_memory_copy(void* dst, const void* src, size_t size) {
  Runtime* rt = runtime();
  if (rt == nullptr) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  if (dst == nullptr || src == nullptr) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  if (size == 0) return HSA_STATUS_SUCCESS;
  Allocation dst_allocation, src_allocation;
  const bool dst_known = rt->find_allocation(dst, size, nullptr, &dst_allocation);
  const bool src_known = rt->find_allocation(src, size, nullptr, &src_allocation);
  Agent* gpu = nullptr;
  if (dst_known && dst_allocation.region->kind() == MemoryRegion::Kind::DeviceLocal)
    gpu = &dst_allocation.region->owner();
  else if (src_known && src_allocation.region->kind() == MemoryRegion::Kind::DeviceLocal)
    gpu = &src_allocation.region->owner();
  if (gpu == nullptr) {
    std::memmove(dst, src, size);
    return HSA_STATUS_SUCCESS;
  }
  // A range that starts inside an allocation and runs past its end: pinning the allocation's
  // pages as user memory fails on the hardware (they are a device mapping), so ROCR's lock does.
  if ((!src_known && rt->find_allocation(src, 1, nullptr, nullptr)) ||
      (!dst_known && rt->find_allocation(dst, 1, nullptr, nullptr))) {
    return HSA_STATUS_ERROR;
  }
  if (!dst_known || !src_known) return rt->blit(*gpu).copy_with_host(dst, !dst_known, src, !src_known, size);
  return rt->blit(*gpu).copy(dst, src, size);
}

// HSA-MEM-7: ROCR 5.2.3's checks, in its order; the copy runs on the runtime's copy thread.
hsa_status_t HSA_API hsa_amd_memory_async_copy(void* dst, hsa_agent_t dst_agent, const void* src, hsa_agent_t src_agent,
                                               size_t size, uint32_t num_dep_signals, const hsa_signal_t* dep_signals,
                                               hsa_signal_t completion_signal) {
  Runtime* rt = runtime();
  if (rt == nullptr) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  if (dst == nullptr || src == nullptr) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  if ((num_dep_signals == 0) != (dep_signals == nullptr)) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  Agent* to = rt->find_agent(dst_agent);
  Agent* from = rt->find_agent(src_agent);
  if (to == nullptr || from == nullptr) return HSA_STATUS_ERROR_INVALID_AGENT;
  AsyncCopy copy;
  copy.dependencies.resize(num_dep_signals);
  for (uint32_t i = 0; i < num_dep_signals; ++i) {
    if (hsa_status_t s = rt->checked_signal(dep_signals[i], &copy.dependencies[i]); s != HSA_STATUS_SUCCESS) return s;
  }
  if (hsa_status_t s = rt->checked_signal(completion_signal, &copy.completion); s != HSA_STATUS_SUCCESS) return s;
  // ROCR returns at once for 0 bytes: nothing is waited for and the signal keeps its value.
  if (size == 0) return HSA_STATUS_SUCCESS;
  copy.dst = dst;
  copy.src = src;
  copy.size = size;
  copy.gpu = from->is_gpu() ? from : to->is_gpu() ? to : nullptr;  // ROCR: the source GPU's engine first
  // HSA-PROF-2: only GPU copies are timed (ROCR's switch is the GPU agents').
  if (copy.gpu != nullptr && rt->async_copy_profiling()) {
    copy.profiled = true;
    copy.completion->set_async_copy_agent(copy.gpu);
  }
  return rt->async_copies().submit(std::move(copy));
}

// HSA-MEM-5: always the fill kernel of a GPU, as in ROCR.
hsa_status_t HSA_API hsa_amd_memory_fill(void* ptr, uint32_t value, size_t count) {
  Runtime* rt = runtime();
  if (rt == nullptr) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  if (ptr == nullptr || reinterpret_cast<uintptr_t>(ptr) % sizeof(uint32_t) != 0)
    return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  if (count > SIZE_MAX / sizeof(uint32_t)) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  if (count == 0) return HSA_STATUS_SUCCESS;
  // Only memory the runtime allocated, and only inside one allocation.
  Allocation allocation;
  if (!rt->find_allocation(ptr, count * sizeof(uint32_t), nullptr, &allocation))
    return HSA_STATUS_ERROR_INVALID_ALLOCATION;
  Agent* gpu = allocation.region->kind() == MemoryRegion::Kind::DeviceLocal ? &allocation.region->owner() : nullptr;
  for (size_t i = 0; gpu == nullptr && i < rt->agents().size(); ++i)
    if (rt->agents()[i]->is_gpu()) gpu = rt->agents()[i].get();
  if (gpu == nullptr) {
    std::fill_n(static_cast<uint32_t*>(ptr), count, value);
    return HSA_STATUS_SUCCESS;
  }
  return rt->blit(*gpu).fill(static_cast<uint32_t*>(ptr), value, count);
}

hsa_status_t HSA_API hsa_amd_agents_allow_access(uint32_t num_agents, const hsa_agent_t* agents,
                                                 const uint32_t* flags, const void* ptr) {
  Runtime* rt = runtime();
  if (rt == nullptr) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  if (num_agents == 0 || agents == nullptr || flags != nullptr || ptr == nullptr)
    return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  std::vector<HSAuint32> gpu_nodes;
  if (hsa_status_t s = rt->gpu_nodes_of(agents, num_agents, &gpu_nodes); s != HSA_STATUS_SUCCESS) return s;
  if (hsa_mutant_active(HsaMutant::AllowAccessFirstGpuOnly) && gpu_nodes.size() > 1) gpu_nodes.resize(1);
  void* base = nullptr;
  Allocation allocation;
  if (!rt->find_allocation(ptr, 1, &base, &allocation) || base != ptr) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  if (gpu_nodes.empty()) return HSA_STATUS_SUCCESS;  // the host reaches every pool already
  HsaMemMapFlags map_flags{};
  HSAuint64 gpu_va = 0;
  if (hsaKmtMapMemoryToGPUNodes(base, allocation.size, &gpu_va, map_flags, gpu_nodes.size(), gpu_nodes.data()) !=
      HSAKMT_STATUS_SUCCESS)
    return HSA_STATUS_ERROR_OUT_OF_RESOURCES;
  return HSA_STATUS_SUCCESS;
}

}  // extern "C"
