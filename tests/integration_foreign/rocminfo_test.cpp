// tests/integration_foreign/rocminfo_test.cpp - Debian's rocminfo lists the modeled agents (PRE-RUN-1).
//
// Runs `rocref exec -- rocminfo` and compares the lines that matter (agent
// names, gfx target, pool sizes) with the KFD model's own topology.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <iterator>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "kfd/kfd_device.h"

namespace {

const char* const kTopology = "/sys/devices/virtual/kfd/kfd/topology/nodes";

std::string find_rocminfo() {
  for (const char* p : {"/usr/bin/rocminfo", "/opt/rocm/bin/rocminfo"}) {
    if (access(p, X_OK) == 0) return p;
  }
  return {};
}

struct RunResult {
  int status = -1;
  std::string out;
};

// drop_ins: rocref's libhsa-runtime64 and libhsakmt instead of Debian's (rocref exec --drop-ins).
RunResult run_under_model(const std::string& program, bool drop_ins = false) {
  RunResult r;
  const std::string cmd = std::string(ROCREF_TOOL) + " exec --lib " + ROCREF_PRELOAD_LIB +
                          (drop_ins ? " --drop-ins" : "") + " -- " + program + " 2>&1";
  FILE* pipe = popen(cmd.c_str(), "r");
  if (pipe == nullptr) return r;
  char buf[4096];
  size_t n;
  while ((n = fread(buf, 1, sizeof buf, pipe)) > 0) r.out.append(buf, n);
  r.status = pclose(pipe);
  return r;
}

// "key value" lines of a model sysfs file.
uint64_t property(const std::string& path, const std::string& key) {
  auto text = rocref::kfd::KfdDevice::instance().read_sysfs(path);
  if (!text) return 0;
  std::istringstream in(*text);
  std::string k;
  uint64_t v = 0;
  while (in >> k >> v) {
    if (k == key) return v;
  }
  return 0;
}

// The model's GPU node: the one with a non-zero simd_count.
int gpu_node() {
  auto nodes = rocref::kfd::KfdDevice::instance().list_sysfs(kTopology);
  if (!nodes) return -1;
  for (const auto& n : *nodes) {
    if (property(std::string(kTopology) + "/" + n + "/properties", "simd_count") != 0) return std::stoi(n);
  }
  return -1;
}

class ForeignRocminfo : public ::testing::Test {
 protected:
  void SetUp() override {
    rocminfo_ = find_rocminfo();
    if (rocminfo_.empty()) GTEST_SKIP() << "rocminfo is not installed (Debian package rocminfo)";
    node_ = gpu_node();
    ASSERT_GE(node_, 0) << "the KFD model lists no GPU node";
    run_ = run_under_model(rocminfo_);
  }
  std::string rocminfo_;
  int node_ = -1;
  RunResult run_;
};

TEST_F(ForeignRocminfo, PRE_RUN_1_RocminfoCompletesOnTheModel) {
  EXPECT_TRUE(WIFEXITED(run_.status) && WEXITSTATUS(run_.status) == 0) << run_.out;
  EXPECT_NE(run_.out.find("ROCk module is loaded"), std::string::npos) << run_.out;
  EXPECT_NE(run_.out.find("*** Done ***"), std::string::npos) << run_.out;
}

TEST_F(ForeignRocminfo, PRE_RUN_1_ListsTheModeledCpuAndGpuAgents) {
  const std::string props = std::string(kTopology) + "/" + std::to_string(node_) + "/properties";
  const uint64_t v = property(props, "gfx_target_version");
  char gfx[32];
  std::snprintf(gfx, sizeof gfx, "gfx%llu%llx%llx", (unsigned long long)(v / 10000), (unsigned long long)(v / 100 % 100),
                (unsigned long long)(v % 100));
  EXPECT_TRUE(std::regex_search(run_.out, std::regex("Device Type:\\s+CPU"))) << run_.out;
  EXPECT_TRUE(std::regex_search(run_.out, std::regex("Device Type:\\s+GPU"))) << run_.out;
  EXPECT_TRUE(std::regex_search(run_.out, std::regex(std::string("Name:\\s+") + gfx + "\\s"))) << gfx << "\n" << run_.out;
  EXPECT_NE(run_.out.find(std::string("amdgcn-amd-amdhsa--") + gfx), std::string::npos) << run_.out;
  const uint64_t cus = property(props, "simd_count") / property(props, "simd_per_cu");
  EXPECT_TRUE(std::regex_search(run_.out, std::regex("Compute Unit:\\s+" + std::to_string(cus) + "\\s"))) << run_.out;
}

TEST_F(ForeignRocminfo, PRE_RUN_1_GpuPoolSizeIsTheModelsVram) {
  const std::string bank = std::string(kTopology) + "/" + std::to_string(node_) + "/mem_banks/0/properties";
  const uint64_t kb = property(bank, "size_in_bytes") / 1024;
  ASSERT_GT(kb, 0u);
  // The GPU agent's section lists its global pool with the bank's size in KB.
  const size_t gpu = run_.out.find("Device Type:             GPU");
  ASSERT_NE(gpu, std::string::npos) << run_.out;
  const std::string section = run_.out.substr(gpu);
  EXPECT_TRUE(std::regex_search(section, std::regex("Size:\\s+" + std::to_string(kb) + "\\(0x[0-9a-f]+\\) KB")))
      << "want " << kb << " KB\n" << section;
}

// KFD-TOPO-8: as many GPU agents as the model has GPU nodes (ROCREF_GPUS reaches the interposer
// through the environment of `rocref exec`, and this process's model reads the same variable),
// each on its own node, and each GPU agent's pool the size of its bank.
TEST_F(ForeignRocminfo, PRE_RUN_1_ListsOneGpuAgentPerModeledGpuNode) {
  const auto nodes = rocref::kfd::KfdDevice::instance().list_sysfs(kTopology);
  ASSERT_TRUE(nodes.has_value());
  size_t gpu_nodes = 0;
  for (const auto& n : *nodes)
    gpu_nodes += property(std::string(kTopology) + "/" + n + "/properties", "simd_count") != 0;
  const std::regex gpu_agent("Device Type:\\s+GPU");
  const auto agents =
      std::distance(std::sregex_iterator(run_.out.begin(), run_.out.end(), gpu_agent), std::sregex_iterator());
  EXPECT_EQ(static_cast<size_t>(agents), gpu_nodes) << run_.out;
  EXPECT_EQ(gpu_nodes, rocref::kfd::KfdDevice::configured_gpu_count());
}

// HSA-AGENT-4: rocref's runtime and thunk report the machine as ROCR and libhsakmt do: rocminfo
// prints the same report, line for line, on either stack over the same model (agents, names,
// caches, pools, ISAs; trailing blanks aside).
TEST_F(ForeignRocminfo, HSA_AGENT_4_RocrefsStackPrintsRocrsReport) {
  const RunResult ours = run_under_model(rocminfo_, true);
  ASSERT_TRUE(WIFEXITED(ours.status) && WEXITSTATUS(ours.status) == 0) << ours.out;
  const auto lines = [](const std::string& text) {
    std::vector<std::string> out;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);) {
      line.erase(line.find_last_not_of(' ') + 1);
      out.push_back(line);
    }
    return out;
  };
  const std::vector<std::string> rocr = lines(run_.out), rocref = lines(ours.out);
  for (size_t i = 0; i < std::max(rocr.size(), rocref.size()); ++i) {
    ASSERT_EQ(i < rocr.size() ? rocr[i] : "(end)", i < rocref.size() ? rocref[i] : "(end)") << "line " << i + 1;
  }
}

}  // namespace
