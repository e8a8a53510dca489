// thunk/api_topology.cpp - hsaKmtAcquireSystemProperties and the per-node property calls.
#include "thunk/hsakmt_api.h"  // first: exports the hsaKmt* declarations

#include <algorithm>
#include <cstring>

#include "thunk/api_guard.h"
#include "thunk/topology.h"

namespace rocref::thunk {
namespace {

constexpr uint32_t kThunkHeapsPerGpu = 3;  // LDS, scratch, MMIO_REMAP (libhsakmt's NUM_OF_DGPU_HEAPS)

}  // namespace
}  // namespace rocref::thunk

extern "C" {

HSAKMT_STATUS HSAKMTAPI hsaKmtAcquireSystemProperties(HsaSystemProperties* SystemProperties) {
  ROCREF_THUNK_LOCK_OPEN(p);
  if (!SystemProperties) return HSAKMT_STATUS_INVALID_PARAMETER;
  rocref::thunk::Topology fresh;  // TOPO-2: every acquire takes a new snapshot
  const HSAKMT_STATUS st = rocref::thunk::read_topology(*p.transport, &fresh);
  if (st != HSAKMT_STATUS_SUCCESS) return st;
  // The open process keeps its GPUs: a snapshot that renumbers them is refused.
  if (fresh.nodes.size() != p.topology.nodes.size()) return HSAKMT_STATUS_ERROR;
  for (size_t i = 0; i < fresh.nodes.size(); ++i)
    if (fresh.nodes[i].gpu_id != p.topology.nodes[i].gpu_id) return HSAKMT_STATUS_ERROR;
  p.topology = std::move(fresh);
  p.snapshot_acquired = true;
  *SystemProperties = p.topology.system;
  return HSAKMT_STATUS_SUCCESS;
}

HSAKMT_STATUS HSAKMTAPI hsaKmtReleaseSystemProperties(void) {
  ROCREF_THUNK_LOCK_OPEN(p);
  p.snapshot_acquired = false;
  return HSAKMT_STATUS_SUCCESS;
}

HSAKMT_STATUS HSAKMTAPI hsaKmtGetNodeProperties(HSAuint32 NodeId, HsaNodeProperties* NodeProperties) {
  ROCREF_THUNK_LOCK_OPEN(p);
  if (!NodeProperties) return HSAKMT_STATUS_INVALID_PARAMETER;
  uint32_t gpu_id = 0;
  const HSAKMT_STATUS st = rocref::thunk::validate_api_node(p, NodeId, &gpu_id);
  if (st != HSAKMT_STATUS_SUCCESS) return st;
  *NodeProperties = p.topology.nodes[NodeId].props;
  if (gpu_id) NodeProperties->NumMemoryBanks += rocref::thunk::kThunkHeapsPerGpu;
  return HSAKMT_STATUS_SUCCESS;
}

HSAKMT_STATUS HSAKMTAPI hsaKmtGetNodeMemoryProperties(HSAuint32 NodeId, HSAuint32 NumBanks,
                                                      HsaMemoryProperties* MemoryProperties) {
  if (!MemoryProperties) return HSAKMT_STATUS_INVALID_PARAMETER;  // checked before open, as libhsakmt
  ROCREF_THUNK_LOCK_OPEN(p);
  uint32_t gpu_id = 0;
  const HSAKMT_STATUS st = rocref::thunk::validate_api_node(p, NodeId, &gpu_id);
  if (st != HSAKMT_STATUS_SUCCESS) return st;
  std::memset(MemoryProperties, 0, sizeof(HsaMemoryProperties) * NumBanks);
  const auto& node = p.topology.nodes[NodeId];
  uint32_t i = 0;
  for (; i < std::min<size_t>(node.mem.size(), NumBanks); ++i) MemoryProperties[i] = node.mem[i];
  const rocref::thunk::GpuNode* g = p.gpu(NodeId);
  if (!gpu_id || !g) return HSAKMT_STATUS_SUCCESS;
  const auto& ap = g->apertures;
  if (i < NumBanks && ap.lds_base) {
    MemoryProperties[i].HeapType = HSA_HEAPTYPE_GPU_LDS;
    MemoryProperties[i].VirtualBaseAddress = ap.lds_base;
    MemoryProperties[i].SizeInBytes = uint64_t{node.props.LDSSizeInKB} * 1024;
    ++i;
  }
  if (i < NumBanks && ap.scratch_base) {
    MemoryProperties[i].HeapType = HSA_HEAPTYPE_GPU_SCRATCH;
    MemoryProperties[i].VirtualBaseAddress = ap.scratch_base;
    MemoryProperties[i].SizeInBytes = ap.scratch_limit - ap.scratch_base + 1;
    ++i;
  }
  if (i < NumBanks && g->mmio_page) {
    MemoryProperties[i].HeapType = HSA_HEAPTYPE_MMIO_REMAP;
    MemoryProperties[i].VirtualBaseAddress = reinterpret_cast<uintptr_t>(g->mmio_page);
    MemoryProperties[i].SizeInBytes = rocref::thunk::kPageSize;
    ++i;
  }
  return HSAKMT_STATUS_SUCCESS;
}

HSAKMT_STATUS HSAKMTAPI hsaKmtGetNodeCacheProperties(HSAuint32 NodeId, HSAuint32 ProcessorId, HSAuint32 NumCaches,
                                                     HsaCacheProperties* CacheProperties) {
  (void)ProcessorId;  // libhsakmt ignores it too: all caches of the node
  ROCREF_THUNK_LOCK_OPEN(p);
  if (!CacheProperties) return HSAKMT_STATUS_INVALID_PARAMETER;
  const HSAKMT_STATUS st = rocref::thunk::validate_api_node(p, NodeId, nullptr);
  if (st != HSAKMT_STATUS_SUCCESS) return st;
  const auto& caches = p.topology.nodes[NodeId].caches;
  if (NumCaches > caches.size()) return HSAKMT_STATUS_INVALID_PARAMETER;
  std::copy_n(caches.begin(), NumCaches, CacheProperties);
  return HSAKMT_STATUS_SUCCESS;
}

HSAKMT_STATUS HSAKMTAPI hsaKmtGetNodeIoLinkProperties(HSAuint32 NodeId, HSAuint32 NumIoLinks,
                                                      HsaIoLinkProperties* IoLinkProperties) {
  ROCREF_THUNK_LOCK_OPEN(p);
  if (!IoLinkProperties) return HSAKMT_STATUS_INVALID_PARAMETER;
  const HSAKMT_STATUS st = rocref::thunk::validate_api_node(p, NodeId, nullptr);
  if (st != HSAKMT_STATUS_SUCCESS) return st;
  const auto& links = p.topology.nodes[NodeId].links;
  if (NumIoLinks > links.size()) return HSAKMT_STATUS_INVALID_PARAMETER;
  std::copy_n(links.begin(), NumIoLinks, IoLinkProperties);
  return HSAKMT_STATUS_SUCCESS;
}

}  // extern "C"
