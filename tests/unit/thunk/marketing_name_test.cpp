// tests/unit/thunk/marketing_name_test.cpp - amdgpu.ids read as libdrm's parser reads it (THUNK-TOPO-1).
#include "thunk/marketing_name.h"

#include <gtest/gtest.h>

namespace rocref::thunk {
namespace {

constexpr const char* kIds =
    "# comment\n"
    "\n"
    "1.0.0\n"
    "6860,\t00,\tAMD Radeon Instinct MI25\n"
    "6860,\t03,\tAMD Radeon Pro V340\n"
    "687F,\tC1,\tAMD Radeon RX Vega\r\n"
    "broken line\n";

TEST(AmdgpuIds, THUNK_TOPO_1_DeviceAndRevisionPickTheName) {
  EXPECT_EQ(amdgpu_ids_name(kIds, 0x6860, 0x00), "AMD Radeon Instinct MI25");
  EXPECT_EQ(amdgpu_ids_name(kIds, 0x6860, 0x03), "AMD Radeon Pro V340");
  EXPECT_EQ(amdgpu_ids_name(kIds, 0x687f, 0xc1), "AMD Radeon RX Vega") << "hex in either case, CR stripped";
  EXPECT_EQ(amdgpu_ids_name(kIds, 0x6860, 0x01), std::nullopt) << "the revision must match too";
  EXPECT_EQ(amdgpu_ids_name(kIds, 0x1234, 0x00), std::nullopt);
  EXPECT_EQ(amdgpu_ids_name("6860,\t00,\tname before any version line\n", 0x6860, 0), std::nullopt)
      << "the first line is the table's version";
}

// THUNK-TOPO-1: a CPU node is named by its first core's "model name" in /proc/cpuinfo.
TEST(CpuModelName, THUNK_TOPO_1_TheFirstCoresModelName) {
  constexpr const char* kCpuinfo =
      "processor\t: 0\nmodel name\t: Core A\napicid\t\t: 0\n\n"
      "processor\t: 1\nmodel name\t: Core B\napicid\t\t: 16\n\n";
  EXPECT_EQ(cpu_model_name(kCpuinfo, 16), "Core B");
  EXPECT_EQ(cpu_model_name(kCpuinfo, 0), "Core A");
  EXPECT_EQ(cpu_model_name(kCpuinfo, 7), "Core A") << "no such core: the first processor's";
  EXPECT_EQ(cpu_model_name("", 0), "");
}

}  // namespace
}  // namespace rocref::thunk
