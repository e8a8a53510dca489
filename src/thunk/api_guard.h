// thunk/api_guard.h - the checks every hsaKmt entry point starts with.
#pragma once

#include <hsakmt.h>

#include <mutex>
#include <vector>

#include "thunk/process.h"

// Takes the thunk lock and returns KERNEL_IO_CHANNEL_NOT_OPENED when closed (libhsakmt's CHECK_KFD_OPEN).
#define ROCREF_THUNK_LOCK_OPEN(p)                                       \
  ::rocref::thunk::Process& p = ::rocref::thunk::process();             \
  std::lock_guard<std::mutex> thunk_lock_guard_(p.mutex);               \
  if (!p.is_open()) return HSAKMT_STATUS_KERNEL_IO_CHANNEL_NOT_OPENED

namespace rocref::thunk {

// Node ids of the public API are valid only inside an Acquire/ReleaseSystemProperties
// snapshot, as in libhsakmt (validate_nodeid checks the snapshot).
inline HSAKMT_STATUS validate_api_node(const Process& p, uint32_t node, uint32_t* gpu_id) {
  if (!p.snapshot_acquired) return HSAKMT_STATUS_INVALID_NODE_UNIT;
  return p.validate_node(node, gpu_id);
}

// libhsakmt's validate_nodeid_array: node ids -> gpu_ids (a CPU node gives 0; the driver rejects it).
inline HSAKMT_STATUS gpu_ids_of(const Process& p, uint64_t count, const HSAuint32* nodes, std::vector<uint32_t>* out) {
  if (count == 0 || !nodes) return HSAKMT_STATUS_INVALID_PARAMETER;
  if (count > p.topology.nodes.size()) return HSAKMT_STATUS_INVALID_PARAMETER;
  out->clear();
  for (uint64_t i = 0; i < count; ++i) {
    uint32_t gpu_id = 0;
    const HSAKMT_STATUS st = validate_api_node(p, nodes[i], &gpu_id);
    if (st != HSAKMT_STATUS_SUCCESS) return st;
    out->push_back(gpu_id);
  }
  return HSAKMT_STATUS_SUCCESS;
}

}  // namespace rocref::thunk
