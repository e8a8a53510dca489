// clr/device.cpp - finding the GPU agent and its pools through hsa.h (see device.h).
#include "clr/device.h"

#include <mutex>

#include "common/trace.h"

namespace rocref::clr {
namespace {

struct PoolSearch {
  hsa_amd_memory_pool_t device{}, host{}, kernarg{};
};

hsa_status_t find_agents(hsa_agent_t agent, void* data) {
  auto* agents = static_cast<std::pair<hsa_agent_t, hsa_agent_t>*>(data);
  hsa_device_type_t type;
  if (hsa_agent_get_info(agent, HSA_AGENT_INFO_DEVICE, &type) != HSA_STATUS_SUCCESS) return HSA_STATUS_SUCCESS;
  if (type == HSA_DEVICE_TYPE_GPU && agents->first.handle == 0) agents->first = agent;
  if (type == HSA_DEVICE_TYPE_CPU && agents->second.handle == 0) agents->second = agent;
  return HSA_STATUS_SUCCESS;
}

hsa_status_t find_pools(hsa_amd_memory_pool_t pool, void* data) {
  auto* search = static_cast<PoolSearch*>(data);
  hsa_amd_segment_t segment;
  hsa_amd_memory_pool_get_info(pool, HSA_AMD_MEMORY_POOL_INFO_SEGMENT, &segment);
  if (segment != HSA_AMD_SEGMENT_GLOBAL) return HSA_STATUS_SUCCESS;
  bool alloc_allowed = false;
  hsa_amd_memory_pool_get_info(pool, HSA_AMD_MEMORY_POOL_INFO_RUNTIME_ALLOC_ALLOWED, &alloc_allowed);
  if (!alloc_allowed) return HSA_STATUS_SUCCESS;
  uint32_t flags = 0;
  hsa_amd_memory_pool_get_info(pool, HSA_AMD_MEMORY_POOL_INFO_GLOBAL_FLAGS, &flags);
  if (flags & HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_KERNARG_INIT) {
    if (search->kernarg.handle == 0) search->kernarg = pool;
  } else if (flags & HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_FINE_GRAINED) {
    if (search->host.handle == 0) search->host = pool;
  } else if (flags & HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_COARSE_GRAINED) {
    if (search->device.handle == 0) search->device = pool;
  }
  return HSA_STATUS_SUCCESS;
}

std::once_flag g_once;
Device* g_device = nullptr;
hsa_status_t g_status = HSA_STATUS_ERROR_NOT_INITIALIZED;

}  // namespace

Device* Device::get() {
  std::call_once(g_once, [] {
    auto* device = new Device();
    g_status = device->open();
    if (g_status == HSA_STATUS_SUCCESS) {
      g_device = device;
    } else {
      delete device;
    }
  });
  return g_device;
}

hsa_status_t Device::open_status() {
  get();
  return g_status;
}

hsa_status_t Device::open() {
  ROCREF_TRACE_SPAN(trace::Layer::Clr, "Device::open", "hsa_init, agents, pools");
  if (hsa_status_t s = hsa_init(); s != HSA_STATUS_SUCCESS) return s;
  std::pair<hsa_agent_t, hsa_agent_t> agents{};
  hsa_iterate_agents(find_agents, &agents);
  if (agents.first.handle == 0 || agents.second.handle == 0) return HSA_STATUS_ERROR_INVALID_AGENT;
  gpu_ = agents.first;
  cpu_ = agents.second;

  PoolSearch gpu_pools, cpu_pools;
  hsa_amd_agent_iterate_memory_pools(gpu_, find_pools, &gpu_pools);
  hsa_amd_agent_iterate_memory_pools(cpu_, find_pools, &cpu_pools);
  device_pool_ = gpu_pools.device;
  host_pool_ = cpu_pools.host.handle ? cpu_pools.host : gpu_pools.host;
  kernarg_pool_ = cpu_pools.kernarg.handle ? cpu_pools.kernarg : host_pool_;
  if (device_pool_.handle == 0 || host_pool_.handle == 0) return HSA_STATUS_ERROR_INVALID_REGION;

  char name[64] = {};
  hsa_agent_get_info(gpu_, HSA_AGENT_INFO_NAME, name);
  info_.isa_name = name;
  char product[64] = {};
  if (hsa_agent_get_info(gpu_, static_cast<hsa_agent_info_t>(HSA_AMD_AGENT_INFO_PRODUCT_NAME), product) ==
          HSA_STATUS_SUCCESS &&
      product[0] != '\0') {
    info_.name = product;
  } else {
    info_.name = info_.isa_name;
  }
  hsa_agent_get_info(gpu_, static_cast<hsa_agent_info_t>(HSA_AMD_AGENT_INFO_COMPUTE_UNIT_COUNT), &info_.compute_units);
  hsa_agent_get_info(gpu_, HSA_AGENT_INFO_WAVEFRONT_SIZE, &info_.wavefront_size);
  hsa_agent_get_info(gpu_, HSA_AGENT_INFO_WORKGROUP_MAX_SIZE, &info_.max_workgroup_size);
  hsa_agent_get_info(gpu_, HSA_AGENT_INFO_WORKGROUP_MAX_DIM, info_.max_workgroup_dim);
  hsa_dim3_t grid{};
  if (hsa_agent_get_info(gpu_, HSA_AGENT_INFO_GRID_MAX_DIM, &grid) == HSA_STATUS_SUCCESS && grid.x != 0) {
    info_.max_grid_dim[0] = grid.x;
    info_.max_grid_dim[1] = grid.y;
    info_.max_grid_dim[2] = grid.z;
  }
  hsa_agent_get_info(gpu_, static_cast<hsa_agent_info_t>(HSA_AMD_AGENT_INFO_MAX_CLOCK_FREQUENCY), &info_.max_clock_mhz);
  hsa_agent_get_info(gpu_, static_cast<hsa_agent_info_t>(HSA_AMD_AGENT_INFO_BDFID), &info_.bdf_id);
  size_t pool_size = 0;
  hsa_amd_memory_pool_get_info(device_pool_, HSA_AMD_MEMORY_POOL_INFO_SIZE, &pool_size);
  info_.device_memory = pool_size;
  // gfxMmS: major is everything before the last two digits.
  if (info_.isa_name.size() > 3 && info_.isa_name.rfind("gfx", 0) == 0) {
    const std::string digits = info_.isa_name.substr(3);
    if (digits.size() >= 3) {
      info_.gfx_major = static_cast<uint32_t>(std::stoul(digits.substr(0, digits.size() - 2)));
      info_.gfx_minor = static_cast<uint32_t>(std::stoul(digits.substr(digits.size() - 2, 1)));
    }
  }
  return HSA_STATUS_SUCCESS;
}

}  // namespace rocref::clr
