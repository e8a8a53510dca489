// hsa/api_ipc.cpp - C entry points: IPC memory handles and graphics interop (HSA-IPC-1), over
// the thunk's sharing calls, with ROCR 5.2.3's checks and error mapping.
//
// Sharing needs an ioctl upstream KFD lacks (thunk/api_unsupported.cpp): the thunk answers
// NOT_SUPPORTED, which ROCR turns into INVALID_ARGUMENT (IPC) or ERROR (interop), and so do we.
// Only a whole allocation may be shared (rocref carves no allocation out of a larger block, so
// ROCR's fragment handles never arise). Detaching unmaps and deregisters, as ROCR.
#include <hsa/hsa.h>
#include <hsa/hsa_ext_amd.h>
#include <hsakmt.h>

#include <vector>

#include "hsa/agent.h"
#include "hsa/runtime.h"

using rocref::hsa::Allocation;
using rocref::hsa::Runtime;
using rocref::hsa::runtime;

static_assert(sizeof(hsa_amd_ipc_memory_t) == sizeof(HsaSharedMemoryHandle), "thunk IPC handle layout");

namespace {

// Every agent named, as KFD nodes; INVALID_AGENT for one this runtime did not make.
hsa_status_t nodes_of(Runtime* rt, const hsa_agent_t* agents, uint32_t count, std::vector<HSAuint32>* nodes) {
  for (uint32_t i = 0; i < count; ++i) {
    const rocref::hsa::Agent* agent = rt->find_agent(agents[i]);
    if (agent == nullptr) return HSA_STATUS_ERROR_INVALID_AGENT;
    nodes->push_back(agent->node_id());
  }
  return HSA_STATUS_SUCCESS;
}

}  // namespace

extern "C" {

hsa_status_t HSA_API hsa_amd_ipc_memory_create(void* ptr, size_t len, hsa_amd_ipc_memory_t* handle) {
  Runtime* rt = runtime();
  if (rt == nullptr) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  if (ptr == nullptr || handle == nullptr) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  if (len > 0x7FFFFFFF000ull) return HSA_STATUS_ERROR_INVALID_ARGUMENT;  // the thunk's limit, as ROCR
  void* base = nullptr;
  Allocation allocation;
  if (!rt->find_allocation(ptr, 1, &base, &allocation) || base != ptr || allocation.size != len) {
    return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  }
  if (hsaKmtShareMemory(ptr, len, reinterpret_cast<HsaSharedMemoryHandle*>(handle)) != HSAKMT_STATUS_SUCCESS) {
    return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  }
  return HSA_STATUS_SUCCESS;
}

hsa_status_t HSA_API hsa_amd_ipc_memory_attach(const hsa_amd_ipc_memory_t* ipc, size_t len, uint32_t num_agents,
                                               const hsa_agent_t* mapping_agents, void** mapped_ptr) {
  (void)len;
  Runtime* rt = runtime();
  if (rt == nullptr) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  if (mapped_ptr == nullptr || ipc == nullptr || (num_agents != 0 && mapping_agents == nullptr)) {
    return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  }
  std::vector<HSAuint32> nodes;
  if (hsa_status_t s = nodes_of(rt, mapping_agents, num_agents, &nodes); s != HSA_STATUS_SUCCESS) return s;
  const auto* shared = reinterpret_cast<const HsaSharedMemoryHandle*>(ipc);
  void* address = nullptr;
  HSAuint64 size = 0;
  const HSAKMT_STATUS registered =
      nodes.empty() ? hsaKmtRegisterSharedHandle(shared, &address, &size)
                    : hsaKmtRegisterSharedHandleToNodes(shared, &address, &size, nodes.size(), nodes.data());
  if (registered != HSAKMT_STATUS_SUCCESS) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  HSAuint64 gpu_va = 0;
  const HSAKMT_STATUS mapped =
      nodes.empty() ? hsaKmtMapMemoryToGPU(address, size, &gpu_va)
                    : hsaKmtMapMemoryToGPUNodes(address, size, &gpu_va, HsaMemMapFlags{}, nodes.size(), nodes.data());
  if (mapped != HSAKMT_STATUS_SUCCESS) {
    hsaKmtDeregisterMemory(address);
    return HSA_STATUS_ERROR_OUT_OF_RESOURCES;
  }
  *mapped_ptr = address;
  return HSA_STATUS_SUCCESS;
}

hsa_status_t HSA_API hsa_amd_ipc_memory_detach(void* mapped_ptr) {
  if (runtime() == nullptr) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  if (mapped_ptr == nullptr) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  if (hsaKmtUnmapMemoryToGPU(mapped_ptr) != HSAKMT_STATUS_SUCCESS) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  if (hsaKmtDeregisterMemory(mapped_ptr) != HSAKMT_STATUS_SUCCESS) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  return HSA_STATUS_SUCCESS;
}

hsa_status_t HSA_API hsa_amd_interop_map_buffer(uint32_t num_agents, hsa_agent_t* agents, int interop_handle,
                                                uint32_t flags, size_t* size, void** ptr, size_t* metadata_size,
                                                const void** metadata) {
  (void)metadata_size;
  (void)metadata;
  Runtime* rt = runtime();
  if (rt == nullptr) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  if (agents == nullptr || size == nullptr || ptr == nullptr || flags != 0 || num_agents == 0) {
    return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  }
  std::vector<HSAuint32> nodes;
  if (hsa_status_t s = nodes_of(rt, agents, num_agents, &nodes); s != HSA_STATUS_SUCCESS) return s;
  HsaGraphicsResourceInfo info{};
  if (hsaKmtRegisterGraphicsHandleToNodes(static_cast<HSAuint64>(interop_handle), &info, nodes.size(), nodes.data()) !=
      HSAKMT_STATUS_SUCCESS) {
    return HSA_STATUS_ERROR;
  }
  HSAuint64 gpu_va = 0;
  if (hsaKmtMapMemoryToGPUNodes(info.MemoryAddress, info.SizeInBytes, &gpu_va, HsaMemMapFlags{}, nodes.size(),
                                nodes.data()) != HSAKMT_STATUS_SUCCESS) {
    hsaKmtDeregisterMemory(info.MemoryAddress);
    return HSA_STATUS_ERROR_OUT_OF_RESOURCES;
  }
  *size = info.SizeInBytes;
  *ptr = info.MemoryAddress;
  if (metadata_size != nullptr) *metadata_size = info.MetadataSizeInBytes;
  if (metadata != nullptr) *metadata = info.Metadata;
  return HSA_STATUS_SUCCESS;
}

hsa_status_t HSA_API hsa_amd_interop_unmap_buffer(void* ptr) {
  if (runtime() == nullptr) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  if (ptr != nullptr) {
    hsaKmtUnmapMemoryToGPU(ptr);
    hsaKmtDeregisterMemory(ptr);
  }
  return HSA_STATUS_SUCCESS;
}

}  // extern "C"
