// hsa/api_agent.cpp - C entry points: agents, regions and memory pools (attributes, iteration).
#include <hsa/hsa.h>
#include <hsa/hsa_ext_amd.h>

#include "hsa/agent.h"
#include "hsa/memory_region.h"
#include "hsa/runtime.h"

using rocref::hsa::Agent;
using rocref::hsa::MemoryRegion;
using rocref::hsa::Runtime;
using rocref::hsa::runtime;

extern "C" {

hsa_status_t HSA_API hsa_iterate_agents(hsa_status_t (*callback)(hsa_agent_t agent, void* data), void* data) {
  Runtime* rt = runtime();
  if (rt == nullptr) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  if (callback == nullptr) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  for (const auto& agent : rt->agents())
    if (hsa_status_t status = callback(agent->handle(), data); status != HSA_STATUS_SUCCESS) return status;
  return HSA_STATUS_SUCCESS;
}

hsa_status_t HSA_API hsa_agent_get_info(hsa_agent_t agent, hsa_agent_info_t attribute, void* value) {
  Runtime* rt = runtime();
  if (rt == nullptr) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  Agent* object = rt->find_agent(agent);
  if (object == nullptr) return HSA_STATUS_ERROR_INVALID_AGENT;
  if (value == nullptr) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  return object->get_info(static_cast<uint32_t>(attribute), value);
}

hsa_status_t HSA_API hsa_agent_iterate_regions(hsa_agent_t agent,
                                               hsa_status_t (*callback)(hsa_region_t region, void* data),
                                               void* data) {
  Runtime* rt = runtime();
  if (rt == nullptr) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  Agent* object = rt->find_agent(agent);
  if (object == nullptr) return HSA_STATUS_ERROR_INVALID_AGENT;
  if (callback == nullptr) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  for (MemoryRegion* region : object->visible_regions())
    if (hsa_status_t status = callback(hsa_region_t{region->handle()}, data); status != HSA_STATUS_SUCCESS)
      return status;
  return HSA_STATUS_SUCCESS;
}

hsa_status_t HSA_API hsa_region_get_info(hsa_region_t region, hsa_region_info_t attribute, void* value) {
  Runtime* rt = runtime();
  if (rt == nullptr) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  MemoryRegion* object = rt->find_region(region.handle);
  if (object == nullptr) return HSA_STATUS_ERROR_INVALID_REGION;
  if (value == nullptr) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  return object->get_region_info(static_cast<uint32_t>(attribute), value);
}

hsa_status_t HSA_API hsa_amd_agent_iterate_memory_pools(
    hsa_agent_t agent, hsa_status_t (*callback)(hsa_amd_memory_pool_t memory_pool, void* data), void* data) {
  Runtime* rt = runtime();
  if (rt == nullptr) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  Agent* object = rt->find_agent(agent);
  if (object == nullptr) return HSA_STATUS_ERROR_INVALID_AGENT;
  if (callback == nullptr) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  // HSA-MEM-1: an agent's pools are the memory it owns (ROCR: no peer pools here).
  for (const auto& region : object->owned_regions())
    if (hsa_status_t status = callback(hsa_amd_memory_pool_t{region->handle()}, data); status != HSA_STATUS_SUCCESS)
      return status;
  return HSA_STATUS_SUCCESS;
}

hsa_status_t HSA_API hsa_amd_memory_pool_get_info(hsa_amd_memory_pool_t memory_pool,
                                                  hsa_amd_memory_pool_info_t attribute, void* value) {
  Runtime* rt = runtime();
  if (rt == nullptr) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  MemoryRegion* object = rt->find_region(memory_pool.handle);
  if (object == nullptr) return static_cast<hsa_status_t>(HSA_STATUS_ERROR_INVALID_MEMORY_POOL);
  if (value == nullptr) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  return object->get_pool_info(static_cast<uint32_t>(attribute), value);
}

hsa_status_t HSA_API hsa_amd_agent_memory_pool_get_info(hsa_agent_t agent, hsa_amd_memory_pool_t memory_pool,
                                                        hsa_amd_agent_memory_pool_info_t attribute, void* value) {
  Runtime* rt = runtime();
  if (rt == nullptr) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  Agent* agent_object = rt->find_agent(agent);
  if (agent_object == nullptr) return HSA_STATUS_ERROR_INVALID_AGENT;
  MemoryRegion* pool = rt->find_region(memory_pool.handle);
  if (pool == nullptr) return static_cast<hsa_status_t>(HSA_STATUS_ERROR_INVALID_MEMORY_POOL);
  if (value == nullptr) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  return pool->get_agent_access_info(*agent_object, static_cast<uint32_t>(attribute), value);
}

}  // extern "C"
