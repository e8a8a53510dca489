// tests/conformance/hsakmt/topology_test.cpp - system, node, memory, cache and io-link properties.
#include "hsakmt_fixture.h"

#include <cstdio>
#include <fstream>
#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace hsakmt_conformance {
namespace {

using Hsakmt_Topology = Hsakmt;

TEST_F(Hsakmt_Topology, AcquireSystemPropertiesNullReturnsInvalidParameter) {
  EXPECT_EQ(hsaKmtAcquireSystemProperties(nullptr), HSAKMT_STATUS_INVALID_PARAMETER);
}

TEST_F(Hsakmt_Topology, GetNodePropertiesBadNodeReturnsInvalidNodeUnit) {
  HsaNodeProperties p{};
  EXPECT_EQ(hsaKmtGetNodeProperties(sys_.NumNodes, &p), HSAKMT_STATUS_INVALID_NODE_UNIT);
  EXPECT_EQ(hsaKmtGetNodeProperties(0xffffffffu, &p), HSAKMT_STATUS_INVALID_NODE_UNIT);
}

TEST_F(Hsakmt_Topology, GetNodePropertiesNullReturnsInvalidParameter) {
  EXPECT_EQ(hsaKmtGetNodeProperties(0, nullptr), HSAKMT_STATUS_INVALID_PARAMETER);
}

// What ROCR asserts on: a GPU node that agrees with itself.
TEST_F(Hsakmt_Topology, GpuNodeIsSelfConsistent) {
  EXPECT_GT(gpu_.NumSIMDPerCU, 0u);
  EXPECT_EQ(gpu_.NumFComputeCores % gpu_.NumSIMDPerCU, 0u);
  EXPECT_GE(gpu_.EngineId.ui32.Major, 7u);
  EXPECT_GT(static_cast<uint64_t>(gpu_.LocalMemSize), 0u);
  EXPECT_GE(gpu_.DrmRenderMinor, 128);
  EXPECT_GT(gpu_.WaveFrontSize, 0u);
  EXPECT_GE(gpu_.NumCaches, 1u);
  EXPECT_GE(gpu_.NumMemoryBanks, 1u);
  std::vector<HsaCacheProperties> caches(gpu_.NumCaches);
  ASSERT_EQ(hsaKmtGetNodeCacheProperties(gpu_node_, gpu_.FComputeIdLo, gpu_.NumCaches, caches.data()),
            HSAKMT_STATUS_SUCCESS);
  bool hsa_cu = false;
  for (const auto& c : caches) hsa_cu |= c.CacheType.ui32.HSACU != 0;
  EXPECT_TRUE(hsa_cu) << "a GPU node needs a cache of the HSA-CU type";
}

// THUNK-TOPO-1, KFD-DRM-1: libhsakmt names a GPU node as libdrm does, by the device id (and PCI
// revision) the render node's AMDGPU_INFO reports, looked up in libdrm's amdgpu.ids.
TEST_F(Hsakmt_Topology, THUNK_TOPO_1_GpuNodeHasItsMarketingName) {
  std::string name;
  for (HSAuint16 c : gpu_.MarketingName) {
    if (c == 0) break;
    name += static_cast<char>(c);
  }
  ASSERT_FALSE(name.empty()) << "no marketing name for device 0x" << std::hex << gpu_.DeviceId;
  std::ifstream ids("/usr/share/libdrm/amdgpu.ids");
  ASSERT_TRUE(ids.good()) << "libdrm-common's amdgpu.ids";
  std::set<std::string> names;  // every name amdgpu.ids gives this device id, whatever the revision
  char id[16];
  for (std::string line; std::getline(ids, line);) {
    std::snprintf(id, sizeof id, "%04X,", gpu_.DeviceId);
    if (line.rfind(id, 0) != 0) continue;
    const size_t comma = line.find(',', 5);
    const size_t start = line.find_first_not_of(" \t", comma + 1);
    if (comma != std::string::npos && start != std::string::npos) names.insert(line.substr(start));
  }
  EXPECT_EQ(names.count(name), 1u) << name;
}

TEST_F(Hsakmt_Topology, GpuMemoryBanksIncludeFrameBufferAndThunkHeaps) {
  std::vector<HsaMemoryProperties> banks(gpu_.NumMemoryBanks);
  ASSERT_EQ(hsaKmtGetNodeMemoryProperties(gpu_node_, gpu_.NumMemoryBanks, banks.data()), HSAKMT_STATUS_SUCCESS);
  bool fb = false, lds = false, scratch = false;
  for (const auto& b : banks) {
    fb |= (b.HeapType == HSA_HEAPTYPE_FRAME_BUFFER_PUBLIC || b.HeapType == HSA_HEAPTYPE_FRAME_BUFFER_PRIVATE) &&
          b.SizeInBytes > 0;
    lds |= b.HeapType == HSA_HEAPTYPE_GPU_LDS && b.SizeInBytes == uint64_t{gpu_.LDSSizeInKB} * 1024;
    scratch |= b.HeapType == HSA_HEAPTYPE_GPU_SCRATCH && b.SizeInBytes > 0;
  }
  EXPECT_TRUE(fb);
  EXPECT_TRUE(lds);
  EXPECT_TRUE(scratch);
}

TEST_F(Hsakmt_Topology, GetNodeMemoryPropertiesBadNodeAndNull) {
  HsaMemoryProperties m{};
  EXPECT_EQ(hsaKmtGetNodeMemoryProperties(sys_.NumNodes, 1, &m), HSAKMT_STATUS_INVALID_NODE_UNIT);
  EXPECT_EQ(hsaKmtGetNodeMemoryProperties(0, 1, nullptr), HSAKMT_STATUS_INVALID_PARAMETER);
}

TEST_F(Hsakmt_Topology, GetNodeCachePropertiesTooManyReturnsInvalidParameter) {
  std::vector<HsaCacheProperties> caches(gpu_.NumCaches + 1);
  EXPECT_EQ(hsaKmtGetNodeCacheProperties(gpu_node_, 0, gpu_.NumCaches + 1, caches.data()),
            HSAKMT_STATUS_INVALID_PARAMETER);
  EXPECT_EQ(hsaKmtGetNodeCacheProperties(sys_.NumNodes, 0, 1, caches.data()), HSAKMT_STATUS_INVALID_NODE_UNIT);
  EXPECT_EQ(hsaKmtGetNodeCacheProperties(gpu_node_, 0, 1, nullptr), HSAKMT_STATUS_INVALID_PARAMETER);
}

TEST_F(Hsakmt_Topology, IoLinksConnectExistingNodesBothWays) {
  std::vector<std::vector<HsaIoLinkProperties>> links(sys_.NumNodes);
  for (uint32_t n = 0; n < sys_.NumNodes; ++n) {
    HsaNodeProperties p{};
    ASSERT_EQ(hsaKmtGetNodeProperties(n, &p), HSAKMT_STATUS_SUCCESS);
    links[n].resize(p.NumIOLinks);
    ASSERT_EQ(hsaKmtGetNodeIoLinkProperties(n, p.NumIOLinks, links[n].data()), HSAKMT_STATUS_SUCCESS);
    for (const auto& l : links[n]) {
      EXPECT_EQ(l.NodeFrom, n);
      EXPECT_LT(l.NodeTo, sys_.NumNodes);
    }
  }
  for (uint32_t n = 0; n < sys_.NumNodes; ++n)
    for (const auto& l : links[n]) {
      bool back = false;
      for (const auto& r : links[l.NodeTo]) back |= r.NodeTo == n;
      EXPECT_TRUE(back) << "link " << n << " -> " << l.NodeTo << " has no way back";
    }
}

// KFD-TOPO-5: the CPU node's caches come from the KFD, each a CPU cache of one level whose
// sibling map holds its first processor, and per level and type every core is in one of them.
TEST_F(Hsakmt_Topology, KFD_TOPO_5_CpuNodeCachesCoverEveryCore) {
  bool cpu_seen = false;
  for (uint32_t n = 0; n < sys_.NumNodes; ++n) {
    HsaNodeProperties p{};
    ASSERT_EQ(hsaKmtGetNodeProperties(n, &p), HSAKMT_STATUS_SUCCESS);
    if (p.NumCPUCores == 0) continue;
    cpu_seen = true;
    ASSERT_GT(p.NumCaches, 0u) << "node " << n;
    std::vector<HsaCacheProperties> caches(p.NumCaches);
    ASSERT_EQ(hsaKmtGetNodeCacheProperties(n, p.CComputeIdLo, p.NumCaches, caches.data()), HSAKMT_STATUS_SUCCESS);
    std::map<std::pair<uint32_t, uint32_t>, std::vector<int>> cover;
    for (const auto& c : caches) {
      EXPECT_EQ(c.CacheType.ui32.CPU, 1u);
      EXPECT_GE(c.CacheLevel, 1u);
      EXPECT_GT(c.CacheSize, 0u);
      EXPECT_GT(c.CacheLineSize, 0u);
      ASSERT_GE(c.ProcessorIdLow, p.CComputeIdLo);
      ASSERT_LT(c.ProcessorIdLow - p.CComputeIdLo, p.NumCPUCores);
      EXPECT_EQ(c.SiblingMap[c.ProcessorIdLow - p.CComputeIdLo], 1) << "level " << c.CacheLevel;
      auto& seen = cover[{c.CacheLevel, c.CacheType.Value}];
      seen.resize(p.NumCPUCores);
      for (uint32_t b = 0; b < HSA_CPU_SIBLINGS; ++b) {
        if (c.SiblingMap[b] == 0) continue;
        ASSERT_LT(b, p.NumCPUCores) << "sibling past the node's cores";
        ++seen[b];
      }
    }
    for (const auto& [key, seen] : cover)
      for (uint32_t core = 0; core < p.NumCPUCores; ++core)
        EXPECT_EQ(seen[core], 1) << "level " << key.first << " type " << key.second << " core " << core;
  }
  EXPECT_TRUE(cpu_seen);
}

// KFD-TOPO-7: the GPU's PCIe link to the CPU is enabled and supports 32- and 64-bit atomics.
TEST_F(Hsakmt_Topology, KFD_TOPO_7_GpuLinkIsEnabledWithPcieAtomics) {
  ASSERT_GE(gpu_.NumIOLinks, 1u);
  std::vector<HsaIoLinkProperties> links(gpu_.NumIOLinks);
  ASSERT_EQ(hsaKmtGetNodeIoLinkProperties(gpu_node_, gpu_.NumIOLinks, links.data()), HSAKMT_STATUS_SUCCESS);
  const HsaIoLinkProperties& l = links[0];
  EXPECT_EQ(l.IoLinkType, HSA_IOLINKTYPE_PCIEXPRESS);
  EXPECT_EQ(l.Flags.ui32.Override, 1u) << "CRAT_IOLINK_FLAGS_ENABLED";
  EXPECT_EQ(l.Flags.ui32.NoAtomics32bit, 0u);
  EXPECT_EQ(l.Flags.ui32.NoAtomics64bit, 0u);
  EXPECT_EQ(l.Flags.ui32.NonCoherent, 0u) << "only the CPU->GPU direction is non-coherent";
}

TEST_F(Hsakmt_Topology, GetNodeIoLinkPropertiesTooManyAndBadNode) {
  std::vector<HsaIoLinkProperties> links(gpu_.NumIOLinks + 1);
  EXPECT_EQ(hsaKmtGetNodeIoLinkProperties(gpu_node_, gpu_.NumIOLinks + 1, links.data()),
            HSAKMT_STATUS_INVALID_PARAMETER);
  EXPECT_EQ(hsaKmtGetNodeIoLinkProperties(sys_.NumNodes, 1, links.data()), HSAKMT_STATUS_INVALID_NODE_UNIT);
  EXPECT_EQ(hsaKmtGetNodeIoLinkProperties(0, 1, nullptr), HSAKMT_STATUS_INVALID_PARAMETER);
}

// Node ids mean something only inside an Acquire/Release snapshot (libhsakmt's validate_nodeid).
TEST_F(Hsakmt_Topology, NodeCallsAfterReleaseReturnInvalidNodeUnit) {
  ASSERT_EQ(hsaKmtReleaseSystemProperties(), HSAKMT_STATUS_SUCCESS);
  HsaNodeProperties p{};
  EXPECT_EQ(hsaKmtGetNodeProperties(gpu_node_, &p), HSAKMT_STATUS_INVALID_NODE_UNIT);
  void* mem = nullptr;
  EXPECT_EQ(hsaKmtAllocMemory(gpu_node_, 4096, vram_flags(), &mem), HSAKMT_STATUS_INVALID_NODE_UNIT);
  ASSERT_EQ(hsaKmtAcquireSystemProperties(&sys_), HSAKMT_STATUS_SUCCESS);
  EXPECT_EQ(hsaKmtGetNodeProperties(gpu_node_, &p), HSAKMT_STATUS_SUCCESS);
}

}  // namespace
}  // namespace hsakmt_conformance
