// hsa/api_pointer.cpp - hsa_amd_pointer_info and hsa_amd_pointer_info_set_userdata (HSA-PTR-1, -2).
//
// ROCR's shape: the thunk's view of the pointer (hsaKmtQueryPointerInfo), then the runtime's
// own allocation map for the allocations it made (their start, their size in whole pages, the
// user data set on them); the owner is the first agent of the thunk's node, a CPU for locked
// memory. Unlike ROCR, rocref does not carve small allocations out of 2 MiB blocks, so a freed
// allocation is unknown at once (ROCR still answers with its block).
#include <hsa/hsa.h>
#include <hsa/hsa_ext_amd.h>
#include <hsakmt.h>

#include <algorithm>
#include <cstring>
#include <vector>

#include "hsa/agent.h"
#include "hsa/hsa_mutant.h"
#include "hsa/runtime.h"

using rocref::hsa::Agent;
using rocref::hsa::Allocation;
using rocref::hsa::hsa_mutant_active;
using rocref::hsa::HsaMutant;
using rocref::hsa::Runtime;
using rocref::hsa::runtime;

namespace {

// The agents of the nodes the thunk says the pointer is mapped on, in that order.
std::vector<hsa_agent_t> agents_mapping(const Runtime& rt, const HsaPointerInfo& thunk) {
  std::vector<hsa_agent_t> agents;
  for (HSAuint32 i = 0; i < thunk.NMappedNodes; ++i) {
    for (const auto& agent : rt.agents())
      if (agent->node_id() == thunk.MappedNodes[i]) agents.push_back(agent->handle());
  }
  return agents;
}

}  // namespace

hsa_status_t HSA_API hsa_amd_pointer_info(const void* ptr, hsa_amd_pointer_info_t* info, void* (*alloc)(size_t),
                                          uint32_t* num_agents_accessible, hsa_agent_t** accessible) {
  Runtime* rt = runtime();
  if (rt == nullptr) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  if (ptr == nullptr || info == nullptr || info->size == 0) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  // An unknown pointer: the thunk answers an error with type UNKNOWN and every field 0.
  HsaPointerInfo thunk{};
  if (hsaKmtQueryPointerInfo(ptr, &thunk) != HSAKMT_STATUS_SUCCESS) thunk = HsaPointerInfo{};
  hsa_amd_pointer_info_t out{};
  out.type = static_cast<hsa_amd_pointer_type_t>(thunk.Type);
  out.agentBaseAddress = reinterpret_cast<void*>(static_cast<uintptr_t>(thunk.GPUAddress));
  out.hostBaseAddress = thunk.CPUAddress;
  out.sizeInBytes = thunk.SizeInBytes;
  out.userData = thunk.UserData;
  out.global_flags = thunk.MemFlags.ui32.CoarseGrain ? HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_COARSE_GRAINED
                                                     : HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_FINE_GRAINED;
  if (thunk.MemFlags.ui32.Uncached) out.global_flags |= HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_KERNARG_INIT;
  void* base = nullptr;
  Allocation allocation;
  if (!hsa_mutant_active(HsaMutant::PointerInfoIgnoresAllocationMap) &&
      rt->find_allocation(ptr, 1, &base, &allocation)) {
    out.agentBaseAddress = out.hostBaseAddress = base;
    out.sizeInBytes = allocation.size;
    out.userData = allocation.user_data;
  }
  out.size = static_cast<uint32_t>(std::min<size_t>(info->size, sizeof(hsa_amd_pointer_info_t)));
  const Agent* owner = rt->agent_of_node(thunk.Node);
  out.agentOwner = owner != nullptr ? owner->handle() : hsa_agent_t{0};
  // Locked memory is system memory: its owner is a CPU whatever node the thunk names.
  if (out.type == HSA_EXT_POINTER_TYPE_LOCKED && (owner == nullptr || owner->is_gpu()))
    out.agentOwner = rt->cpu_agent()->handle();
  std::memcpy(info, &out, out.size);
  if (alloc == nullptr || num_agents_accessible == nullptr || accessible == nullptr) return HSA_STATUS_SUCCESS;
  const std::vector<hsa_agent_t> agents = agents_mapping(*rt, thunk);
  *accessible = static_cast<hsa_agent_t*>(alloc(sizeof(hsa_agent_t) * agents.size()));
  if (*accessible == nullptr) return HSA_STATUS_ERROR_OUT_OF_RESOURCES;
  *num_agents_accessible = static_cast<uint32_t>(agents.size());
  std::copy(agents.begin(), agents.end(), *accessible);
  return HSA_STATUS_SUCCESS;
}

hsa_status_t HSA_API hsa_amd_pointer_info_set_userdata(const void* ptr, void* userdata) {
  Runtime* rt = runtime();
  if (rt == nullptr) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  if (ptr == nullptr) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  // The runtime's allocations by their start; anything else the thunk knows (locked memory,
  // an allocation's interior) through the thunk, which pointer_info then reads only for
  // memory outside the runtime's allocations (ROCR does the same).
  if (rt->set_user_data(ptr, userdata)) return HSA_STATUS_SUCCESS;
  return hsaKmtSetMemoryUserData(ptr, userdata) == HSAKMT_STATUS_SUCCESS ? HSA_STATUS_SUCCESS
                                                                         : HSA_STATUS_ERROR_INVALID_ARGUMENT;
}
