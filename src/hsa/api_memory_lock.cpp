// hsa/api_memory_lock.cpp - hsa_amd_memory_lock(_to_pool) / hsa_amd_memory_unlock (HSA-LOCK-1..3).
//
// ROCR's shape: host memory is registered with the thunk under the coarse-grained system
// pool's memory flags and mapped for the GPU agents named (every GPU when none is named); the agent
// pointer is the thunk's GPU address for it. hsa_amd_memory_lock_to_pool registers under the
// flags of the system pool named instead (fine-grained or coarse-grained). A list of CPU agents
// only locks nothing. Unlock
// unmaps and deregisters and always succeeds; the thunk counts registrations of one range,
// so a range locked twice stays locked until unlocked twice.
#include <hsa/hsa.h>
#include <hsa/hsa_ext_amd.h>
#include <hsakmt.h>

#include <vector>

#include "hsa/agent.h"
#include "hsa/hsa_mutant.h"
#include "hsa/memory_region.h"
#include "hsa/runtime.h"

using rocref::hsa::hsa_mutant_active;
using rocref::hsa::HsaMutant;
using rocref::hsa::MemoryRegion;
using rocref::hsa::Runtime;
using rocref::hsa::runtime;

namespace {

// ROCR's coarse-grained system pool's flags: paged, host-accessible, cached (libhsakmt
// refuses to register non-paged memory).
HsaMemFlags lock_flags(bool coarse_grain) {
  HsaMemFlags flags{};
  flags.ui32.PageSize = HSA_PAGE_SIZE_4KB;
  flags.ui32.HostAccess = 1;
  flags.ui32.CachePolicy = HSA_CACHING_CACHED;
  flags.ui32.CoarseGrain = coarse_grain ? 1 : 0;
  return flags;
}

// The arguments are checked; registers and maps for the GPUs among `agents` (all when none).
hsa_status_t lock(Runtime* rt, void* host_ptr, size_t size, hsa_agent_t* agents, int num_agent, bool coarse_grain,
                  void** agent_ptr) {
  std::vector<HSAuint32> nodes;
  if (num_agent == 0) {
    for (const auto& agent : rt->agents())
      if (agent->is_gpu()) nodes.push_back(agent->node_id());
  } else if (hsa_status_t s = rt->gpu_nodes_of(agents, static_cast<size_t>(num_agent), &nodes);
             s != HSA_STATUS_SUCCESS) {
    return s;
  }
  if (nodes.empty()) {  // only CPUs: nothing to pin or map
    *agent_ptr = host_ptr;
    return HSA_STATUS_SUCCESS;
  }
  if (hsaKmtRegisterMemoryWithFlags(host_ptr, size, lock_flags(coarse_grain)) != HSAKMT_STATUS_SUCCESS) {
    return HSA_STATUS_ERROR;
  }
  HSAuint64 gpu_va = 0;
  if (hsaKmtMapMemoryToGPUNodes(host_ptr, size, &gpu_va, HsaMemMapFlags{}, static_cast<HSAuint64>(nodes.size()),
                                nodes.data()) != HSAKMT_STATUS_SUCCESS) {
    hsaKmtDeregisterMemory(host_ptr);
    return HSA_STATUS_ERROR_OUT_OF_RESOURCES;
  }
  *agent_ptr = gpu_va != 0 ? reinterpret_cast<void*>(static_cast<uintptr_t>(gpu_va)) : host_ptr;
  return HSA_STATUS_SUCCESS;
}

bool agent_list_ok(const hsa_agent_t* agents, int num_agent) {
  return !((agents != nullptr && num_agent == 0) || (agents == nullptr && num_agent != 0) || num_agent < 0);
}

}  // namespace

hsa_status_t HSA_API hsa_amd_memory_lock(void* host_ptr, size_t size, hsa_agent_t* agents, int num_agent,
                                         void** agent_ptr) {
  Runtime* rt = runtime();
  if (rt == nullptr) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  if (size == 0 || host_ptr == nullptr || agent_ptr == nullptr) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  *agent_ptr = nullptr;
  if (!agent_list_ok(agents, num_agent)) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  return lock(rt, host_ptr, size, agents, num_agent, /*coarse_grain=*/true, agent_ptr);
}

// HSA-LOCK-3: ROCR takes only a system pool (one a CPU agent owns), and flags 0.
hsa_status_t HSA_API hsa_amd_memory_lock_to_pool(void* host_ptr, size_t size, hsa_agent_t* agents, int num_agent,
                                                 hsa_amd_memory_pool_t pool, uint32_t flags, void** agent_ptr) {
  Runtime* rt = runtime();
  if (rt == nullptr) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  if (size == 0 || host_ptr == nullptr || agent_ptr == nullptr || flags != 0) {
    return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  }
  *agent_ptr = nullptr;
  if (!agent_list_ok(agents, num_agent)) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  const MemoryRegion* region = rt->find_region(pool.handle);
  if (region == nullptr || region->owner().is_gpu()) {
    return static_cast<hsa_status_t>(HSA_STATUS_ERROR_INVALID_MEMORY_POOL);
  }
  const bool coarse_grain =
      region->kind() == MemoryRegion::Kind::SystemCoarse || hsa_mutant_active(HsaMutant::LockToPoolIgnoresThePool);
  return lock(rt, host_ptr, size, agents, num_agent, coarse_grain, agent_ptr);
}

hsa_status_t HSA_API hsa_amd_memory_unlock(void* host_ptr) {
  if (runtime() == nullptr) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  hsaKmtUnmapMemoryToGPU(host_ptr);
  if (!hsa_mutant_active(HsaMutant::UnlockKeepsRegistration)) hsaKmtDeregisterMemory(host_ptr);
  return HSA_STATUS_SUCCESS;
}
