// tests/conformance/kfd/topology_test.cpp - the sysfs topology is complete and self-consistent (KFD-TOPO-*).
#include "kfd_fixture.h"

namespace kfdconf {
namespace {

std::string node(int n) { return std::string(kTopology) + "/nodes/" + std::to_string(n); }

int count_dirs(const std::string& base) {
  int n = 0;
  while (kfdport::read_sysfs(base + "/" + std::to_string(n) + "/properties")) ++n;
  return n;
}

TEST(KfdTopology, KFD_TOPO_1_GenerationIdAndSystemProperties) {
  const auto g1 = kfdport::read_sysfs(std::string(kTopology) + "/generation_id");
  const auto g2 = kfdport::read_sysfs(std::string(kTopology) + "/generation_id");
  ASSERT_TRUE(g1 && g2);
  EXPECT_EQ(*g1, *g2);
  const auto sys = properties(std::string(kTopology) + "/system_properties");
  EXPECT_TRUE(sys.count("platform_oem") && sys.count("platform_id") && sys.count("platform_rev"));
}

TEST(KfdTopology, KFD_TOPO_2_CountsMatchDirectories) {
  for (int n = 0; kfdport::read_sysfs(node(n) + "/gpu_id"); ++n) {
    const auto p = properties(node(n) + "/properties");
    ASSERT_FALSE(p.empty()) << n;
    EXPECT_EQ(p.at("mem_banks_count"), uint64_t(count_dirs(node(n) + "/mem_banks"))) << n;
    EXPECT_EQ(p.at("caches_count"), uint64_t(count_dirs(node(n) + "/caches"))) << n;
    EXPECT_EQ(p.at("io_links_count"), uint64_t(count_dirs(node(n) + "/io_links"))) << n;
  }
}

TEST(KfdTopology, KFD_TOPO_3_GpuNodeIsAGfx9Agent) {
  const int n = gpu_node();
  ASSERT_GE(n, 0);
  const auto p = properties(node(n) + "/properties");
  EXPECT_EQ(p.at("gfx_target_version"), 90000u);
  EXPECT_EQ(p.at("simd_count"), p.at("array_count") * p.at("cu_per_simd_array") * p.at("simd_per_cu"));
  EXPECT_EQ((p.at("capability") >> 12) & 3, 2u);  // SOC15 64-bit doorbells
  EXPECT_EQ(p.at("wave_front_size"), 64u);
  EXPECT_GT(p.at("num_cp_queues"), 0u);
  bool hsacu_cache = false;
  for (int c = 0; c < int(p.at("caches_count")); ++c) {
    const auto cache = properties(node(n) + "/caches/" + std::to_string(c) + "/properties");
    hsacu_cache |= (cache.at("type") & 8) != 0;
    EXPECT_EQ(cache.at("processor_id_low"), p.at("simd_id_base"));
  }
  EXPECT_TRUE(hsacu_cache) << "ROCR asserts without an HSA-CU cache on a GPU node";
  const auto bank = properties(node(n) + "/mem_banks/0/properties");
  EXPECT_EQ(bank.at("size_in_bytes"), p.at("local_mem_size"));
  EXPECT_GE(kfdport::open_render(static_cast<uint32_t>(p.at("drm_render_minor"))), 0);
}

TEST(KfdTopology, KFD_TOPO_2_IoLinksPointBothWays) {
  const int g = gpu_node();
  const auto link = properties(node(g) + "/io_links/0/properties");
  EXPECT_EQ(link.at("node_from"), uint64_t(g));
  const auto back = properties(node(int(link.at("node_to"))) + "/io_links/0/properties");
  EXPECT_EQ(back.at("node_to"), uint64_t(g));
}

TEST(KfdTopology, KFD_TOPO_4_UnknownRenderMinorIsENOENT) { EXPECT_EQ(kfdport::open_render(200), -ENOENT); }

}  // namespace
}  // namespace kfdconf
