// clr/device.cpp - finding the GPU agent and its pools through hsa.h (see device.h).
#include "clr/device.h"

#include <algorithm>
#include <array>
#include <atomic>
#include <memory>
#include <mutex>

#include "clr/memory_registry.h"

#include "common/trace.h"

namespace rocref::clr {
namespace {

struct PoolSearch {
  hsa_amd_memory_pool_t device{}, host{}, kernarg{};
};

struct AgentList {
  std::vector<hsa_agent_t> gpus;
  hsa_agent_t cpu{};
};

hsa_status_t find_agents(hsa_agent_t agent, void* data) {
  auto* agents = static_cast<AgentList*>(data);
  hsa_device_type_t type;
  if (hsa_agent_get_info(agent, HSA_AGENT_INFO_DEVICE, &type) != HSA_STATUS_SUCCESS) return HSA_STATUS_SUCCESS;
  if (type == HSA_DEVICE_TYPE_GPU) agents->gpus.push_back(agent);
  if (type == HSA_DEVICE_TYPE_CPU && agents->cpu.handle == 0) agents->cpu = agent;
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

// HSA opens once per process; each device is made on its first get() and kept.
constexpr int kMaxDevices = 64;
std::once_flag g_once;
AgentList g_agents;
hsa_status_t g_status = HSA_STATUS_ERROR_NOT_INITIALIZED;
std::mutex g_devices_mutex;
std::array<Device*, kMaxDevices> g_devices{};
std::array<bool, kMaxDevices> g_failed{};
// g_devices[i] once made, published for the lock-free path of get(); a device is never destroyed.
std::array<std::atomic<Device*>, kMaxDevices> g_made{};
std::atomic<int> g_count{-1};  // count() once device 0 opened (or failed to)

void open_hsa() {
  std::call_once(g_once, [] {
    ROCREF_TRACE_SPAN(trace::Layer::Clr, "Device::open", "hsa_init, agents");
    g_status = hsa_init();
    if (g_status != HSA_STATUS_SUCCESS) return;
    hsa_iterate_agents(find_agents, &g_agents);
    if (g_agents.gpus.size() > kMaxDevices) g_agents.gpus.resize(kMaxDevices);
    if (g_agents.gpus.empty() || g_agents.cpu.handle == 0) {
      g_agents.gpus.clear();
      g_status = HSA_STATUS_ERROR_INVALID_AGENT;
    }
  });
}

}  // namespace

Device* Device::get(int ordinal) {
  if (ordinal >= 0 && ordinal < kMaxDevices) {
    if (Device* made = g_made[ordinal].load(std::memory_order_acquire)) return made;
  }
  open_hsa();
  if (ordinal < 0 || ordinal >= static_cast<int>(g_agents.gpus.size())) return nullptr;
  std::lock_guard lock(g_devices_mutex);
  if (g_devices[ordinal] == nullptr && !g_failed[ordinal]) {
    auto device = std::unique_ptr<Device>(new Device(ordinal));
    const hsa_status_t s = device->open(g_agents.gpus[ordinal], g_agents.cpu);
    if (s == HSA_STATUS_SUCCESS) {
      g_devices[ordinal] = device.release();  // lives as long as the process
      g_made[ordinal].store(g_devices[ordinal], std::memory_order_release);
    } else {
      g_failed[ordinal] = true;
      if (ordinal == 0) g_status = s;
    }
  }
  return g_devices[ordinal];
}

int Device::count() {
  if (const int known = g_count.load(std::memory_order_acquire); known >= 0) return known;
  open_hsa();
  const int n = get(0) != nullptr ? static_cast<int>(g_agents.gpus.size()) : 0;
  g_count.store(n, std::memory_order_release);  // device 0's open is tried once: the answer is final
  return n;
}

const std::vector<hsa_agent_t>& Device::gpu_agents() {
  open_hsa();
  return g_agents.gpus;
}

hsa_status_t Device::open_status() {
  get(0);
  return g_status;
}

std::vector<hsa_agent_t> Device::access_agents() const {
  std::lock_guard lock(peers_mutex_);
  std::vector<hsa_agent_t> agents{gpu_, cpu_};
  agents.insert(agents.end(), peers_.begin(), peers_.end());
  return agents;
}

bool Device::peer_allowed(const Device& peer) const {
  if (&peer == this) return true;
  std::lock_guard lock(peers_mutex_);
  return std::any_of(peers_.begin(), peers_.end(), [&](hsa_agent_t a) { return a.handle == peer.gpu_.handle; });
}

hsa_status_t Device::allow_peer(const Device& peer) {
  ROCREF_TRACE_SPAN(trace::Layer::Clr, "Device::allow_peer", "peer=" + std::to_string(peer.ordinal()));
  {
    std::lock_guard lock(peers_mutex_);
    peers_.push_back(peer.gpu_);
  }
  const std::vector<hsa_agent_t> agents = access_agents();
  for (const Allocation& a : MemoryRegistry::instance().all()) {
    if (a.device != ordinal_ || (a.kind != MemoryKind::Device)) continue;
    if (hsa_status_t s =
            hsa_amd_agents_allow_access(static_cast<uint32_t>(agents.size()), agents.data(), nullptr, a.base);
        s != HSA_STATUS_SUCCESS) {
      return s;
    }
  }
  return HSA_STATUS_SUCCESS;
}

void Device::forbid_peer(const Device& peer) {
  std::lock_guard lock(peers_mutex_);
  std::erase_if(peers_, [&](hsa_agent_t a) { return a.handle == peer.gpu_.handle; });
}

hsa_status_t Device::open(hsa_agent_t gpu, hsa_agent_t cpu) {
  ROCREF_TRACE_SPAN(trace::Layer::Clr, "Device::open", "pools of GPU " + std::to_string(ordinal_));
  gpu_ = gpu;
  cpu_ = cpu;

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
