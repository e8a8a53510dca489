// thunk/process.cpp - the state of an open thunk: node lookups and the single instance.
#include "thunk/process.h"

namespace rocref::thunk {

HSAKMT_STATUS Process::validate_node(uint32_t node, uint32_t* gpu_id) const {
  if (node >= topology.nodes.size()) return HSAKMT_STATUS_INVALID_NODE_UNIT;
  if (gpu_id) *gpu_id = topology.nodes[node].gpu_id;
  return HSAKMT_STATUS_SUCCESS;
}

const GpuNode* Process::gpu(uint32_t node) const {
  const auto it = gpus.find(node);
  return it == gpus.end() ? nullptr : &it->second;
}

std::optional<uint32_t> Process::node_of_gpu_id(uint32_t gpu_id) const {
  for (const auto& [node, g] : gpus)
    if (g.gpu_id == gpu_id) return node;
  return std::nullopt;
}

Allocation* Process::find_allocation(const void* address) {
  const auto a = reinterpret_cast<uintptr_t>(address);
  auto it = allocations.upper_bound(a);
  if (it == allocations.begin()) return nullptr;
  --it;
  return a < it->first + it->second.size ? &it->second : nullptr;
}

Process& process() {
  static Process* const instance = new Process();  // outlives other libraries' destructors
  return *instance;
}

uint32_t kfd_priority(HSA_QUEUE_PRIORITY priority) {
  static constexpr uint32_t kMap[] = {0, 3, 5, 7, 9, 11, 15};
  return kMap[static_cast<int>(priority) + 3];
}

}  // namespace rocref::thunk
