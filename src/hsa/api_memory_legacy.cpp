// hsa/api_memory_legacy.cpp - C entry points HSA 1.0 kept for host memory, which ROCR answers
// without touching memory (HSA-MEM-9): registration is a no-op on an agent that reaches all
// host memory through the thunk's own registration (hsa_amd_memory_lock), and so is assigning
// an agent to an allocation.
#include <hsa/hsa.h>
#include <hsa/hsa_ext_amd.h>

#include "hsa/runtime.h"

using rocref::hsa::runtime;

extern "C" {

hsa_status_t HSA_API hsa_memory_register(void* address, size_t size) {
  if (runtime() == nullptr) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  if (size == 0 && address != nullptr) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  return HSA_STATUS_SUCCESS;
}

hsa_status_t HSA_API hsa_memory_deregister(void* address, size_t size) {
  (void)address;
  (void)size;
  if (runtime() == nullptr) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  return HSA_STATUS_SUCCESS;
}

hsa_status_t HSA_API hsa_memory_assign_agent(void* ptr, hsa_agent_t agent, hsa_access_permission_t access) {
  rocref::hsa::Runtime* rt = runtime();
  if (rt == nullptr) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  if (ptr == nullptr || access < HSA_ACCESS_PERMISSION_RO || access > HSA_ACCESS_PERMISSION_RW) {
    return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  }
  if (rt->find_agent(agent) == nullptr) return HSA_STATUS_ERROR_INVALID_AGENT;
  return HSA_STATUS_SUCCESS;
}

}  // extern "C"
