// tests/unit/pm4/pm4_test.cpp - each PM4 packet, each PM4 error, and the AQL PM4-IB vendor packet.
#include <gtest/gtest.h>
#include <hsa/hsa.h>

#include <array>
#include <cstring>
#include <vector>

#include "gpu/pm4/pm4_packets.h"
#include "gpu/pm4/vendor_packet.h"

namespace rocref::gpu::pm4 {
namespace {

uint32_t lo(const void* p) { return uint32_t(reinterpret_cast<uintptr_t>(p)); }
uint32_t hi(const void* p) { return uint32_t(uint64_t(reinterpret_cast<uintptr_t>(p)) >> 32); }

struct Fixture {
  FlatMemory memory;
  std::vector<uint32_t> interrupts;
  Pm4Context ctx{&memory, [this](uint32_t c) { interrupts.push_back(c); }, [] { return uint64_t{42}; }};
  Pm4Result run(const std::vector<uint32_t>& ib) {
    return execute_ib(reinterpret_cast<uintptr_t>(ib.data()), uint32_t(ib.size()), ctx);
  }
};

// ROCR's code-cache invalidate on gfx9: ACQUIRE_MEM, 7 dwords.
std::vector<uint32_t> acquire_mem() {
  return {make_header(kItAcquireMem, 7), (1u << 29) | (1u << 27) | (1u << 23), 0xffffffff, 0xff, 0, 0, 4};
}

TEST(Pm4, PM4_ACQ_1_AcquireMemIsAcceptedAsACacheOperation) {
  Fixture f;
  const Pm4Result r = f.run(acquire_mem());
  EXPECT_TRUE(r.ok) << r.what;
  EXPECT_EQ(r.packets, 1u);
}

TEST(Pm4, PM4_REL_1_ReleaseMemWrites64BitDataThenInterrupts) {
  Fixture f;
  alignas(8) uint64_t slot = 0;
  const Pm4Result r = f.run({make_header(kItReleaseMem, 8), 0x7u << 8, (2u << 29) | (2u << 24), lo(&slot), hi(&slot),
                             0x89abcdef, 0x01234567, 77});
  EXPECT_TRUE(r.ok) << r.what;
  EXPECT_EQ(slot, 0x0123456789abcdefull);
  EXPECT_EQ(f.interrupts, std::vector<uint32_t>{77});
}

TEST(Pm4, PM4_REL_1_ReleaseMemClockAndNoInterrupt) {
  Fixture f;
  alignas(8) uint64_t slot = 0;
  EXPECT_TRUE(f.run({make_header(kItReleaseMem, 8), 0, 3u << 29, lo(&slot), hi(&slot), 0, 0, 0}).ok);
  EXPECT_EQ(slot, 42u);
  EXPECT_TRUE(f.interrupts.empty());
}

TEST(Pm4, PM4_REL_1_MisalignedOrShortReleaseMemIsAnError) {
  Fixture f;
  alignas(8) std::array<uint8_t, 16> buf{};
  EXPECT_FALSE(f.run({make_header(kItReleaseMem, 8), 0, 2u << 29, lo(buf.data() + 4), hi(buf.data()), 1, 1, 0}).ok);
  EXPECT_EQ(buf, (std::array<uint8_t, 16>{}));
  EXPECT_FALSE(f.run({make_header(kItReleaseMem, 6), 0, 0, 0, 0, 0}).ok);
}

TEST(Pm4, PM4_WR_1_WriteDataWritesEveryDword) {
  Fixture f;
  alignas(4) std::array<uint32_t, 3> d{};
  EXPECT_TRUE(f.run({make_header(kItWriteData, 7), kDstSelMemory << 8, lo(d.data()), hi(d.data()), 1, 2, 3}).ok);
  EXPECT_EQ(d, (std::array<uint32_t, 3>{1, 2, 3}));
}

TEST(Pm4, PM4_WR_1_WriteDataToRegistersIsAnError) {
  Fixture f;
  const Pm4Result r = f.run({make_header(kItWriteData, 5), 0u << 8, 0x1234, 0, 1});
  EXPECT_FALSE(r.ok);
  EXPECT_EQ(r.what.rfind("PM4-WR-1", 0), 0u) << r.what;
}

TEST(Pm4, PM4_PKT_1_PacketRunningPastTheIbEndRunsNothing) {
  Fixture f;
  alignas(4) uint32_t d = 0;
  const Pm4Result r = f.run({make_header(kItWriteData, 6), kDstSelMemory << 8, lo(&d), hi(&d), 5});
  EXPECT_FALSE(r.ok);
  EXPECT_EQ(d, 0u);
}

TEST(Pm4, PM4_PKT_2_NopAndType2FillersAreSkippedByLength) {
  Fixture f;
  alignas(4) uint32_t d = 0;
  // The NOP's body holds a WRITE_DATA that must not run.
  const Pm4Result r = f.run({make_header(kItNop, 6), make_header(kItWriteData, 5), kDstSelMemory << 8, lo(&d),
                             hi(&d), 0x80000000u});
  EXPECT_TRUE(r.ok) << r.what;
  EXPECT_EQ(d, 0u);
  EXPECT_EQ(r.packets, 1u);
}

TEST(Pm4, PM4_PKT_3_UnknownOpcodeAndNonType3AreErrors) {
  Fixture f;
  EXPECT_FALSE(f.run({make_header(0x15, 5), 1, 1, 1, 0}).ok);  // DISPATCH_DIRECT: not modeled
  EXPECT_FALSE(f.run({0x00001234}).ok);                        // type 0
}

TEST(Pm4, PM4_IB_2_ChainedIbsRunAndNestingIsBounded) {
  Fixture f;
  alignas(4) uint32_t d = 0;
  std::vector<uint32_t> inner{make_header(kItWriteData, 5), kDstSelMemory << 8, lo(&d), hi(&d), 9};
  std::vector<uint32_t> outer{make_header(kItIndirectBuffer, 4), lo(inner.data()), hi(inner.data()),
                              uint32_t(inner.size()) | (1u << 23)};
  EXPECT_TRUE(f.run(outer).ok);
  EXPECT_EQ(d, 9u);
  // A buffer that jumps to itself must stop at the depth bound, not recurse forever.
  std::vector<uint32_t> self(4);
  self = {make_header(kItIndirectBuffer, 4), lo(self.data()), hi(self.data()), 4u | (1u << 23)};
  const Pm4Result r = f.run(self);
  EXPECT_FALSE(r.ok);
  EXPECT_EQ(r.what.rfind("PM4-IB-2", 0), 0u) << r.what;
}

alignas(64) std::array<uint8_t, 64> aql_pm4_ib(const std::vector<uint32_t>& ib, bool valid = true) {
  AqlPm4IbPacket p{};
  p.header = HSA_PACKET_TYPE_VENDOR_SPECIFIC;
  p.ven_hdr = kAmdAqlFormatPm4Ib;
  p.ib_jump_cmd[0] = make_header(kItIndirectBuffer, 4);
  p.ib_jump_cmd[1] = lo(ib.data()) & ~3u;
  p.ib_jump_cmd[2] = hi(ib.data());
  p.ib_jump_cmd[3] = uint32_t(ib.size()) | (valid ? 1u << 23 : 0);
  p.dw_cnt_remain = 0xA;
  std::array<uint8_t, 64> bytes;
  std::memcpy(bytes.data(), &p, 64);
  return bytes;
}

TEST(Pm4, PM4_AQL_1_RocrCodeCacheInvalidatePacketCompletes) {
  Fixture f;
  const auto ib = acquire_mem();
  const auto pkt = aql_pm4_ib(ib);
  ASSERT_TRUE(is_pm4_ib_packet(pkt.data()));
  const VendorResult r = run_vendor_packet(pkt.data(), f.ctx);
  EXPECT_EQ(r.outcome, VendorOutcome::Completed) << r.what;
}

TEST(Pm4, PM4_AQL_1_InvalidJumpIsAnError) {
  Fixture f;
  const auto ib = acquire_mem();
  EXPECT_EQ(run_vendor_packet(aql_pm4_ib(ib, false).data(), f.ctx).outcome, VendorOutcome::Error);
}

TEST(Pm4, PM4_AQL_2_OtherVendorFormatsAreNotHandled) {
  Fixture f;
  std::array<uint8_t, 64> pkt{};
  pkt[2] = 2;  // AMD BARRIER_VALUE: the packet processor's own
  EXPECT_FALSE(is_pm4_ib_packet(pkt.data()));
  EXPECT_EQ(run_vendor_packet(pkt.data(), f.ctx).outcome, VendorOutcome::NotHandled);
}

}  // namespace
}  // namespace rocref::gpu::pm4
