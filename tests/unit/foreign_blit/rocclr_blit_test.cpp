// tests/unit/foreign_blit/rocclr_blit_test.cpp - ROCclr's blit kernels: recognised by their fingerprint, emulated
// exactly.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cstring>
#include <random>
#include <span>
#include <vector>

#include "gpu/foreign_blit/foreign_kernel.h"
#include "gpu/foreign_blit/rocclr_emulation.h"
#include "gpu/foreign_blit/rocclr_kernels.h"

namespace rocref::gpu::foreign_blit {
namespace {

constexpr uint32_t kSNop = 0xBF800000u;
constexpr uint64_t kGuard = 0xEE;

uint64_t addr(const void* p) { return reinterpret_cast<uintptr_t>(p); }
uint64_t align_up(uint64_t v, uint64_t a) { return (v + a - 1) / a * a; }

// Maps only the ranges a test registers, as GPUVM maps only allocations; anything else faults.
class MappedMemory final : public MemoryAccess {
 public:
  void map(const void* p, size_t n) { ranges_.push_back({addr(p), n}); }
  void* translate(uint64_t va, size_t size, Access) noexcept override {
    for (const Range& r : ranges_) {
      if (va >= r.base && size <= r.size && va - r.base <= r.size - size) {
        return reinterpret_cast<void*>(static_cast<uintptr_t>(va));
      }
    }
    ++faults;
    return nullptr;
  }
  int faults = 0;

