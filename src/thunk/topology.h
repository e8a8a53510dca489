// thunk/topology.h - the KFD topology snapshot read from sysfs through a transport.
#pragma once

#include <hsakmt.h>

#include <cstdint>
#include <vector>

#include "thunk/transport.h"

namespace rocref::thunk {

inline constexpr const char* kTopologyRoot = "/sys/devices/virtual/kfd/kfd/topology";

struct NodeTopology {
  HsaNodeProperties props{};  // as sysfs says (no thunk-added heaps)
  uint32_t gpu_id = 0;        // 0 for a CPU-only node
  uint32_t gfx_target_version = 0;
  std::vector<HsaMemoryProperties> mem;
  std::vector<HsaCacheProperties> caches;
  std::vector<HsaIoLinkProperties> links;
};

struct Topology {
  uint64_t generation = 0;
  HsaSystemProperties system{};
  std::vector<NodeTopology> nodes;  // index = user node id (sysfs order)
};

// TOPO-1: reads generation_id before and after the tree and retries (a few times)
// when they differ, as libhsakmt does, so a snapshot is never torn.
// HSAKMT_STATUS_ERROR when a required file is missing or malformed.
HSAKMT_STATUS read_topology(Transport& transport, Topology* out);

// gfx_target_version (e.g. 90000 for gfx900) as HSA_ENGINE_ID major/minor/stepping.
HSA_ENGINE_ID engine_id_from_gfx_target_version(uint32_t gfxv);

}  // namespace rocref::thunk
