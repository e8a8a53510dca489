// hsa/api_agent.cpp - C entry points: agents, regions and memory pools (attributes, iteration).
#include <hsa/hsa.h>
#include <hsa/hsa_ext_amd.h>

#include "hsa/agent.h"
#include "hsa/info_value.h"
#include "hsa/memory_region.h"
#include "hsa/runtime.h"

using rocref::hsa::Agent;
using rocref::hsa::MemoryRegion;
using rocref::hsa::put_info;
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

// --- caches (HSA-AGENT-5), exception policies, coherency (HSA-AGENT-6), tick translation -------

hsa_status_t HSA_API hsa_agent_iterate_caches(hsa_agent_t agent,
                                              hsa_status_t (*callback)(hsa_cache_t cache, void* data), void* data) {
  Runtime* rt = runtime();
  if (rt == nullptr) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  Agent* object = rt->find_agent(agent);
  if (object == nullptr) return HSA_STATUS_ERROR_INVALID_AGENT;
  if (callback == nullptr) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  for (const auto& cache : object->caches())
    if (hsa_status_t status = callback(cache->handle(), data); status != HSA_STATUS_SUCCESS) return status;
  return HSA_STATUS_SUCCESS;
}

// ROCR's answer for HSA_CACHE_INFO_NAME is a pointer to its name (const char*), not the characters.
hsa_status_t HSA_API hsa_cache_get_info(hsa_cache_t cache, hsa_cache_info_t attribute, void* value) {
  Runtime* rt = runtime();
  if (rt == nullptr) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  const rocref::hsa::Cache* object = nullptr;
  for (const auto& agent : rt->agents())
    for (const auto& c : agent->caches())
      if (c->handle().handle == cache.handle) object = c.get();
  if (object == nullptr) return HSA_STATUS_ERROR_INVALID_CACHE;
  if (value == nullptr) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  switch (attribute) {
    case HSA_CACHE_INFO_NAME_LENGTH: return put_info<uint32_t>(value, static_cast<uint32_t>(object->name.size()));
    case HSA_CACHE_INFO_NAME: return put_info<const char*>(value, object->name.c_str());
    case HSA_CACHE_INFO_LEVEL: return put_info<uint8_t>(value, object->level);
    case HSA_CACHE_INFO_SIZE: return put_info<uint32_t>(value, object->size);
    default: return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  }
}

// No agent of ROCR's reports an exception policy.
hsa_status_t HSA_API hsa_agent_get_exception_policies(hsa_agent_t agent, hsa_profile_t profile, uint16_t* mask) {
  Runtime* rt = runtime();
  if (rt == nullptr) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  if (mask == nullptr || (profile != HSA_PROFILE_BASE && profile != HSA_PROFILE_FULL)) {
    return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  }
  if (rt->find_agent(agent) == nullptr) return HSA_STATUS_ERROR_INVALID_AGENT;
  *mask = 0;
  return HSA_STATUS_SUCCESS;
}

hsa_status_t HSA_API hsa_amd_coherency_get_type(hsa_agent_t agent, hsa_amd_coherency_type_t* type) {
  Runtime* rt = runtime();
  if (rt == nullptr) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  const Agent* object = rt->find_agent(agent);
  if (object == nullptr) return HSA_STATUS_ERROR_INVALID_AGENT;
  if (type == nullptr) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  if (!object->is_gpu()) return HSA_STATUS_ERROR_INVALID_AGENT;
  *type = object->coherency_type();
  return HSA_STATUS_SUCCESS;
}

hsa_status_t HSA_API hsa_amd_coherency_set_type(hsa_agent_t agent, hsa_amd_coherency_type_t type) {
  Runtime* rt = runtime();
  if (rt == nullptr) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  Agent* object = rt->find_agent(agent);
  if (object == nullptr) return HSA_STATUS_ERROR_INVALID_AGENT;
  if (type != HSA_AMD_COHERENCY_TYPE_COHERENT && type != HSA_AMD_COHERENCY_TYPE_NONCOHERENT) {
    return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  }
  if (!object->is_gpu()) return HSA_STATUS_ERROR_INVALID_AGENT;
  object->set_coherency_type(type);
  return HSA_STATUS_SUCCESS;
}

// HSA-PROF-1's translation of one GPU tick to the system clock.
hsa_status_t HSA_API hsa_amd_profiling_convert_tick_to_system_domain(hsa_agent_t agent, uint64_t agent_tick,
                                                                     uint64_t* system_tick) {
  Runtime* rt = runtime();
  if (rt == nullptr) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  if (system_tick == nullptr) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  const Agent* object = rt->find_agent(agent);
  if (object == nullptr || !object->is_gpu()) return HSA_STATUS_ERROR_INVALID_AGENT;
  uint64_t unused = 0;
  rt->timestamps_from_gpu_ticks(*object, agent_tick, agent_tick, system_tick, &unused);
  return HSA_STATUS_SUCCESS;
}

}  // extern "C"