 private:
  struct Range {
    uint64_t base, size;
  };
  std::vector<Range> ranges_;
};

// A code object v3 kernel descriptor (kernarg_size at byte 8, entry offset 256 at byte 16)
// followed by code that carries `facts` and s_nop everywhere else.
struct CodeObject {
  alignas(256) std::array<uint8_t, 256 + 64 * 4> bytes{};
  CodeObject(uint32_t kernarg_size, const std::vector<CodeFact>& facts) {
    const int64_t entry = 256;
    std::memcpy(bytes.data() + 8, &kernarg_size, 4);
    std::memcpy(bytes.data() + 16, &entry, 8);
    std::vector<uint32_t> code(64, kSNop);
    for (const CodeFact& f : facts) code.at(f.index) = f.value;
    std::memcpy(bytes.data() + 256, code.data(), 64 * 4);
  }
  explicit CodeObject(BlitKernel k) : CodeObject(rocclr_fingerprint(k).kernarg_size, rocclr_fingerprint(k).facts) {}
  uint64_t handle() const { return addr(bytes.data()); }
  const uint32_t* code() const { return reinterpret_cast<const uint32_t*>(bytes.data() + 256); }
};

hsa_kernel_dispatch_packet_t dispatch(const CodeObject& co, const void* kernarg, uint32_t grid_x) {
  hsa_kernel_dispatch_packet_t p{};
  p.setup = 1;
  p.kernel_object = co.handle();
  p.kernarg_address = const_cast<void*>(kernarg);
  p.workgroup_size_x = 256;
  p.workgroup_size_y = p.workgroup_size_z = 1;
  p.grid_size_x = grid_x;
  p.grid_size_y = p.grid_size_z = 1;
  return p;
}

// Runs `k` on `args` with `grid_x` work-items; the code object and the kernargs are mapped.
template <typename Args>
ForeignResult run(MappedMemory& mem, BlitKernel k, const Args& args, uint32_t grid_x) {
  const CodeObject co(k);
  mem.map(co.bytes.data(), co.bytes.size());
  mem.map(&args, sizeof args);
  return run_foreign_kernel(dispatch(co, &args, grid_x), mem);
}

// The dispatch KernelBlitManager::copyBuffer makes for `n` bytes.
ForeignResult copy_as_rocclr(MappedMemory& mem, uint64_t src, uint64_t dst, uint64_t src_origin,
                             uint64_t dst_origin, uint64_t n) {
  const RocclrCopyBufferArgs a{src, dst, src_origin, dst_origin, n / 4 + 1, static_cast<uint32_t>(n % 4), 0, 0};
  return run(mem, BlitKernel::RocclrCopyBuffer, a, static_cast<uint32_t>(align_up(a.size, 256)));
}

// The dispatches KernelBlitManager::fillBuffer1D makes for `n` bytes of the `width`-byte
// `value` at `base + origin`: a head up to 8-byte alignment and a tail in the pattern's own
// width, the body with the pattern expanded to 8 bytes (FillBufferInfo::PackInfo).
std::vector<ForeignResult> fill_as_rocclr(MappedMemory& mem, uint64_t base, uint64_t origin, uint64_t n,
                                          uint64_t value, uint32_t width) {
  const uint64_t at = base + origin;
  const uint64_t head = std::min(align_up(at, 8) - at, n);
  const uint64_t body = (n - head) / 8 * 8, tail = n - head - body;
  uint64_t expanded = 0;
  for (uint32_t i = 0; i < 8; i += width) expanded |= (value & ((~0ull) >> (64 - 8 * width))) << (8 * i);
  std::vector<ForeignResult> out;
  uint64_t offset = origin;
  const struct {
    uint64_t bytes;
    uint32_t pattern_bytes;
    uint64_t pattern;
  } pieces[] = {{head, width, value}, {body, 8, expanded}, {tail, width, value}};
  for (const auto& piece : pieces) {
    if (piece.bytes == 0) continue;
    const uint32_t align = piece.pattern_bytes % 8 == 0 ? 8 : piece.pattern_bytes % 4 == 0 ? 4
                                                         : piece.pattern_bytes % 2 == 0 ? 2
                                                                                        : 1;
    const uint64_t pattern_slot = piece.pattern;  // ROCclr's constant buffer
    mem.map(&pattern_slot, sizeof pattern_slot);
    RocclrFillBufferArgs a{};
    (align == 8 ? a.buf_ulong : align == 4 ? a.buf_uint : align == 2 ? a.buf_ushort : a.buf_uchar) = base;
    a.pattern = addr(&pattern_slot);
    a.pattern_size = piece.pattern_bytes / align;
    a.offset = offset / align;
    a.size = piece.bytes / piece.pattern_bytes;
    offset += piece.bytes;
    out.push_back(run(mem, BlitKernel::RocclrFillBufferAligned, a, static_cast<uint32_t>(align_up(a.size, 256))));
  }
  return out;
}

TEST(RocclrBlit, BLIT_REC_3_FingerprintEncodesTheKernargLoads) {
  // From the gfx900 code Debian's comgr builds: s_load_dwordx2 s[4:5], s[6:7], 0x30 (the global
  // offset) is c0060103 00000030; fill's s_cmp_eq_u64 s[14:15], 0 is bf12800e.
  const RocclrFingerprint copy = rocclr_fingerprint(BlitKernel::RocclrCopyBuffer);
  EXPECT_EQ(copy.kernarg_size, 104u);
  EXPECT_EQ(copy.facts.at(2).value, 0xC0060103u);
  EXPECT_EQ(copy.facts.at(3).value, 0x30u);
  EXPECT_EQ(copy.facts.back().value, 0xBF078810u);  // s_cmp_lg_u32 s16, 8
  const RocclrFingerprint fill = rocclr_fingerprint(BlitKernel::RocclrFillBufferAligned);
  EXPECT_EQ(fill.kernarg_size, 120u);
  EXPECT_EQ(fill.facts.back().value, 0xBF12800Eu);
  size_t last = 0;  // the window recognise_rocclr() needs is exactly the facts'
  for (BlitKernel k : kRocclrKernels) {
    for (const CodeFact& f : rocclr_fingerprint(k).facts) last = std::max<size_t>(last, f.index);
  }
  EXPECT_EQ(last + 1, kRocclrFingerprintDwords);
}

TEST(RocclrBlit, BLIT_REC_3_EachKernelIsRecognisedAsItself) {
  for (BlitKernel k : kRocclrKernels) {
    SCOPED_TRACE(blit_kernel_name(k));
    const CodeObject co(k);
    EXPECT_EQ(recognise_rocclr(rocclr_fingerprint(k).kernarg_size, co.code(), kRocclrFingerprintDwords), k);
    EXPECT_FALSE(recognise(co.code(), kFingerprintDwords));  // no ROCR kernel either
    FlatMemory mem;
    const ForeignResult r = recognise_foreign_kernel(dispatch(co, nullptr, 256), mem);
    EXPECT_EQ(r.outcome, ForeignOutcome::Completed) << r.what;
    EXPECT_EQ(r.kernel, k);
  }
}

TEST(RocclrBlit, BLIT_REC_3_NearMissesAreNotRecognised) {
  for (BlitKernel k : kRocclrKernels) {
    SCOPED_TRACE(blit_kernel_name(k));
    const RocclrFingerprint fp = rocclr_fingerprint(k);
    const CodeObject co(k);
    EXPECT_FALSE(recognise_rocclr(fp.kernarg_size + 8, co.code(), kRocclrFingerprintDwords));
    EXPECT_FALSE(recognise_rocclr(fp.kernarg_size, co.code(), fp.facts.back().index));  // too little code
    for (size_t i = 0; i < fp.facts.size(); ++i) {  // each fact is needed
      std::vector<CodeFact> facts = fp.facts;
      facts[i].value ^= 0x4;
      const CodeObject near(fp.kernarg_size, facts);
      EXPECT_FALSE(recognise_rocclr(fp.kernarg_size, near.code(), kRocclrFingerprintDwords)) << i;
    }
  }
  // copyBuffer's loads with copyBufferAligned's mode test: neither.
  std::vector<CodeFact> mixed = rocclr_fingerprint(BlitKernel::RocclrCopyBuffer).facts;
  mixed.back() = rocclr_fingerprint(BlitKernel::RocclrCopyBufferAligned).facts.back();
  const CodeObject co(104, mixed);
  EXPECT_FALSE(recognise_rocclr(104, co.code(), kRocclrFingerprintDwords));
}

TEST(RocclrBlit, BLIT_REC_2_UnknownKernelWithARocclrKernargSizeIsReported) {
  const CodeObject co(104, {{0, 0xBF810000u}});  // s_endpgm
  MappedMemory mem;
  mem.map(co.bytes.data(), co.bytes.size());
  uint64_t args[16] = {};
  mem.map(args, sizeof args);
  const ForeignResult r = run_foreign_kernel(dispatch(co, args, 256), mem);
  EXPECT_EQ(r.outcome, ForeignOutcome::NotRecognised);
  EXPECT_NE(r.what.find("BLIT-REC-2"), std::string::npos);
  EXPECT_NE(r.what.find(hex_address(co.handle())), std::string::npos) << r.what;
  EXPECT_NE(r.what.find("bf810000"), std::string::npos) << r.what;
}

TEST(RocclrBlit, BLIT_COPY_2_CopyBufferMovesExactlyTheBytes) {
  const std::vector<uint8_t> src_init = [] {
    std::vector<uint8_t> v(13000);
    for (size_t i = 0; i < v.size(); ++i) v[i] = static_cast<uint8_t>(i * 31 + 7);
    return v;
  }();
  for (uint64_t n : {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 63, 64, 65, 1023, 1024, 1025, 12305}) {
    for (auto [so, dof] : {std::pair<uint64_t, uint64_t>{0, 0}, {1, 0}, {0, 3}, {5, 2}, {3, 3}, {64, 17}}) {
      SCOPED_TRACE(::testing::Message() << "n=" << n << " src+" << so << " dst+" << dof);
      std::vector<uint8_t> src = src_init, dst(13000, kGuard);
      MappedMemory mem;
      mem.map(src.data(), src.size());
      mem.map(dst.data(), dst.size());
      const ForeignResult r = copy_as_rocclr(mem, addr(src.data()), addr(dst.data()), so, dof, n);
      ASSERT_EQ(r.outcome, ForeignOutcome::Completed) << r.what;
      EXPECT_EQ(r.kernel, BlitKernel::RocclrCopyBuffer);
      EXPECT_EQ(r.bytes, n);
      for (uint64_t i = 0; i < dst.size(); ++i) {
        const uint8_t want = i >= dof && i < dof + n ? src[so + i - dof] : kGuard;
        ASSERT_EQ(dst[i], want) << i;
      }
      EXPECT_EQ(src, src_init);
      EXPECT_EQ(mem.faults, 0);
    }
  }
}

TEST(RocclrBlit, BLIT_COPY_2_BytewiseModeCopiesOneBytePerWorkItem) {
  std::vector<uint8_t> src(64), dst(64, kGuard);
  for (size_t i = 0; i < 64; ++i) src[i] = static_cast<uint8_t>(i + 1);
  MappedMemory mem;
  mem.map(src.data(), 64);
  mem.map(dst.data(), 64);
  const RocclrCopyBufferArgs a{addr(src.data()), addr(dst.data()), 2, 5, 11, kCopyBytewise, 0, 0};
  const ForeignResult r = run(mem, BlitKernel::RocclrCopyBuffer, a, 256);
  ASSERT_EQ(r.outcome, ForeignOutcome::Completed) << r.what;
  EXPECT_EQ(r.bytes, 11u);
  for (size_t i = 0; i < 64; ++i) EXPECT_EQ(dst[i], i >= 5 && i < 16 ? src[i - 3] : kGuard) << i;
}

TEST(RocclrBlit, BLIT_COPY_3_CopyBufferAlignedMovesWholeElements) {
  for (uint32_t alignment : {16u, 4u, 0u, 8u}) {  // 16: 16-byte elements; anything else: 4
    SCOPED_TRACE(alignment);
    const uint64_t width = alignment == 16 ? 16 : 4;
    std::vector<uint8_t> src(1024), dst(1024, kGuard);
    for (size_t i = 0; i < src.size(); ++i) src[i] = static_cast<uint8_t>(i * 7 + 1);
    MappedMemory mem;
    mem.map(src.data(), src.size());
    mem.map(dst.data(), dst.size());
    const RocclrCopyBufferAlignedArgs a{addr(src.data()), addr(dst.data()), 3, 1, 21, alignment, 0, 0};
    const ForeignResult r = run(mem, BlitKernel::RocclrCopyBufferAligned, a, 256);
    ASSERT_EQ(r.outcome, ForeignOutcome::Completed) << r.what;
    EXPECT_EQ(r.bytes, 21 * width);
    for (uint64_t i = 0; i < dst.size(); ++i) {
      const bool in = i >= width && i < width * 22;
      ASSERT_EQ(dst[i], in ? src[i + 2 * width] : kGuard) << i;
    }
  }
}

TEST(RocclrBlit, BLIT_FILL_2_MemsetAsRocclrSplitsItFillsExactlyTheRange) {
  struct Case {
    uint64_t origin, n, value;
    uint32_t width;
  };
  const Case cases[] = {{0, 10000, 0xab, 1}, {10, 6, 0x11, 1},   {3, 1000, 0xc3, 1}, {1, 1, 0x7e, 1},
                        {5, 8, 0x42, 1},     {0, 7, 0x99, 1},    {2, 64, 0xbeef, 2}, {6, 30, 0x1234, 2},
                        {4, 404, 0x01020304, 4}, {0, 28, 0xdeadbeef, 4}, {12, 4, 0xcafef00d, 4}};
  for (const Case& c : cases) {
    SCOPED_TRACE(::testing::Message() << "origin=" << c.origin << " n=" << c.n << " width=" << c.width);
    std::vector<uint64_t> storage(1280);  // 8-byte aligned
    const std::span<uint8_t> buf(reinterpret_cast<uint8_t*>(storage.data()), storage.size() * 8);
    std::fill(buf.begin(), buf.end(), kGuard);
    MappedMemory mem;
    mem.map(buf.data() + 8, buf.size() - 16);
    const uint64_t base = addr(buf.data()) + 8;
    for (const ForeignResult& r : fill_as_rocclr(mem, base, c.origin, c.n, c.value, c.width)) {
      ASSERT_EQ(r.outcome, ForeignOutcome::Completed) << r.what;
      EXPECT_EQ(r.kernel, BlitKernel::RocclrFillBufferAligned);
    }
    for (uint64_t i = 0; i < buf.size(); ++i) {
      const uint64_t at = i - 8;  // offset from base
      const bool in = i >= 8 && at >= c.origin && at < c.origin + c.n;
      const uint8_t want = in ? static_cast<uint8_t>(c.value >> (8 * ((at - c.origin) % c.width))) : kGuard;
      ASSERT_EQ(buf[i], want) << i;
    }
    EXPECT_EQ(mem.faults, 0);
  }
}

TEST(RocclrBlit, BLIT_FILL_2_PatternOfSeveralElementsRepeatsFromTheOffset) {
  std::vector<uint32_t> buf(64, 0);
  const uint32_t pattern[3] = {0xa, 0xb, 0xc};
  MappedMemory mem;
  mem.map(buf.data(), buf.size() * 4);
  mem.map(pattern, sizeof pattern);
  RocclrFillBufferArgs a{};
  a.buf_uint = addr(buf.data());
  a.buf_uchar = addr(buf.data());  // ignored: a wider buffer is set
  a.pattern = addr(pattern);
  a.pattern_size = 3;
  a.offset = 5;
  a.size = 4;
  const ForeignResult r = run(mem, BlitKernel::RocclrFillBufferAligned, a, 256);
  ASSERT_EQ(r.outcome, ForeignOutcome::Completed) << r.what;
  EXPECT_EQ(r.bytes, 48u);
  for (size_t i = 0; i < buf.size(); ++i) EXPECT_EQ(buf[i], i >= 5 && i < 17 ? pattern[(i - 5) % 3] : 0u) << i;
}

TEST(RocclrBlit, BLIT_FILL_2_WidestNonNullBufferIsWritten) {
  std::vector<uint64_t> wide(8, 0);
  std::vector<uint32_t> narrow(8, 0);
  const uint64_t pattern = 0x1122334455667788ull;
  MappedMemory mem;
  mem.map(wide.data(), 64);
  mem.map(narrow.data(), 32);
  mem.map(&pattern, 8);
  RocclrFillBufferArgs a{};
  a.buf_ulong = addr(wide.data());
  a.buf_uint = addr(narrow.data());
  a.pattern = addr(&pattern);
  a.pattern_size = 1;
  a.size = 8;
  ASSERT_EQ(run(mem, BlitKernel::RocclrFillBufferAligned, a, 8).outcome, ForeignOutcome::Completed);
  EXPECT_EQ(wide, std::vector<uint64_t>(8, pattern));
  EXPECT_EQ(narrow, std::vector<uint32_t>(8, 0));
}

TEST(RocclrBlit, BLIT_ARG_2_GridAndGlobalOffsetChooseTheWorkItemsThatAct) {
  EXPECT_EQ(active_ids(0, 256, 1001)->hi, 256u);
  EXPECT_EQ(active_ids(0, 1001, 1001)->hi, 1001u);
  EXPECT_EQ(active_ids(0, 1002, 1001)->hi, 1001u);  // the last id, 1001, is not below size
  EXPECT_EQ(active_ids(1000, 256, 1001)->lo, 1000u);
  EXPECT_EQ(active_ids(1000, 256, 1001)->hi, 1001u);
  EXPECT_EQ(active_ids(2000, 256, 1001)->hi - active_ids(2000, 256, 1001)->lo, 0u);
  EXPECT_EQ(active_ids(~0ull, 1, ~0ull)->hi - active_ids(~0ull, 1, ~0ull)->lo, 0u);  // id 2^64-1 is not < size
  EXPECT_TRUE(active_ids(~0ull - 255, 256, 10));  // the last id is 2^64 - 1: no wrap
  EXPECT_FALSE(active_ids(~0ull - 254, 256, 10));  // wraps past 2^64
  struct Run {
    uint64_t global_offset;
    uint32_t grid;
    uint64_t first, bytes;  // what moves, of 4000 bytes (size 1001, remain 0)
  };
  for (const Run& run_case : {Run{0, 256, 0, 1024}, Run{256, 256, 1024, 1024}, Run{768, 512, 3072, 928},
                              Run{1000, 256, 0, 0}, Run{0, 4096, 0, 4000}, Run{0, 1002, 0, 4000},
                              Run{0, 1000, 0, 4000}}) {
    SCOPED_TRACE(::testing::Message() << "offset=" << run_case.global_offset << " grid=" << run_case.grid);
    std::vector<uint8_t> src(4000), dst(4000, kGuard);
    for (size_t i = 0; i < src.size(); ++i) src[i] = static_cast<uint8_t>(i % 251);
    MappedMemory mem;
    mem.map(src.data(), src.size());
    mem.map(dst.data(), dst.size());
    const RocclrCopyBufferArgs a{addr(src.data()), addr(dst.data()), 0, 0, 1001, 0, 0, run_case.global_offset};
    const ForeignResult r = run(mem, BlitKernel::RocclrCopyBuffer, a, run_case.grid);
    ASSERT_EQ(r.outcome, ForeignOutcome::Completed) << r.what;
    EXPECT_EQ(r.bytes, run_case.bytes);
    for (uint64_t i = 0; i < dst.size(); ++i) {
      const bool in = i >= run_case.first && i < run_case.first + run_case.bytes;
      ASSERT_EQ(dst[i], in ? src[i] : kGuard) << i;
    }
  }
  // Wrapping ids: an error, and nothing moves.
  std::vector<uint8_t> src(64, 1), dst(64, kGuard);
  MappedMemory mem;
  mem.map(src.data(), 64);
  mem.map(dst.data(), 64);
  const RocclrCopyBufferArgs a{addr(src.data()), addr(dst.data()), 0, 0, 17, 0, 0, ~0ull - 10};
  const ForeignResult r = run(mem, BlitKernel::RocclrCopyBuffer, a, 256);
  EXPECT_EQ(r.outcome, ForeignOutcome::Error);
  EXPECT_NE(r.what.find("BLIT-ARG-2"), std::string::npos) << r.what;
  EXPECT_EQ(dst, std::vector<uint8_t>(64, kGuard));
}

TEST(RocclrBlit, BLIT_FAULT_1_UnmappedRangesAreAPageFaultAndMoveNothing) {
  std::vector<uint8_t> src(256, 1), dst(256, kGuard);
  const uint64_t s = addr(src.data()), d = addr(dst.data());
  {  // source one byte short
    MappedMemory mem;
    mem.map(src.data(), 99);
    mem.map(dst.data(), 256);
    const ForeignResult r = copy_as_rocclr(mem, s, d, 0, 0, 100);
    EXPECT_EQ(r.outcome, ForeignOutcome::Fault);
    EXPECT_EQ(r.address, s);
    EXPECT_NE(r.what.find("BLIT-FAULT-1: source"), std::string::npos) << r.what;
    EXPECT_EQ(mem.faults, 1);
  }
  {  // destination past its mapping, by an origin
    MappedMemory mem;
    mem.map(src.data(), 256);
    mem.map(dst.data(), 256);
    const ForeignResult r = copy_as_rocclr(mem, s, d, 0, 200, 57);
    EXPECT_EQ(r.outcome, ForeignOutcome::Fault);
    EXPECT_EQ(r.address, d + 200);
  }
  {  // aligned copy with an origin out of range
    MappedMemory mem;
    mem.map(src.data(), 256);
    mem.map(dst.data(), 256);
    const RocclrCopyBufferAlignedArgs a{s, d, 1ull << 40, 0, 4, 16, 0, 0};
    EXPECT_EQ(run(mem, BlitKernel::RocclrCopyBufferAligned, a, 256).outcome, ForeignOutcome::Fault);
  }
  {  // kernargs not mapped
    MappedMemory mem;
    const CodeObject co(BlitKernel::RocclrCopyBuffer);
    mem.map(co.bytes.data(), co.bytes.size());
    const RocclrCopyBufferArgs a{s, d, 0, 0, 3, 0, 0, 0};
    const ForeignResult r = run_foreign_kernel(dispatch(co, &a, 256), mem);
    EXPECT_EQ(r.outcome, ForeignOutcome::Fault);
    EXPECT_EQ(r.address, addr(&a));
  }
  const uint64_t pattern = 0x0101010101010101ull;
  RocclrFillBufferArgs f{};
  f.buf_ulong = d;
  f.pattern = addr(&pattern);
  f.pattern_size = 1;
  f.size = 33;  // one ulong past the 256 bytes
  {
    MappedMemory mem;
    mem.map(dst.data(), 256);
    mem.map(&pattern, 8);
    const ForeignResult r = run(mem, BlitKernel::RocclrFillBufferAligned, f, 256);
    EXPECT_EQ(r.outcome, ForeignOutcome::Fault);
    EXPECT_EQ(r.address, d);
  }
  {  // the pattern not mapped
    MappedMemory mem;
    mem.map(dst.data(), 256);
    f.size = 32;
    const ForeignResult r = run(mem, BlitKernel::RocclrFillBufferAligned, f, 256);
    EXPECT_EQ(r.outcome, ForeignOutcome::Fault);
    EXPECT_EQ(r.address, f.pattern);
  }
  {  // ROCclr 5.2.3's memset body after its size underflowed (a fill shorter than its head)
    MappedMemory mem;
    mem.map(dst.data(), 256);
    mem.map(&pattern, 8);
    f.size = (1ull << 61) - 1;
    const ForeignResult r = run(mem, BlitKernel::RocclrFillBufferAligned, f, 0xffffff00u);
    EXPECT_EQ(r.outcome, ForeignOutcome::Fault);
    EXPECT_EQ(r.address, d);
    EXPECT_EQ(mem.faults, 1);
  }
  {  // longer than the address space
    MappedMemory mem;
    mem.map(dst.data(), 256);
    mem.map(&pattern, 8);
    f.pattern_size = 0xffffffffu;
    const ForeignResult r = run(mem, BlitKernel::RocclrFillBufferAligned, f, 0xffffff00u);
    EXPECT_EQ(r.outcome, ForeignOutcome::Fault);
    EXPECT_EQ(mem.faults, 1);
  }
  EXPECT_EQ(dst, std::vector<uint8_t>(256, kGuard));
}

TEST(RocclrBlit, BLIT_ARG_2_MalformedKernargsNeverCrashTheModel) {
  // A mapped window inside a larger buffer: whatever the kernargs say, the bytes around it stay.
  std::vector<uint8_t> buf(8192, kGuard);
  uint8_t* window = buf.data() + 2048;
  const uint64_t w = addr(window);
  std::mt19937_64 rng(20240523);
  const auto pick = [&]() -> uint64_t {
    const uint64_t interesting[] = {0, 1, 2, 3, 4, 7, 8, 16, 255, 256, 4095, 1ull << 32, (1ull << 32) - 1,
                                    1ull << 63, ~0ull, ~0ull - 7, w, w + 1, w + 4000, w - 1, w + 4096};
    switch (rng() % 4) {
      case 0: return interesting[rng() % std::size(interesting)];
      case 1: return rng() % 64;
      case 2: return w + rng() % 4096;
      default: return rng();
    }
  };
  int outcomes[4] = {}, moved = 0;
  for (int i = 0; i < 20000; ++i) {
    MappedMemory mem;
    mem.map(window, 4096);
    uint64_t args[16];  // more than the longest layout
    for (uint64_t& a : args) a = pick();
    const uint32_t grids[] = {1, 2, 255, 256, 257, 0xffffffffu, static_cast<uint32_t>(rng())};
    const uint32_t grid = grids[rng() % std::size(grids)];
    const BlitKernel k = kRocclrKernels[rng() % std::size(kRocclrKernels)];
    const CodeObject co(k);
    mem.map(co.bytes.data(), co.bytes.size());
    mem.map(args, sizeof args);
    const ForeignResult r = run_foreign_kernel(dispatch(co, args, grid), mem);
    ASSERT_NE(r.outcome, ForeignOutcome::NotRecognised) << r.what;
    ++outcomes[static_cast<size_t>(r.outcome)];
    if (r.outcome == ForeignOutcome::Completed) {
      ASSERT_LE(r.bytes, 4096u);
      if (r.bytes != 0) ++moved;
    }
    if (r.outcome == ForeignOutcome::Fault) {
      ASSERT_GE(mem.faults, 1);
    }
  }
  // Every outcome occurs, and some dispatches do move data.
  EXPECT_GT(outcomes[static_cast<size_t>(ForeignOutcome::Completed)], 100);
  EXPECT_GT(outcomes[static_cast<size_t>(ForeignOutcome::Error)], 10);
  EXPECT_GT(outcomes[static_cast<size_t>(ForeignOutcome::Fault)], 100);
  EXPECT_GT(moved, 10);
  for (size_t i = 0; i < 2048; ++i) ASSERT_EQ(buf[i], kGuard) << i;
  for (size_t i = 2048 + 4096; i < buf.size(); ++i) ASSERT_EQ(buf[i], kGuard) << i;
}

}  // namespace
}  // namespace rocref::gpu::foreign_blit
