// tests/unit/sdma/sdma_engine_test.cpp - each SDMA packet and each SDMA queue error (spec/sdma.md).
#include <gtest/gtest.h>

#include <array>
#include <vector>

#include "sdma_ring.h"

namespace rocref::gpu::sdma::test {
namespace {

TEST(Sdma, SDMA_PKT_1_NopSkipsItsExtraDwords) {
  TestQueue q;
  alignas(4) uint32_t flag = 0;
  // NOP with 2 extra dwords that look like a FENCE header: they must not execute.
  q.put({hdr(kOpNop, 0, 2u << 16), hdr(kOpFence), 0xdead});
  q.submit(fence(&flag, 7));
  EXPECT_EQ(q.engine->drain(), 2u);
  EXPECT_EQ(flag, 7u);
  EXPECT_EQ(q.rptr, q.wptr);
  EXPECT_FALSE(q.engine->in_error());
}

TEST(Sdma, SDMA_COPY_1_CopyLinearMovesCountPlusOneBytes) {
  TestQueue q;
  std::array<uint8_t, 64> src{}, dst{};
  for (size_t i = 0; i < src.size(); ++i) src[i] = uint8_t(i + 1);
  q.submit(copy_linear(dst.data(), src.data(), 37));
  EXPECT_EQ(q.engine->step().action, SdmaAction::Executed);
  for (size_t i = 0; i < 37; ++i) EXPECT_EQ(dst[i], src[i]) << i;
  EXPECT_EQ(dst[37], 0) << "SDMA-COPY-1: one byte past the count was written";
  EXPECT_EQ(q.engine->stats().bytes_moved, 37u);
}

TEST(Sdma, SDMA_COPY_2_CopyLinearRectCopiesTheSubWindowOnly) {
  TestQueue q;
  // 8x4 source of 4-byte elements (pitch 8), copy a 3x2 window at (2,1) to (1,0) of a 6-pitch target.
  std::array<uint32_t, 32> src{};
  std::array<uint32_t, 24> dst{};
  for (uint32_t i = 0; i < src.size(); ++i) src[i] = 100 + i;
  const uint32_t elog = 2;
  q.submit({hdr(kOpCopy, kSubCopyLinearRect, elog << 29), lo(src.data()), hi(src.data()),
            2u | (1u << 16), (8u - 1) << 13, 32u - 1,  // src x,y ; z=0,pitch ; slice
            lo(dst.data()), hi(dst.data()), 1u, (6u - 1) << 13, 24u - 1,  // dst x=1,y=0 ; pitch ; slice
            (3u - 1) | ((2u - 1) << 16), 0u});
  EXPECT_EQ(q.engine->step().action, SdmaAction::Executed);
  for (uint32_t y = 0; y < 4; ++y) {
    for (uint32_t x = 0; x < 6; ++x) {
      const bool inside = y < 2 && x >= 1 && x < 4;
      EXPECT_EQ(dst[y * 6 + x], inside ? src[(1 + y) * 8 + (2 + x - 1)] : 0u) << x << "," << y;
    }
  }
}

TEST(Sdma, SDMA_COPY_2_RectElementSizeOver16BytesIsMalformed) {
  TestQueue q;
  std::array<uint32_t, 8> buf{};
  q.submit({hdr(kOpCopy, kSubCopyLinearRect, 5u << 29), lo(buf.data()), hi(buf.data()), 0, 0, 0,
            lo(buf.data()), hi(buf.data()), 0, 0, 0, 0, 0});
  EXPECT_EQ(q.engine->step().action, SdmaAction::Error);
  EXPECT_EQ(q.engine->error(), SdmaError::MalformedPacket);
}

TEST(Sdma, SDMA_PKT_1_WriteLinearLengthComesFromItsCount) {
  TestQueue q;
  alignas(4) std::array<uint32_t, 4> dst{};
  alignas(4) uint32_t flag = 0;
  // The data dwords are valid packet headers: a fixed-length parser would execute them.
  q.submit(write_linear(dst.data(), {hdr(kOpTrap), 5, hdr(kOpTrap), 9}));
  q.submit(fence(&flag, 1));
  EXPECT_EQ(q.engine->drain(), 2u);
  EXPECT_EQ(dst, (std::array<uint32_t, 4>{hdr(kOpTrap), 5, hdr(kOpTrap), 9}));
  EXPECT_TRUE(q.traps.empty());
  EXPECT_EQ(flag, 1u);
}

TEST(Sdma, SDMA_PKT_2_IncompletePacketWaitsAndConsumesNothing) {
  TestQueue q;
  alignas(4) std::array<uint32_t, 3> dst{};
  const auto pkt = write_linear(dst.data(), {1, 2, 3});
  q.put(std::vector<uint32_t>(pkt.begin(), pkt.begin() + 3));  // count field not yet there
  q.ring_doorbell();
  EXPECT_EQ(q.engine->step().action, SdmaAction::None);
  q.put({pkt[3], pkt[4]});  // count there, data incomplete
  q.ring_doorbell();
  EXPECT_EQ(q.engine->step().action, SdmaAction::None);
  EXPECT_EQ(q.rptr, 0u);
  ASSERT_EQ(pkt.size(), 7u);
  q.put({pkt[5]});  // one dword short: still waits
  q.ring_doorbell();
  EXPECT_EQ(q.engine->step().action, SdmaAction::None);
  EXPECT_EQ(q.rptr, 0u);
  q.put({pkt[6]});
  q.ring_doorbell();
  EXPECT_EQ(q.engine->step().action, SdmaAction::Executed);
  EXPECT_EQ(dst, (std::array<uint32_t, 3>{1, 2, 3}));
}

TEST(Sdma, SDMA_FENCE_1_FenceWritesItsValue) {
  TestQueue q;
  alignas(4) uint32_t f = 0;
  q.submit(fence(&f, 2015));
  EXPECT_EQ(q.engine->step().action, SdmaAction::Executed);
  EXPECT_EQ(f, 2015u);
}

TEST(Sdma, SDMA_ERR_3_MisalignedFenceIsAQueueErrorAndWritesNothing) {
  TestQueue q;
  alignas(8) std::array<uint8_t, 8> buf{};
  q.submit(fence(buf.data() + 1, 0xffffffff));
  EXPECT_EQ(q.engine->step().action, SdmaAction::Error);
  EXPECT_EQ(q.engine->error(), SdmaError::Misaligned);
  EXPECT_EQ(buf, (std::array<uint8_t, 8>{}));
}

TEST(Sdma, SDMA_TRAP_1_TrapRaisesTheInterruptWithItsContext) {
  TestQueue q;
  q.submit({hdr(kOpTrap), 0xf0000000u | 1234});  // bits 28-31 are reserved, not part of int_ctx
  EXPECT_EQ(q.engine->step().action, SdmaAction::Executed);
  ASSERT_EQ(q.traps.size(), 1u);
  EXPECT_EQ(q.traps[0], 1234u);
}

TEST(Sdma, SDMA_POLL_1_MemoryPollWaitsUntilTheMaskedValueMatches) {
  TestQueue q;
  alignas(4) uint32_t word = 0x10;
  alignas(4) uint32_t flag = 0;
  q.submit(poll_mem(&word, 0x3, 0x0f));
  q.submit(fence(&flag, 1));
  EXPECT_EQ(q.engine->step().action, SdmaAction::Waiting);
  EXPECT_EQ(q.engine->step().action, SdmaAction::Waiting);
  EXPECT_EQ(flag, 0u) << "SDMA-POLL-1: a packet after an unsatisfied poll ran";
  EXPECT_EQ(q.rptr, 0u);
  word = 0x13;
  EXPECT_EQ(q.engine->drain(), 2u);
  EXPECT_EQ(flag, 1u);
}

TEST(Sdma, SDMA_POLL_1_CompareFunctions) {
  for (uint32_t func = 0; func < 7; ++func) {
    TestQueue q;
    alignas(4) uint32_t word = 5;
    q.submit(poll_mem(&word, 5, 0xffffffff, func));
    const bool holds = func == 0 || func == 2 || func == 3 || func == 5;
    EXPECT_EQ(q.engine->step().action, holds ? SdmaAction::Executed : SdmaAction::Waiting) << func;
  }
}

TEST(Sdma, SDMA_POLL_1_ReservedFunctionIsMalformed) {
  TestQueue q;
  alignas(4) uint32_t word = 0;
  q.submit(poll_mem(&word, 0, 0, 7));
  EXPECT_EQ(q.engine->step().action, SdmaAction::Error);
  EXPECT_EQ(q.engine->error(), SdmaError::MalformedPacket);
}

TEST(Sdma, SDMA_POLL_2_RocrHdpFlushCompletesAtOnce) {
  TestQueue q;
  q.submit({kHdpFlushDw0, 0, kHdpFlushDw2, 0, 0, 0});
  EXPECT_EQ(q.engine->step().action, SdmaAction::Executed);
  TestQueue q2;
  q2.submit({hdr(kOpPollRegmem, 0, 1u << 26), 0, 0, 0, 0, 0});
  EXPECT_EQ(q2.engine->step().action, SdmaAction::Executed);
}

TEST(Sdma, SDMA_POLL_3_OtherRegisterPollIsUnsupported) {
  TestQueue q;
  q.submit({hdr(kOpPollRegmem, 0, 3u << 28), 0x1234, 0, 1, 1, 0});
  EXPECT_EQ(q.engine->step().action, SdmaAction::Error);
  EXPECT_EQ(q.engine->error(), SdmaError::UnsupportedPoll);
}

TEST(Sdma, SDMA_ATOM_1_Add64AddsTheSourceData) {
  TestQueue q;
  alignas(8) uint64_t v = 0xffffffffull;
  q.submit({hdr(kOpAtomic, 0, kAtomicAdd64 << 25), lo(&v), hi(&v), 1, 2, 0, 0, 0});
  EXPECT_EQ(q.engine->step().action, SdmaAction::Executed);
  EXPECT_EQ(v, 0xffffffffull + 0x200000001ull);
}

TEST(Sdma, SDMA_ATOM_2_OtherAtomicOperationIsAnErrorAndChangesNothing) {
  TestQueue q;
  alignas(8) uint64_t v = 5;
  q.submit({hdr(kOpAtomic, 0, 46u << 25), lo(&v), hi(&v), 1, 0, 0, 0, 0});
  EXPECT_EQ(q.engine->step().action, SdmaAction::Error);
  EXPECT_EQ(q.engine->error(), SdmaError::UnsupportedAtomic);
  EXPECT_EQ(v, 5u);
}

TEST(Sdma, SDMA_ATOM_1_MisalignedAtomicIsAnError) {
  TestQueue q;
  alignas(8) std::array<uint64_t, 2> v{};
  auto* p = reinterpret_cast<uint8_t*>(v.data()) + 4;
  q.submit({hdr(kOpAtomic, 0, kAtomicAdd64 << 25), lo(p), hi(p), 1, 0, 0, 0, 0});
  EXPECT_EQ(q.engine->step().action, SdmaAction::Error);
  EXPECT_EQ(q.engine->error(), SdmaError::Misaligned);
}

TEST(Sdma, SDMA_FILL_1_DwordFillWithRocrsCountEncoding) {
  TestQueue q;
  std::array<uint32_t, 8> d{};
  const uint32_t dwords = 5;
  q.submit({hdr(kOpConstFill, 0, 2u << 30), lo(d.data()), hi(d.data()), 0xabcd1234, (dwords - 1) * 4});
  EXPECT_EQ(q.engine->step().action, SdmaAction::Executed);
  for (uint32_t i = 0; i < 8; ++i) EXPECT_EQ(d[i], i < dwords ? 0xabcd1234u : 0u) << i;
}

TEST(Sdma, SDMA_FILL_1_ByteFill) {
  TestQueue q;
  std::array<uint8_t, 8> d{};
  q.submit({hdr(kOpConstFill), lo(d.data() + 1), hi(d.data() + 1), 0x5a, 3 - 1});
  EXPECT_EQ(q.engine->step().action, SdmaAction::Executed);
  EXPECT_EQ(d, (std::array<uint8_t, 8>{0, 0x5a, 0x5a, 0x5a, 0, 0, 0, 0}));
}

TEST(Sdma, SDMA_FILL_1_ReservedFillSizeIsMalformed) {
  TestQueue q;
  std::array<uint32_t, 2> d{};
  q.submit({hdr(kOpConstFill, 0, 3u << 30), lo(d.data()), hi(d.data()), 1, 0});
  EXPECT_EQ(q.engine->step().action, SdmaAction::Error);
  EXPECT_EQ(q.engine->error(), SdmaError::MalformedPacket);
  EXPECT_EQ(d, (std::array<uint32_t, 2>{}));
}

TEST(Sdma, SDMA_TS_1_TimestampWritesTheGlobalClock) {
  TestQueue q;
  alignas(8) uint64_t ts = 0;
  q.submit({hdr(kOpTimestamp, kSubTimestampGetGlobal), lo(&ts), hi(&ts)});
  EXPECT_EQ(q.engine->step().action, SdmaAction::Executed);
  EXPECT_EQ(ts, 0x1122334455667788ull);
}

TEST(Sdma, SDMA_PKT_3_GcrIsAcceptedAsACacheOperation) {
  TestQueue q;
  q.submit({hdr(kOpGcr, kSubUserGcr), 0, 0, 0, 0});
  EXPECT_EQ(q.engine->step().action, SdmaAction::Executed);
  EXPECT_EQ(q.rptr, 20u);
}

TEST(Sdma, SDMA_ERR_1_UnknownOpcodeIsAQueueErrorAndNothingFurtherRuns) {
  TestQueue q;
  alignas(4) uint32_t flag = 0;
  q.submit({hdr(0x42)});
  q.submit(fence(&flag, 1));
  const SdmaStep s = q.engine->step();
  EXPECT_EQ(s.action, SdmaAction::Error);
  EXPECT_EQ(q.engine->error(), SdmaError::UnknownPacket);
  EXPECT_EQ(q.rptr, 0u) << "SDMA-ERR-1: the bad packet was consumed";
  EXPECT_EQ(q.engine->step().action, SdmaAction::None);
  EXPECT_EQ(flag, 0u);
  EXPECT_EQ(q.errors.size(), 1u) << "the error callback runs once";
  EXPECT_NE(q.error_text.find("SDMA-ERR-1"), std::string::npos);
  EXPECT_FALSE(q.engine->has_work());
}

TEST(Sdma, SDMA_ERR_1_UnknownSubOpcodesAreErrors) {
  for (auto h : {hdr(kOpCopy, 1), hdr(kOpWrite, 1), hdr(kOpTimestamp, 0), hdr(kOpGcr, 0)}) {
    TestQueue q;
    q.submit({h, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0});
    EXPECT_EQ(q.engine->step().action, SdmaAction::Error) << std::hex << h;
    EXPECT_EQ(q.engine->error(), SdmaError::UnknownPacket);
  }
}

TEST(Sdma, SDMA_ERR_2_PacketLongerThanTheRingIsMalformed) {
  TestQueue q(64);
  q.submit({hdr(kOpNop, 0, 100u << 16)});
  EXPECT_EQ(q.engine->step().action, SdmaAction::Error);
  EXPECT_EQ(q.engine->error(), SdmaError::MalformedPacket);
}

TEST(Sdma, SDMA_ERR_4_UnmappedDestinationIsAFaultAndTheSourceIsUntouched) {
  TestQueue q;
  alignas(4096) static std::array<uint8_t, 8192> pages{};
  std::array<uint8_t, 16> src{};
  src.fill(9);
  q.memory.forbid(pages.data() + 4096);
  q.submit(copy_linear(pages.data() + 4090, src.data(), 16));  // crosses into the forbidden page
  EXPECT_EQ(q.engine->step().action, SdmaAction::Error);
  EXPECT_EQ(q.engine->error(), SdmaError::MemoryFault);
  EXPECT_EQ(pages[4090], 0) << "SDMA-ERR-4: a faulting copy wrote part of its range";
}

TEST(Sdma, SDMA_RING_1_InvalidBindingsStartInError) {
  FlatMemory mem;
  alignas(8) uint64_t db = 0;
  std::vector<uint32_t> ring(64);
  auto make = [&](uint64_t base, uint64_t size, MemoryAccess* m) {
    SdmaBinding b;
    b.ring_base = base;
    b.ring_size = size;
    b.doorbell = &db;
    b.memory = m;
    return std::make_unique<SdmaEngine>(std::move(b));
  };
  const uint64_t base = reinterpret_cast<uintptr_t>(ring.data());
  EXPECT_EQ(make(base, 192, &mem)->error(), SdmaError::BadBinding);
  EXPECT_EQ(make(base + 2, 256, &mem)->error(), SdmaError::BadBinding);
  EXPECT_EQ(make(base, 256, nullptr)->error(), SdmaError::BadBinding);
  EXPECT_EQ(make(base, 256, &mem)->error(), SdmaError::None);
}

TEST(Sdma, SDMA_RING_2_BadWritePointersAreErrors) {
  {
    TestQueue q;
    q.doorbell = 6;  // not a dword offset
    EXPECT_EQ(q.engine->step().action, SdmaAction::Error);
    EXPECT_EQ(q.engine->error(), SdmaError::BadWritePointer);
  }
  {
    TestQueue q(256);
    q.doorbell = 512;  // more than a ring ahead
    EXPECT_EQ(q.engine->step().action, SdmaAction::Error);
    EXPECT_EQ(q.engine->error(), SdmaError::BadWritePointer);
  }
  {
    TestQueue q(256);
    q.doorbell = 256 + 4;  // one dword more than a ring ahead: the bound is exact
    EXPECT_EQ(q.engine->step().action, SdmaAction::Error);
    EXPECT_EQ(q.engine->error(), SdmaError::BadWritePointer);
  }
  {
    TestQueue q;
    q.submit({hdr(kOpNop)});
    ASSERT_EQ(q.engine->step().action, SdmaAction::Executed);
    q.doorbell = 0;  // behind rptr: the pointers are monotonic
    EXPECT_EQ(q.engine->step().action, SdmaAction::Error);
  }
}

TEST(Sdma, SDMA_RING_3_PacketsWrapAroundTheRingEnd) {
  TestQueue q(64);  // 16 dwords
  alignas(4) uint32_t flag = 0;
  q.submit({hdr(kOpNop, 0, 12u << 16)});  // 13 dwords
  for (int i = 0; i < 12; ++i) q.put({0});
  q.ring_doorbell();
  ASSERT_EQ(q.engine->step().action, SdmaAction::Executed);
  ASSERT_EQ(q.rptr, 52u);
  q.submit(fence(&flag, 77));  // dwords 13,14,15,0
  EXPECT_EQ(q.engine->step().action, SdmaAction::Executed);
  EXPECT_EQ(flag, 77u);
  EXPECT_EQ(q.rptr, 68u) << "SDMA-RING-3: rptr stays monotonic across the wrap";
}

TEST(Sdma, SDMA_RING_2_WithoutDoorbellTheWritePointerMemoryIsRead) {
  TestQueue q(4096, false);
  alignas(4) uint32_t flag = 0;
  q.put(fence(&flag, 3));
  EXPECT_TRUE(q.engine->has_work());
  EXPECT_EQ(q.engine->drain(), 1u);
  EXPECT_EQ(flag, 3u);
}

}  // namespace
}  // namespace rocref::gpu::sdma::test
