// tests/unit/kfd/cpu_topology_test.cpp - the modelled CPU's KFD caches, io_link flags and kernel files
// (KFD-TOPO-5, KFD-TOPO-6, KFD-TOPO-7): each view of the CPU agrees with the others.
#include <gtest/gtest.h>

#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "kfd/topology.h"

namespace rocref::kfd {
namespace {

const std::string kNodes = "/sys/devices/virtual/kfd/kfd/topology/nodes";

std::map<std::string, uint64_t> props(const Topology& t, const std::string& path) {
  std::map<std::string, uint64_t> out;
  const auto text = t.read(path);
  if (!text) return out;
  std::istringstream in(*text);
  std::string line;
  while (std::getline(in, line)) {
    std::istringstream l(line);
    std::string k;
    uint64_t v;
    if (l >> k >> v) out[k] = v;
  }
  return out;
}

// The "sibling_map a,b,c" line of a cache's properties as 0/1 values.
std::vector<int> sibling_map(const Topology& t, const std::string& path) {
  std::vector<int> out;
  const auto text = t.read(path);
  const auto at = text ? text->find("sibling_map ") : std::string::npos;
  if (at == std::string::npos) return out;
  std::istringstream in(text->substr(at + 12));
  std::string item;
  while (std::getline(in, item, ',')) out.push_back(std::stoi(item));
  return out;
}

std::string trimmed(const std::optional<std::string>& s) {
  std::string v = s ? *s : "";
  while (!v.empty() && v.back() == '\n') v.pop_back();
  return v;
}

void check_cpu_caches(const Topology& t) {
  const auto node = props(t, kNodes + "/0/properties");
  const uint64_t cores = node.at("cpu_cores_count");
  const uint64_t base = node.at("cpu_core_id_base");
  ASSERT_GT(node.at("caches_count"), 0u) << "libhsakmt falls back to the host's cacheinfo without them";
  // Per (level, type): every logical processor in exactly one instance.
  std::map<std::pair<uint64_t, uint64_t>, std::vector<int>> covered;
  for (uint64_t c = 0; c < node.at("caches_count"); ++c) {
    const std::string path = kNodes + "/0/caches/" + std::to_string(c) + "/properties";
    const auto cache = props(t, path);
    ASSERT_FALSE(cache.empty()) << path;
    EXPECT_NE(cache.at("type") & 4, 0u) << "HsaCacheType.CPU: " << path;
    EXPECT_NE(cache.at("type") & 3, 0u) << "data and/or instruction: " << path;
    EXPECT_GE(cache.at("level"), 1u);
    EXPECT_LE(cache.at("level"), 3u);
    EXPECT_GT(cache.at("size"), 0u);
    EXPECT_GT(cache.at("cache_line_size"), 0u);
    const uint64_t first = cache.at("processor_id_low");
    ASSERT_GE(first, base);
    ASSERT_LT(first, base + cores);
    const auto bits = sibling_map(t, path);
    ASSERT_GE(bits.size(), cores) << path;
    EXPECT_EQ(bits.size() % 8, 0u) << "whole bytes, as kfd_cache_show prints them";
    EXPECT_EQ(bits[first - base], 1) << "an instance is shared by its own first processor: " << path;
    auto& seen = covered[{cache.at("level"), cache.at("type")}];
    seen.resize(cores);
    for (size_t b = 0; b < bits.size(); ++b) {
      if (bits[b] == 0) continue;
      ASSERT_LT(b, cores) << "sibling bit past the node's processors: " << path;
      ++seen[b];
    }
  }
  std::set<uint64_t> levels;
  for (const auto& [key, seen] : covered) {
    levels.insert(key.first);
    for (uint64_t p = 0; p < cores; ++p)
      EXPECT_EQ(seen[p], 1) << "level " << key.first << " type " << key.second << " processor " << p;
  }
  EXPECT_EQ(levels, (std::set<uint64_t>{1, 2, 3}));
}

TEST(CpuTopology, KFD_TOPO_5_CpuNodeListsItsCachesAsACratDoes) {
  check_cpu_caches(Topology(GpuDescription{}));
  // Any core count: a single processor, and more than one sibling-map byte.
  for (uint32_t n : {1u, 2u, 24u}) {
    CpuDescription cpu;
    cpu.logical_processors = n;
    SCOPED_TRACE(n);
    const Topology t(GpuDescription{}, cpu);
    EXPECT_EQ(props(t, kNodes + "/0/properties").at("cpu_cores_count"), n);
    check_cpu_caches(t);
  }
}

TEST(CpuTopology, KFD_TOPO_6_KernelCpuFilesDescribeTheSameCpu) {
  const Topology t(GpuDescription{});
  const auto node = props(t, kNodes + "/0/properties");
  const uint64_t cores = node.at("cpu_cores_count");
  const std::string all = "0-" + std::to_string(cores - 1);
  EXPECT_EQ(trimmed(t.read("/sys/devices/system/cpu/online")), all);
  EXPECT_EQ(trimmed(t.read("/sys/devices/system/cpu/possible")), all);
  EXPECT_EQ(trimmed(t.read("/sys/devices/system/node/online")), "0");
  EXPECT_EQ(trimmed(t.read("/sys/devices/system/node/node0/cpulist")), all);
  const auto cpuinfo = t.read("/proc/cpuinfo");
  ASSERT_TRUE(cpuinfo);
  size_t processors = 0;
  for (size_t at = 0; (at = cpuinfo->find("processor\t: ", at)) != std::string::npos; ++at) ++processors;
  EXPECT_EQ(processors, cores);
  EXPECT_NE(cpuinfo->find("apicid\t\t: 0\n"), std::string::npos) << "libhsakmt names the CPU by cpu_core_id_base";
  const auto node_entries = t.list("/sys/devices/system/node/node0");
  ASSERT_TRUE(node_entries);
  for (uint64_t p = 0; p < cores; ++p) {
    const std::string cpu = "cpu" + std::to_string(p);
    EXPECT_EQ(t.link("/sys/devices/system/node/node0/" + cpu), "../../cpu/" + cpu);
    EXPECT_TRUE(t.list("/sys/devices/system/cpu/" + cpu + "/cache")) << cpu;
  }
  // Each KFD cache is the sysfs cacheinfo of its first processor: same level, size, line, sharing.
  for (uint64_t c = 0; c < node.at("caches_count"); ++c) {
    const std::string path = kNodes + "/0/caches/" + std::to_string(c) + "/properties";
    const auto cache = props(t, path);
    const uint64_t first = cache.at("processor_id_low");
    const auto bits = sibling_map(t, path);
    uint64_t last = first;
    for (size_t b = 0; b < bits.size(); ++b)
      if (bits[b]) last = b;
    const std::string type = cache.at("type") == 5 ? "Data" : cache.at("type") == 6 ? "Instruction" : "Unified";
    bool found = false;
    const std::string dir = "/sys/devices/system/cpu/cpu" + std::to_string(first) + "/cache";
    const auto indexes = t.list(dir);
    ASSERT_TRUE(indexes) << dir;
    for (const auto& index : *indexes) {
      const std::string d = dir + "/" + index + "/";
      if (trimmed(t.read(d + "level")) != std::to_string(cache.at("level")) || trimmed(t.read(d + "type")) != type)
        continue;
      found = true;
      EXPECT_EQ(trimmed(t.read(d + "size")), std::to_string(cache.at("size")) + "K") << d;
      EXPECT_EQ(trimmed(t.read(d + "coherency_line_size")), std::to_string(cache.at("cache_line_size"))) << d;
      EXPECT_EQ(trimmed(t.read(d + "ways_of_associativity")), std::to_string(cache.at("association"))) << d;
      const std::string list = first == last ? std::to_string(first) : std::to_string(first) + "-" + std::to_string(last);
      EXPECT_EQ(trimmed(t.read(d + "shared_cpu_list")), list) << d;
    }
    EXPECT_TRUE(found) << path;
  }
}

TEST(CpuTopology, KFD_TOPO_6_CpuMasksUseTheKernelFormat) {
  EXPECT_EQ(cpu_mask(0, 2, 16), "0003");
  EXPECT_EQ(cpu_mask(8, 8, 16), "ff00");
  EXPECT_EQ(cpu_mask(0, 1, 1), "1");
  EXPECT_EQ(cpu_mask(32, 2, 64), "00000003,00000000");
  EXPECT_EQ(cpu_mask(0, 40, 40), "ff,ffffffff");
  EXPECT_EQ(cpu_list(0, 1), "0");
  EXPECT_EQ(cpu_list(4, 4), "4-7");
}

TEST(CpuTopology, KFD_TOPO_7_IoLinkFlagsAreWhatAmdkfdSets) {
  const auto gpu_to_cpu = [](const Topology& t) { return props(t, kNodes + "/1/io_links/0/properties").at("flags"); };
  const auto cpu_to_gpu = [](const Topology& t) { return props(t, kNodes + "/0/io_links/0/properties").at("flags"); };
  const Topology with_atomics(GpuDescription{});
  EXPECT_EQ(gpu_to_cpu(with_atomics), kIoLinkEnabled);
  EXPECT_EQ(cpu_to_gpu(with_atomics), kIoLinkEnabled | kIoLinkNonCoherent);
  GpuDescription no_atomics;
  no_atomics.pcie_atomics = false;
  const Topology without(no_atomics);
  EXPECT_EQ(gpu_to_cpu(without), kIoLinkEnabled | kIoLinkNoAtomics32 | kIoLinkNoAtomics64);
  EXPECT_EQ(cpu_to_gpu(without), kIoLinkEnabled | kIoLinkNonCoherent | kIoLinkNoAtomics32 | kIoLinkNoAtomics64);
}

TEST(CpuTopology, KFD_TOPO_6_OnlyTheModelsOwnPathsAreAnswered) {
  const Topology t(GpuDescription{});
  EXPECT_FALSE(t.read("/sys/devices/system/cpuX/online"));
  EXPECT_FALSE(t.read("/proc/cpuinfoX"));
  EXPECT_FALSE(t.read("/sys/devices/system/memory/block_size_bytes"));
  EXPECT_FALSE(t.read("/sys/devices/system/cpu/cpu16/topology/core_id")) << "16 processors: cpu0..cpu15";
  EXPECT_TRUE(t.read("/sys/devices/system/cpu/cpu15/topology/core_id"));
}

}  // namespace
}  // namespace rocref::kfd
