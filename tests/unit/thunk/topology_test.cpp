// tests/unit/thunk/topology_test.cpp - the topology snapshot read through a transport.
#include "thunk/topology.h"

#include <gtest/gtest.h>

#include "fake_kfd.h"

namespace rocref::thunk {
namespace {

using testing::FakeKfd;
constexpr const char* kNode1 = "/sys/devices/virtual/kfd/kfd/topology/nodes/1";

TEST(Topology, ReadsNodesBanksCachesAndLinks) {
  FakeKfd fake;
  Topology t;
  ASSERT_EQ(read_topology(fake, &t), HSAKMT_STATUS_SUCCESS);
  ASSERT_EQ(t.system.NumNodes, 2u);
  EXPECT_EQ(t.nodes[0].gpu_id, 0u);
  EXPECT_EQ(t.nodes[0].props.NumCPUCores, 2u);
  const NodeTopology& gpu = t.nodes[1];
  EXPECT_EQ(gpu.gpu_id, FakeKfd::kGpuId);
  EXPECT_EQ(gpu.props.NumFComputeCores, 256u);
  EXPECT_EQ(gpu.props.NumSIMDPerCU, 4u);
  EXPECT_EQ(gpu.props.DeviceId, 26751);
  EXPECT_EQ(gpu.props.DrmRenderMinor, 128);
  EXPECT_EQ(static_cast<uint64_t>(gpu.props.LocalMemSize), 8589934592u);
  EXPECT_EQ(gpu.props.EngineId.ui32.Major, 9u);
  EXPECT_EQ(gpu.props.EngineId.ui32.Minor, 0u);
  EXPECT_EQ(gpu.props.EngineId.ui32.uCode, 440u);
  EXPECT_STREQ(reinterpret_cast<const char*>(gpu.props.AMDName), "GFX090000");
  EXPECT_EQ(gpu.props.NumCpQueues, 24u);
  ASSERT_EQ(gpu.mem.size(), 1u);
  EXPECT_EQ(gpu.mem[0].HeapType, HSA_HEAPTYPE_FRAME_BUFFER_PUBLIC);
  EXPECT_EQ(static_cast<uint64_t>(gpu.mem[0].SizeInBytes), 8589934592u);
  ASSERT_EQ(gpu.caches.size(), 1u);
  EXPECT_EQ(gpu.caches[0].CacheType.Value, 5u);
  EXPECT_EQ(gpu.caches[0].SiblingMap[3], 1u);
  ASSERT_EQ(gpu.links.size(), 1u);
  EXPECT_EQ(gpu.links[0].NodeFrom, 1u);
  EXPECT_EQ(gpu.links[0].NodeTo, 0u);
}

TEST(Topology, EngineIdFromGfxTargetVersion) {
  const HSA_ENGINE_ID id = engine_id_from_gfx_target_version(100300);
  EXPECT_EQ(id.ui32.Major, 10u);
  EXPECT_EQ(id.ui32.Minor, 3u);
  EXPECT_EQ(id.ui32.Stepping, 0u);
  EXPECT_EQ(engine_id_from_gfx_target_version(90006).ui32.Stepping, 6u);
}

// TOPO-1: a generation change during the read means a torn snapshot: read again.
TEST(Topology, TOPO_1_RetriesWhenGenerationChangesDuringRead) {
  FakeKfd fake;
  fake.generation_sequence = {"1\n", "2\n", "2\n", "2\n"};
  Topology t;
  ASSERT_EQ(read_topology(fake, &t), HSAKMT_STATUS_SUCCESS);
  EXPECT_EQ(t.generation, 2u);
  EXPECT_EQ(fake.generation_reads, 4u);
}

TEST(Topology, TOPO_1_GivesUpWhenGenerationNeverSettles) {
  FakeKfd fake;
  for (int i = 0; i < 20; ++i) fake.generation_sequence.push_back(std::to_string(i) + "\n");
  Topology t;
  t.generation = 77;
  EXPECT_EQ(read_topology(fake, &t), HSAKMT_STATUS_ERROR);
  EXPECT_EQ(t.generation, 77u) << "a failed read leaves the previous snapshot";
}

TEST(Topology, MissingOrMalformedFilesAreErrors) {
  {
    FakeKfd fake;
    fake.files.erase(std::string(kNode1) + "/caches/0/properties");
    Topology t;
    EXPECT_EQ(read_topology(fake, &t), HSAKMT_STATUS_ERROR);
  }
  {
    FakeKfd fake;
    fake.files[std::string(kNode1) + "/gpu_id"] = "garbage\n";
    Topology t;
    EXPECT_EQ(read_topology(fake, &t), HSAKMT_STATUS_ERROR);
  }
  {
    FakeKfd fake;  // a GPU node without gfx_target_version cannot be named (libhsakmt asserts)
    auto& props = fake.files[std::string(kNode1) + "/properties"];
    props.erase(props.find("gfx_target_version"));
    Topology t;
    EXPECT_EQ(read_topology(fake, &t), HSAKMT_STATUS_ERROR);
  }
}

TEST(Topology, P2pLinksFollowIoLinks) {
  FakeKfd fake;
  auto& props = fake.files[std::string(kNode1) + "/properties"];
  props.replace(props.find("p2p_links_count 0"), 17, "p2p_links_count 1");
  fake.files[std::string(kNode1) + "/p2p_links/0/properties"] = "type 11\nnode_from 1\nnode_to 2\n";
  Topology t;
  ASSERT_EQ(read_topology(fake, &t), HSAKMT_STATUS_SUCCESS);
  ASSERT_EQ(t.nodes[1].links.size(), 2u);
  EXPECT_EQ(t.nodes[1].links[1].IoLinkType, 11);
  EXPECT_EQ(t.nodes[1].links[1].NodeTo, 2u);
}

}  // namespace
}  // namespace rocref::thunk
