// tests/unit/foreign_blit/blit_test.cpp - blit kernels recognised by code, emulated by kernargs; others rejected.
#include <gtest/gtest.h>

#include <array>
#include <cstring>
#include <numeric>
#include <vector>

#include "gpu/foreign_blit/foreign_kernel.h"

namespace rocref::gpu::foreign_blit {
namespace {

constexpr uint32_t kWaitLgkm0 = 0xBF8CC07Fu;  // s_waitcnt lgkmcnt(0) (gfx9 encoding)

// An amd_kernel_code_t-shaped object: entry offset 256 at byte 16, code after it.
struct CodeObject {
  alignas(256) std::array<uint8_t, 256 + 64 * 4> bytes{};
  explicit CodeObject(std::vector<uint32_t> code) {
    const int64_t entry = 256;
    std::memcpy(bytes.data() + 16, &entry, 8);
    code.resize(64, 0xBF810000u);  // s_endpgm padding
    std::memcpy(bytes.data() + 256, code.data(), 64 * 4);
  }
  uint64_t handle() const { return reinterpret_cast<uintptr_t>(bytes.data()); }
};

std::vector<uint32_t> code_of(BlitKernel k) {
  auto c = prologue(k);
  c.push_back(kWaitLgkm0);
  return c;
}

hsa_kernel_dispatch_packet_t dispatch(const CodeObject& co, const void* kernarg) {
  hsa_kernel_dispatch_packet_t p{};
  p.kernel_object = co.handle();
  p.kernarg_address = const_cast<void*>(kernarg);
  p.grid_size_x = 64;
  p.workgroup_size_x = 64;
  return p;
}

TEST(Blit, BLIT_REC_1_PrologueEncodingMatchesGfx9Smem) {
  // s_load_dwordx4 s[4:7], s[0:1], 0x0 assembles to c00a0100 00000000 on gfx9.
  EXPECT_EQ(prologue(BlitKernel::Fill)[0], 0xC00A0100u);
  EXPECT_EQ(prologue(BlitKernel::CopyAligned).size(), 12u);
}

TEST(Blit, BLIT_REC_1_EachKernelIsRecognisedAsItself) {
  for (BlitKernel k : {BlitKernel::CopyAligned, BlitKernel::CopyMisaligned, BlitKernel::Fill}) {
    auto c = code_of(k);
    c.resize(kFingerprintDwords, 0);
    EXPECT_EQ(recognise(c.data(), c.size()), k) << blit_kernel_name(k);
  }
}

TEST(Blit, BLIT_REC_1_NearMissesAreNotRecognised) {
  auto c = code_of(BlitKernel::CopyMisaligned);
  c.resize(kFingerprintDwords, 0);
  c[7] = 0x40;  // s16 loaded from 0x40 instead of 0x30
  EXPECT_FALSE(recognise(c.data(), c.size()));
  auto f = code_of(BlitKernel::Fill);
  f[4] = 0xBF810000u;  // s_endpgm where the wait belongs
  f.resize(kFingerprintDwords, 0);
  EXPECT_FALSE(recognise(f.data(), f.size()));
}

TEST(Blit, BLIT_COPY_1_CopyAlignedMovesTheWholeRange) {
  FlatMemory mem;
  CodeObject co(code_of(BlitKernel::CopyAligned));
  std::vector<uint8_t> src(1000), dst(1000, 0);
  std::iota(src.begin(), src.end(), 0);
  const uint64_t s = reinterpret_cast<uintptr_t>(src.data()) + 3, d = reinterpret_cast<uintptr_t>(dst.data()) + 3;
  const uint64_t n = 990;
  // Phases as ROCR splits them: bytes to alignment, vector body, dword tail, byte tail.
  alignas(16) CopyAlignedArgs a{s, d, s + 13, d + 13, s + 13 + 960, d + 13 + 960, s + 13 + 960 + 16,
                                d + 13 + 960 + 16, s + n, d + n, 256};
  const ForeignResult r = run_foreign_kernel(dispatch(co, &a), mem);
  ASSERT_EQ(r.outcome, ForeignOutcome::Completed) << r.what;
  EXPECT_EQ(r.kernel, BlitKernel::CopyAligned);
  EXPECT_EQ(0, std::memcmp(dst.data() + 3, src.data() + 3, n));
  EXPECT_EQ(dst[2], 0);
  EXPECT_EQ(dst[3 + n], 0);
}

TEST(Blit, BLIT_COPY_1_CopyMisalignedMovesTheWholeRange) {
  FlatMemory mem;
  CodeObject co(code_of(BlitKernel::CopyMisaligned));
  std::vector<uint8_t> src(300), dst(300, 0);
  std::iota(src.begin(), src.end(), 1);
  const uint64_t s = reinterpret_cast<uintptr_t>(src.data()) + 1, d = reinterpret_cast<uintptr_t>(dst.data()) + 2;
  alignas(16) CopyMisalignedArgs a{s, d, s + 256, d + 256, s + 290, d + 290, 64};
  const ForeignResult r = run_foreign_kernel(dispatch(co, &a), mem);
  ASSERT_EQ(r.outcome, ForeignOutcome::Completed) << r.what;
  EXPECT_EQ(0, std::memcmp(dst.data() + 2, src.data() + 1, 290));
  EXPECT_EQ(r.bytes, 290u);
}

TEST(Blit, BLIT_ARG_1_InconsistentPhasesAreAnErrorAndMoveNothing) {
  FlatMemory mem;
  CodeObject co(code_of(BlitKernel::CopyMisaligned));
  std::vector<uint8_t> src(64, 7), dst(64, 0);
  const uint64_t s = reinterpret_cast<uintptr_t>(src.data()), d = reinterpret_cast<uintptr_t>(dst.data());
  alignas(16) CopyMisalignedArgs a{s, d, s + 32, d + 40, s + 64, d + 64, 64};  // dst phase 2 shifted
  const ForeignResult r = run_foreign_kernel(dispatch(co, &a), mem);
  EXPECT_EQ(r.outcome, ForeignOutcome::Error);
  EXPECT_EQ(dst, std::vector<uint8_t>(64, 0));
}

TEST(Blit, BLIT_FILL_1_FillWritesTheValueOverTheRange) {
  FlatMemory mem;
  CodeObject co(code_of(BlitKernel::Fill));
  std::vector<uint32_t> buf(100, 0);
  const uint64_t s = reinterpret_cast<uintptr_t>(buf.data() + 1);
  alignas(16) FillArgs a{s, s + 256, s + 4 * 98, 0xfeedf00d, 64};
  const ForeignResult r = run_foreign_kernel(dispatch(co, &a), mem);
  ASSERT_EQ(r.outcome, ForeignOutcome::Completed) << r.what;
  EXPECT_EQ(buf[0], 0u);
  for (int i = 1; i < 99; ++i) EXPECT_EQ(buf[i], 0xfeedf00du) << i;
  EXPECT_EQ(buf[99], 0u);
}

TEST(Blit, BLIT_FILL_1_UnalignedFillIsAnError) {
  FlatMemory mem;
  CodeObject co(code_of(BlitKernel::Fill));
  std::vector<uint32_t> buf(8, 0);
  const uint64_t s = reinterpret_cast<uintptr_t>(buf.data()) + 2;
  alignas(16) FillArgs a{s, s, s + 8, 1, 64};
  EXPECT_EQ(run_foreign_kernel(dispatch(co, &a), mem).outcome, ForeignOutcome::Error);
  EXPECT_EQ(buf, std::vector<uint32_t>(8, 0));
}

TEST(Blit, BLIT_FAULT_1_UnmappedRangeIsAPageFaultAndMovesNothing) {
  FlatMemory mem;  // address 0 is its one unmapped address
  CodeObject copy(code_of(BlitKernel::CopyMisaligned));
  std::vector<uint8_t> dst(64, 0);
  const uint64_t d = reinterpret_cast<uintptr_t>(dst.data());
  alignas(16) CopyMisalignedArgs a{0, d, 32, d + 32, 64, d + 64, 64};
  ForeignResult r = run_foreign_kernel(dispatch(copy, &a), mem);
  EXPECT_EQ(r.outcome, ForeignOutcome::Fault);
  EXPECT_EQ(r.address, 0u);
  EXPECT_EQ(dst, std::vector<uint8_t>(64, 0));
  CodeObject fill(code_of(BlitKernel::Fill));
  alignas(16) FillArgs f{0, 0, 8, 1, 64};
  r = run_foreign_kernel(dispatch(fill, &f), mem);
  EXPECT_EQ(r.outcome, ForeignOutcome::Fault);
  EXPECT_EQ(r.address, 0u);
  r = run_foreign_kernel(dispatch(fill, nullptr), mem);  // kernargs not mapped
  EXPECT_EQ(r.outcome, ForeignOutcome::Fault);
  EXPECT_NE(r.what.find("BLIT-FAULT-1: kernarg"), std::string::npos) << r.what;
}

TEST(Blit, BLIT_REC_2_UnknownKernelIsReportedWithItsObjectAndCode) {
  FlatMemory mem;
  CodeObject co({0xBF810000u});  // just s_endpgm
  uint64_t args[4] = {};
  const ForeignResult r = run_foreign_kernel(dispatch(co, args), mem);
  EXPECT_EQ(r.outcome, ForeignOutcome::NotRecognised);
  EXPECT_NE(r.what.find("BLIT-REC-2"), std::string::npos);
  EXPECT_NE(r.what.find("bf810000"), std::string::npos) << r.what;
}

TEST(Blit, BLIT_REC_1_RecognitionAloneMovesNothing) {
  FlatMemory mem;
  CodeObject co(code_of(BlitKernel::Fill));
  std::vector<uint32_t> buf(8, 0);
  const uint64_t s = reinterpret_cast<uintptr_t>(buf.data());
  alignas(16) FillArgs a{s, s, s + 32, 9, 64};
  const ForeignResult r = recognise_foreign_kernel(dispatch(co, &a), mem);
  EXPECT_EQ(r.outcome, ForeignOutcome::Completed);
  EXPECT_EQ(r.kernel, BlitKernel::Fill);
  EXPECT_EQ(buf, std::vector<uint32_t>(8, 0));
}

// BLIT-REC-2: an entry offset that is not a multiple of 4 (a descriptor is user data) is
// read as bytes, copied once, then compared: never a misaligned dword load (UBSan's run
// of this test fails on such a load). Here the Fill prologue starts two bytes in.
TEST(Blit, BLIT_REC_2_MisalignedCodeEntryIsReadAsBytes) {
  FlatMemory mem;
  CodeObject co({});
  const std::vector<uint32_t> fill = code_of(BlitKernel::Fill);
  const int64_t entry = 258;
  std::memcpy(co.bytes.data() + 16, &entry, 8);
  std::memcpy(co.bytes.data() + entry, fill.data(), fill.size() * 4);
  uint64_t args[4] = {};
  const ForeignResult r = recognise_foreign_kernel(dispatch(co, args), mem);
  EXPECT_EQ(r.outcome, ForeignOutcome::Completed);
  EXPECT_EQ(r.kernel, BlitKernel::Fill);
}

TEST(Blit, BLIT_REC_2_NullKernelObjectIsNotRecognised) {
  FlatMemory mem;
  hsa_kernel_dispatch_packet_t p{};
  EXPECT_EQ(run_foreign_kernel(p, mem).outcome, ForeignOutcome::NotRecognised);
}

}  // namespace
}  // namespace rocref::gpu::foreign_blit
