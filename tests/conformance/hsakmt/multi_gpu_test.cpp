// tests/conformance/hsakmt/multi_gpu_test.cpp - KFD-TOPO-8 through hsakmt.h: several GPU nodes, each
// with its own identity, linked to the CPU and to each other, and one buffer mapped into several
// GPUs' VMs. Skipped with fewer than two GPU nodes; ctest hsakmt_conformance_2gpus (and
// foreign_hsakmt_conformance_2gpus, Debian's libhsakmt) run it on the model with two.
#include "hsakmt_fixture.h"

#include <set>
#include <vector>

namespace hsakmt_conformance {
namespace {

class Hsakmt_MultiGpu : public Hsakmt {
 protected:
  void SetUp() override {
    Hsakmt::SetUp();
    if (HasFatalFailure() || IsSkipped()) return;
    for (uint32_t n = 0; n < sys_.NumNodes; ++n) {
      HsaNodeProperties p{};
      ASSERT_EQ(hsaKmtGetNodeProperties(n, &p), HSAKMT_STATUS_SUCCESS);
      if (p.NumFComputeCores > 0) gpus_.push_back(n);
    }
    if (gpus_.size() < 2) GTEST_SKIP() << "fewer than two GPU nodes";
  }
  std::vector<uint32_t> gpus_;
};

TEST_F(Hsakmt_MultiGpu, KFD_TOPO_8_GpuNodesAreDistinctAndLinked) {
  std::set<int32_t> minors;
  std::set<uint32_t> locations;
  for (uint32_t n : gpus_) {
    HsaNodeProperties p{};
    ASSERT_EQ(hsaKmtGetNodeProperties(n, &p), HSAKMT_STATUS_SUCCESS);
    EXPECT_TRUE(minors.insert(p.DrmRenderMinor).second);
    EXPECT_TRUE(locations.insert(p.LocationId).second);
    std::vector<HsaIoLinkProperties> links(p.NumIOLinks);
    ASSERT_EQ(hsaKmtGetNodeIoLinkProperties(n, p.NumIOLinks, links.data()), HSAKMT_STATUS_SUCCESS);
    std::set<uint32_t> reached;
    for (const auto& l : links) {
      EXPECT_EQ(l.NodeFrom, n);
      reached.insert(l.NodeTo);
    }
    for (uint32_t other = 0; other < sys_.NumNodes; ++other)
      if (other != n) EXPECT_TRUE(reached.count(other)) << "node " << n << " has no link to node " << other;
  }
}

TEST_F(Hsakmt_MultiGpu, KFD_TOPO_8_OneBufferMappedIntoSeveralGpus) {
  void* vram = alloc(gpus_[0], 4096, vram_flags());
  ASSERT_NE(vram, nullptr);
  void* other = alloc(gpus_[1], 4096, vram_flags());
  ASSERT_NE(other, nullptr);
  HSAuint32 nodes[2] = {gpus_[0], gpus_[1]};
  HSAuint64 va = 0;
  HsaMemMapFlags flags{};
  EXPECT_EQ(hsaKmtMapMemoryToGPUNodes(vram, 4096, &va, flags, 2, nodes), HSAKMT_STATUS_SUCCESS);
  EXPECT_EQ(hsaKmtUnmapMemoryToGPU(vram), HSAKMT_STATUS_SUCCESS);
  HSAuint32 reversed[2] = {gpus_[1], gpus_[0]};
  EXPECT_EQ(hsaKmtMapMemoryToGPUNodes(other, 4096, &va, flags, 2, reversed), HSAKMT_STATUS_SUCCESS);
  EXPECT_EQ(hsaKmtUnmapMemoryToGPU(other), HSAKMT_STATUS_SUCCESS);
}

}  // namespace
}  // namespace hsakmt_conformance
