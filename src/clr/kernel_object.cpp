// clr/kernel_object.cpp - descriptor + code record allocation (see kernel_object.h).
#include "clr/kernel_object.h"

#include <hsa/hsa_ext_amd.h>

#include <functional>
#include <mutex>
#include <new>
#include <string>
#include <unordered_map>

#include <vector>

#include "clr/clr_mutant.h"
#include "clr/device.h"
#include "common/kernel_abi.h"
#include "common/trace.h"

namespace rocref::clr {
namespace {

struct KernelObjectImage {
  kernel_abi::KernelDescriptor descriptor;
  kernel_abi::KernelCode code;
};

std::mutex g_mutex;
struct Key {
  uint64_t kernel_id;
  uint32_t kernarg_size;
  bool operator==(const Key&) const = default;
};
struct KeyHash {
  size_t operator()(const Key& k) const noexcept { return std::hash<uint64_t>()(k.kernel_id * 31 + k.kernarg_size); }
};
std::unordered_map<Key, uint64_t, KeyHash> g_objects;

// The calling thread's last answer: objects are never freed, so it stays right for its key.
struct LastObject {
  Key key{0, 0};
  uint64_t object = 0;
};
thread_local LastObject t_last;

uint64_t kernel_object_locked(const Key& key);

}  // namespace

uint64_t kernel_object_for(uint64_t kernel_id, uint32_t kernarg_size) {
  const Key key{kernel_id, kernarg_size};
  // ClrMutant::KernelObjectCacheUnkeyed: the last object is taken for any kernel of the same argument size.
  const bool hit =
      t_last.object != 0 && (t_last.key == key || (clr_mutant_active(ClrMutant::KernelObjectCacheUnkeyed) &&
                                                   t_last.key.kernarg_size == kernarg_size));
  if (hit) return t_last.object;
  std::lock_guard lock(g_mutex);
  const uint64_t object = kernel_object_locked(key);
  if (object != 0) t_last = LastObject{key, object};
  return object;
}

namespace {

uint64_t kernel_object_locked(const Key& key) {
  const uint64_t kernel_id = key.kernel_id;
  const uint32_t kernarg_size = key.kernarg_size;
  if (auto it = g_objects.find(key); it != g_objects.end()) return it->second;
  Device* device = Device::get();
  if (device == nullptr) return 0;
  // Once per kernel, on its first launch (the code-object loader's job on hardware).
  ROCREF_TRACE_SPAN(trace::Layer::Clr, "kernel object: first launch of this kernel", "id=" + std::to_string(kernel_id));
  void* memory = nullptr;
  if (hsa_amd_memory_pool_allocate(device->host_pool(), sizeof(KernelObjectImage), 0, &memory) != HSA_STATUS_SUCCESS) {
    return 0;
  }
  // One object for every device: each GPU may launch the kernel.
  const std::vector<hsa_agent_t>& agents = Device::gpu_agents();
  hsa_amd_agents_allow_access(static_cast<uint32_t>(agents.size()), agents.data(), nullptr, memory);
  auto* image = new (memory) KernelObjectImage{};
  image->descriptor.kernel_code_entry_byte_offset = offsetof(KernelObjectImage, code);
  image->descriptor.kernarg_size = kernarg_size;
  image->code.id = kernel_id;
  const auto address = reinterpret_cast<uint64_t>(image);
  g_objects.emplace(key, address);
  return address;
}

}  // namespace
}  // namespace rocref::clr
