// clr/memory.cpp - memory objects over the device's pools (see memory.h).
#include "clr/memory.h"

#include <hsa/hsa_ext_amd.h>

#include <atomic>
#include <string>
#include <vector>

#include "clr/device.h"
#include "common/trace.h"

namespace rocref::clr {
namespace {

constexpr int kMaxDevices = 64;
std::atomic<size_t> g_device_bytes[kMaxDevices]{};

}  // namespace

hsa_status_t create_memory(Device& device, MemoryKind kind, size_t size, unsigned flags, size_t pitch, void** base) {
  ROCREF_TRACE_SPAN(trace::Layer::Clr, "Memory::create",
                    kind == MemoryKind::Device ? "coarse-grained device pool" : "fine-grained system pool");
  if (size == 0 || base == nullptr || kind == MemoryKind::Registered) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  const hsa_amd_memory_pool_t pool = kind == MemoryKind::Device ? device.device_pool() : device.host_pool();
  void* memory = nullptr;
  if (hsa_status_t s = hsa_amd_memory_pool_allocate(pool, size, 0, &memory); s != HSA_STATUS_SUCCESS) {
    return s == HSA_STATUS_ERROR_INVALID_ALLOCATION ? HSA_STATUS_ERROR_OUT_OF_RESOURCES : s;
  }
  // Device memory: its GPU, the CPU and the GPUs given peer access (HIP-PEER-2);
  // system memory: every GPU, as ROCclr maps host allocations into all devices.
  std::vector<hsa_agent_t> agents = device.access_agents();
  if (kind != MemoryKind::Device) {
    agents = Device::gpu_agents();
    agents.push_back(device.cpu());
  }
  hsa_amd_agents_allow_access(static_cast<uint32_t>(agents.size()), agents.data(), nullptr, memory);
  MemoryRegistry::instance().add(Allocation{memory, size, kind, flags, pitch, device.ordinal()});
  if (kind == MemoryKind::Device) g_device_bytes[device.ordinal()] += size;
  *base = memory;
  return HSA_STATUS_SUCCESS;
}

hsa_status_t register_host_memory(void* base, size_t size, unsigned flags, Pin pin) {
  ROCREF_TRACE_SPAN(trace::Layer::Clr, "Memory::pin", "size=" + std::to_string(size));
  if (base == nullptr || size == 0) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  MemoryRegistry& registry = MemoryRegistry::instance();
  if (registry.overlaps(base, size)) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  // ROCclr's pinSystemMemory: the range is locked for every GPU (the thunk registers it as a
  // userptr and maps it into each GPU's VM); the agent pointer is where kernels reach it.
  std::vector<hsa_agent_t> agents = Device::gpu_agents();
  void* agent_base = nullptr;
  if (pin == Pin::Yes) {
    if (hsa_status_t s = hsa_amd_memory_lock(base, size, agents.data(), static_cast<int>(agents.size()), &agent_base);
        s != HSA_STATUS_SUCCESS) {
      return s;
    }
  }
  Allocation a{base, size, MemoryKind::Registered, flags, 0};
  a.agent_base = agent_base;
  registry.add(a);
  return HSA_STATUS_SUCCESS;
}

std::optional<Allocation> release_memory(void* base) {
  ROCREF_TRACE_SPAN(trace::Layer::Clr, "Memory::release", "");
  std::optional<Allocation> found = MemoryRegistry::instance().remove(base);
  if (!found) return std::nullopt;
  if (found->kind == MemoryKind::Registered) {  // the program owns the pages: unlocked, not freed
    if (found->agent_base != nullptr) hsa_amd_memory_unlock(base);
    return found;
  }
  if (found->kind == MemoryKind::Device) g_device_bytes[found->device] -= found->size;
  hsa_amd_memory_pool_free(base);
  return found;
}

size_t device_bytes_in_use(int device) {
  return device >= 0 && device < kMaxDevices ? g_device_bytes[device].load() : 0;
}

}  // namespace rocref::clr
