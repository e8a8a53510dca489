// thunk/api_guard.h - the checks every hsaKmt entry point starts with.
#pragma once

#include <hsakmt.h>

#include <mutex>

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

}  // namespace rocref::thunk
