// tests/conformance/hsakmt/misc_test.cpp - clock counters, XNACK, trap handler, tile config.
#include "hsakmt_fixture.h"

namespace hsakmt_conformance {
namespace {

using Hsakmt_Misc = Hsakmt;

TEST_F(Hsakmt_Misc, ClockCountersAdvanceAndReportAFrequency) {
  HsaClockCounters a{}, b{};
  ASSERT_EQ(hsaKmtGetClockCounters(gpu_node_, &a), HSAKMT_STATUS_SUCCESS);
  ASSERT_EQ(hsaKmtGetClockCounters(gpu_node_, &b), HSAKMT_STATUS_SUCCESS);
  // hsakmttypes.h packs to 4 bytes: 64-bit fields are copied before gtest binds references to them.
  const uint64_t freq = a.SystemClockFrequencyHz;
  const uint64_t sys_a = a.SystemClockCounter, sys_b = b.SystemClockCounter;
  const uint64_t cpu_a = a.CPUClockCounter, cpu_b = b.CPUClockCounter;
  const uint64_t gpu_a = a.GPUClockCounter, gpu_b = b.GPUClockCounter;
  EXPECT_NE(freq, 0u);
  EXPECT_GE(sys_b, sys_a);
  EXPECT_GE(cpu_b, cpu_a);
  EXPECT_GE(gpu_b, gpu_a);
}

TEST_F(Hsakmt_Misc, ClockCountersBadNodeOrNull) {
  HsaClockCounters c{};
  EXPECT_EQ(hsaKmtGetClockCounters(sys_.NumNodes, &c), HSAKMT_STATUS_INVALID_NODE_UNIT);
}

TEST_F(Hsakmt_Misc, ClockCountersNullReturnsInvalidParameter) {
  ROCREF_ONLY("writes the counters unchecked");
  EXPECT_EQ(hsaKmtGetClockCounters(gpu_node_, nullptr), HSAKMT_STATUS_INVALID_PARAMETER);
}

TEST_F(Hsakmt_Misc, XnackModeQueryAndSetItBack) {
  HSAint32 mode = -1;
  ASSERT_EQ(hsaKmtGetXNACKMode(&mode), HSAKMT_STATUS_SUCCESS);
  EXPECT_TRUE(mode == 0 || mode == 1);
  EXPECT_EQ(hsaKmtSetXNACKMode(mode), HSAKMT_STATUS_SUCCESS);
}

TEST_F(Hsakmt_Misc, XnackQueryNullReturnsInvalidParameter) {
  ROCREF_ONLY("writes the mode unchecked");
  EXPECT_EQ(hsaKmtGetXNACKMode(nullptr), HSAKMT_STATUS_INVALID_PARAMETER);
}

TEST_F(Hsakmt_Misc, SetTrapHandlerBadNodeReturnsInvalidNodeUnit) {
  EXPECT_EQ(hsaKmtSetTrapHandler(sys_.NumNodes, nullptr, 0, nullptr, 0), HSAKMT_STATUS_INVALID_NODE_UNIT);
}

TEST_F(Hsakmt_Misc, SetTrapHandlerOnTheGpuSucceeds) {
  void* tba = alloc_vram(4096);
  void* tma = alloc_vram(4096);
  ASSERT_TRUE(tba && tma);
  EXPECT_EQ(hsaKmtSetTrapHandler(gpu_node_, tba, 4096, tma, 4096), HSAKMT_STATUS_SUCCESS);
}

TEST_F(Hsakmt_Misc, TileConfigBadNodeReturnsInvalidNodeUnit) {
  HSAuint32 tiles[32] = {};
  HSAuint32 macro[16] = {};
  HsaGpuTileConfig cfg{};
  cfg.TileConfig = tiles;
  cfg.MacroTileConfig = macro;
  cfg.NumTileConfigs = 32;
  cfg.NumMacroTileConfigs = 16;
  EXPECT_EQ(hsaKmtGetTileConfig(sys_.NumNodes, &cfg), HSAKMT_STATUS_INVALID_NODE_UNIT);
  EXPECT_EQ(hsaKmtGetTileConfig(gpu_node_, &cfg), HSAKMT_STATUS_SUCCESS);
  EXPECT_LE(cfg.NumTileConfigs, 32u);
}

}  // namespace
}  // namespace hsakmt_conformance
