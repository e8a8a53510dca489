// tests/unit/isa/isa_semantics_test.cpp - hipcc-built gfx900 kernels run by the interpreter vs their host twins.
//
// ISA-SEM-1: random inputs (RapidCheck), results equal (integers exactly,
// IEEE-rounded floats bit-exactly, expressions with a division within the ISA's
// bounds). ISA-BAR-1, ISA-MEM-3, ISA-DISP-2: reduction with LDS and barriers,
// atomics, the work-item ids. ISA-ERR-1/2, ISA-MEM-1: illegal and unimplemented
// instructions, s_trap and a bad address end the dispatch with the real status.
// Every planted interpreter bug (isa_mutant.h) must make one of these fail.
#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include <sys/mman.h>

#include <atomic>
#include <bit>
#include <cmath>
#include <cstring>
#include <vector>

#include "code_object.h"
#include "gpu/isa/dispatch.h"
#include "gpu/isa/isa_mutant.h"
#include "gpu/isa/kernel_descriptor.h"

namespace rocref::gpu::isa {
namespace {

using test::CodeObject;

const CodeObject& o2() { static const CodeObject co(ROCREF_ISA_KERNELS_O2); return co; }
const CodeObject& o0() { static const CodeObject co(ROCREF_ISA_KERNELS_O0); return co; }

// GPU memory for the tests: only the ranges a test registered (Allow), the code objects,
// and the dispatch's own packet and kernarg translate; anything else is a page fault,
// so a wrong address (a planted bug) fails the dispatch instead of touching host memory.
struct Range { uint64_t lo, hi; };
std::vector<Range>& allowed() { static std::vector<Range> ranges; return ranges; }

struct Allow {
  template <typename T>
  explicit Allow(const std::vector<T>& v) : Allow(v.data(), v.size() * sizeof(T)) {}
  Allow(const void* p, size_t bytes) {
    const auto lo = reinterpret_cast<uintptr_t>(p);
    allowed().push_back({lo, lo + bytes});
  }
  ~Allow() { allowed().pop_back(); }
  Allow(const Allow&) = delete;
  Allow& operator=(const Allow&) = delete;
};

// Translations refused (each a page fault the real VM would report to the KFD).
std::atomic<int>& refused() {
  static std::atomic<int> count{0};
  return count;
}  // counted by every worker

class TestMemory final : public MemoryAccess {
 public:
  void* translate(uint64_t va, size_t size, Access) noexcept override {
    if (va != 0 && va + size >= va) {
      for (const Range& r : allowed()) {
        if (va >= r.lo && va + size <= r.hi) return reinterpret_cast<void*>(static_cast<uintptr_t>(va));
      }
    }
    ++refused();
    return nullptr;
  }
};

const test::CodeObject& o2();
const test::CodeObject& o0();

struct Result {
  std::optional<PacketFault> fault;
  IsaStats stats;
};

// Dispatches `ko` over a 1-D grid of whole work-groups covering `items`, as hipLaunchKernelGGL does
// (HIP's blockDim is the OpenCL local size, which a partial work-group would shrink), with the
// kernarg bytes of `args` and the segment sizes from the descriptor, as ROCR does.
template <typename Args>
Result launch(uint64_t ko, const Args& args, uint32_t items, uint16_t wg, unsigned workers = 0) {
  const uint32_t grid = (items + wg - 1) / wg * wg;
  TestMemory memory;
  alignas(64) uint8_t kernarg[256] = {};
  const Allow code2(reinterpret_cast<const void*>(static_cast<uintptr_t>(o2().base())), o2().size());
  const Allow code0(reinterpret_cast<const void*>(static_cast<uintptr_t>(o0().base())), o0().size());
  const Allow kernarg_segment(kernarg, sizeof kernarg);
  static_assert(sizeof(Args) <= sizeof kernarg);
  std::memcpy(kernarg, &args, sizeof args);
  hsa_kernel_dispatch_packet_t p = rocref::test::one_dimension_dispatch(ko, kernarg, grid, wg);
  Result r;
  const IsaDispatch d{&p, reinterpret_cast<uintptr_t>(&p), 0, 1, &memory, nullptr, workers};
  r.fault = run_isa_dispatch(d, &r.stats);
  return r;
}

uint64_t kernel(const CodeObject& co, const char* name) {
  const uint64_t ko = co.kernel_object(name);
  RC_ASSERT(ko != 0u);
  return ko;
}

template <typename T>
uint64_t addr(const std::vector<T>& v) { return reinterpret_cast<uintptr_t>(v.data()); }

// ISA-TRACE-1: instructions LLVM's disassembler lists for `kernel` up to its first s_endpgm (all, and scalar).
struct Listing {
  uint64_t all = 0, scalar = 0;
  bool straight = true;
};
Listing disassembly(const char* path, const char* kernel) {
  Listing l;
#ifdef ROCREF_LLVM_OBJDUMP
  const std::string cmd = std::string(ROCREF_LLVM_OBJDUMP) + " -d --mcpu=gfx900 " + path;
  FILE* f = popen(cmd.c_str(), "r");
  if (f == nullptr) return {};
  char line[512];
  bool in = false, done = false;
  const std::string head = std::string("<") + kernel + ">:";
  while (std::fgets(line, sizeof line, f) != nullptr) {
    const std::string s(line);
    if (!in) {
      in = s.find(head) != std::string::npos;
      continue;
    }
    if (done) continue;
    const size_t p = s.find_first_not_of(" \t");
    if (p == std::string::npos || s[p] == '/' || s.find("<") == 0) continue;
    ++l.all;
    l.scalar += s.compare(p, 2, "s_") == 0;
    if (s.compare(p, 10, "s_cbranch_") == 0 || s.compare(p, 8, "s_branch") == 0) {
      l.straight &= s.find("execz") != std::string::npos;  // skipped only when no lane is active
    }
    done = s.compare(p, 8, "s_endpgm") == 0;
  }
  pclose(f);
#else
  (void)path;
  (void)kernel;
#endif
  return l;
}

#ifdef ROCREF_ISA_MUTANTS
struct Mutant {
  explicit Mutant(IsaMutant m) : m_(m) { set_isa_mutant(m_, true); }
  ~Mutant() { set_isa_mutant(m_, false); }
  IsaMutant m_;
};
#endif

TEST(IsaSemantics, CodeObjectsLoad) {
  ASSERT_TRUE(o2().ok()) << o2().error();
  ASSERT_TRUE(o0().ok()) << o0().error();
  EXPECT_NE(o2().kernel_object("vadd"), 0u);
}

// --- the kernels, each as a check returning whether device == host ---

bool check_vadd(const std::vector<float>& a, const std::vector<float>& b) {
  const int n = static_cast<int>(a.size());
  std::vector<float> c(n + 64, -1.0f);
  const Allow ga(a), gb(b), gc(c);
  struct { uint64_t a, b, c; int n; } args{addr(a), addr(b), addr(c), n};
  const Result r = launch(kernel(o2(), "vadd"), args, static_cast<uint32_t>(n), 64);
  if (r.fault) return false;
  for (int i = 0; i < n; ++i) {
    if (std::memcmp(&c[i], &(const float&)(a[i] + b[i]), 4) != 0) return false;
  }
  for (int i = n; i < n + 64; ++i) {
    if (c[i] != -1.0f) return false;  // nothing past n is written
  }
  return true;
}

bool check_reduce(const std::vector<int>& in) {
  const int n = static_cast<int>(in.size());
  const int blocks = (n + 255) / 256;
  std::vector<int> out(blocks, 0);
  const Allow gi(in), go(out);
  struct { uint64_t in, out; int n; } args{addr(in), addr(out), n};
  if (launch(kernel(o2(), "reduce"), args, static_cast<uint32_t>(blocks * 256), 256).fault) return false;
  for (int b = 0; b < blocks; ++b) {
    int sum = 0;
    for (int i = b * 256; i < std::min(n, (b + 1) * 256); ++i) sum += in[i];
    if (out[b] != sum) return false;
  }
  return true;
}

// ISA-DISP-3: a work-group spinning on a flag lets the work-group that sets it run.
bool check_cross_group(uint32_t blocks) {
  std::vector<unsigned> flag(1, 0), out(2, 0);
  const Allow gf(flag), go(out);
  struct {
    uint64_t flag, out;
    unsigned spins;
  } args{addr(flag), addr(out), 1u << 20};
  // One worker: the resident work-groups of ISA-DISP-3 alone must let the last one run (several
  // workers would run them side by side anyway).
  if (launch(kernel(o2(), "cross_group_flag"), args, blocks * 64, 64, 1).fault) return false;
  return out[0] == 1 && out[1] == blocks;
}

bool check_divergent(const std::vector<int>& in) {
  const int n = static_cast<int>(in.size());
  std::vector<int> out(n, 0);
  const Allow gi(in), go(out);
  struct { uint64_t in, out; int n; } args{addr(in), addr(out), n};
  if (launch(kernel(o2(), "divergent"), args, static_cast<uint32_t>(n), 128).fault) return false;
  for (int i = 0; i < n; ++i) {
    int v = in[i], r;
    if (v & 1) r = v * 3 + 1;
    else if (v % 3 == 0) r = v / 3;
    else r = -v;
    int steps = 0;
    while (v > 1 && steps < 100) { v = (v & 1) ? 3 * v + 1 : v / 2; ++steps; }
    if (out[i] != r + steps) return false;
  }
  return true;
}

// Memory that straddles a 4 GiB boundary (512 bytes below it), so 64-bit address sums carry
// out of the low dword (v_add_co_u32 / v_addc_co_u32); a plain vector where mmap refuses.
// Candidate boundaries lie in application memory of plain, ASan and TSan builds alike.
struct Straddling {
  static constexpr uint64_t kBelow = 512, kBytes = 64 * 1024;
  void* map = MAP_FAILED;
  uint64_t boundary = 0;
  std::vector<int64_t> fallback;
  int64_t* data = nullptr;
  explicit Straddling(size_t count) {
    static constexpr uint64_t kCandidates[] = {uint64_t{1} << 36, 0x7e9000000000ull, 0x560000000000ull};
    for (uint64_t b : kCandidates) {
      if (count * 8 + 4096 > kBytes) break;
      void* want = reinterpret_cast<void*>(b - 4096);
      void* got = mmap(want, kBytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
      if (got == want) { map = got; boundary = b; break; }
      if (got != MAP_FAILED) munmap(got, kBytes);
    }
    if (map != MAP_FAILED) {
      data = reinterpret_cast<int64_t*>(boundary - kBelow);
    } else {
      fallback.assign(count, 0);
      data = fallback.data();
    }
  }
  ~Straddling() { if (map != MAP_FAILED) munmap(map, kBytes); }
  Straddling(const Straddling&) = delete;
  Straddling& operator=(const Straddling&) = delete;
  bool straddles() const { return map != MAP_FAILED; }
};

bool check_addr64(const std::vector<int64_t>& in, int64_t stride) {
  const int n = static_cast<int>(in.size());
  Straddling buffer(static_cast<size_t>(n) * stride);
  int64_t* out = buffer.data;
  std::memset(out, 0, static_cast<size_t>(n) * stride * 8);
  const Allow gi(in), go(out, static_cast<size_t>(n) * stride * 8);
  struct { uint64_t in, out; int64_t stride; int n; } args{addr(in), reinterpret_cast<uintptr_t>(out), stride, n};
  if (launch(kernel(o2(), "addr64"), args, static_cast<uint32_t>(n), 64).fault) return false;
  for (int64_t i = 0; i < n; ++i) {
    const int64_t expect = static_cast<int64_t>(static_cast<uint64_t>(in[i]) * 3 + static_cast<uint64_t>(in[i] >> 7) -
                                                static_cast<uint64_t>(i));
    if (out[i * stride] != expect) return false;
  }
  return true;
}

// --- hipcc kernels that use VOP3P, SDWA and DPP ---

using Half = _Float16;
uint16_t half_round(__float128 exact) { return std::bit_cast<uint16_t>(static_cast<Half>(exact)); }
__float128 half_q(uint16_t h) { return static_cast<__float128>(static_cast<double>(std::bit_cast<Half>(h))); }

// Two finite binary16 values per dword.
rc::Gen<uint32_t> finite_half_pairs() {
  auto half = rc::gen::map(rc::gen::pair(rc::gen::inRange<uint32_t>(0, 31), rc::gen::inRange<uint32_t>(0, 0x800)),
                           [](std::pair<uint32_t, uint32_t> p) { return (p.second & 0x400) << 5 | p.first << 10 | (p.second & 0x3ff); });
  return rc::gen::map(rc::gen::pair(half, half), [](std::pair<uint32_t, uint32_t> p) { return p.first | p.second << 16; });
}

// The kernel's two packed fmas and the add, each half rounded once (IEEE binary16).
bool check_half2(const std::vector<uint32_t>& a, const std::vector<uint32_t>& b, const std::vector<uint32_t>& c) {
  const int n = static_cast<int>(a.size());
  std::vector<uint32_t> out(n, 0);
  const Allow ga(a), gb(b), gc(c), go(out);
  struct { uint64_t a, b, c, out; int n; } args{addr(a), addr(b), addr(c), addr(out), n};
  if (launch(kernel(o2(), "half2_math"), args, static_cast<uint32_t>(n), 64).fault) return false;
  for (int i = 0; i < n; ++i) {
    auto lo = [](uint32_t v) { return static_cast<uint16_t>(v); };
    auto hi = [](uint32_t v) { return static_cast<uint16_t>(v >> 16); };
    const uint16_t r1[2] = {half_round(half_q(lo(a[i])) * half_q(lo(b[i])) + half_q(lo(c[i]))),
                            half_round(half_q(hi(a[i])) * half_q(hi(b[i])) + half_q(hi(c[i])))};
    const uint16_t r2[2] = {half_round(-half_q(lo(a[i])) * half_q(hi(c[i])) + half_q(r1[0])),  // contracted __hsub2(.., __hmul2)
                            half_round(-half_q(hi(a[i])) * half_q(lo(c[i])) + half_q(r1[1]))};
    const uint16_t r3[2] = {half_round(half_q(r2[0]) + half_q(lo(b[i]))), half_round(half_q(r2[1]) + half_q(lo(b[i])))};
    if (out[i] != (uint32_t{r3[0]} | uint32_t{r3[1]} << 16)) return false;
  }
  return true;
}

bool check_short2(const std::vector<uint32_t>& a, const std::vector<uint32_t>& b) {
  const int n = static_cast<int>(a.size());
  std::vector<uint32_t> out(n, 0);
  const Allow ga(a), gb(b), go(out);
  struct { uint64_t a, b, out; int n; } args{addr(a), addr(b), addr(out), n};
  if (launch(kernel(o2(), "short2_math"), args, static_cast<uint32_t>(n), 64).fault) return false;
  for (int i = 0; i < n; ++i) {
    const auto xx = static_cast<int16_t>(a[i]), xy = static_cast<int16_t>(a[i] >> 16);
    const auto yx = static_cast<int16_t>(b[i]), yy = static_cast<int16_t>(b[i] >> 16);
    const auto rx = static_cast<uint16_t>(xx * yx + xy), ry = static_cast<uint16_t>(xy * yy + yx);
    if (out[i] != (uint32_t{rx} | uint32_t{ry} << 16)) return false;
  }
  return true;
}

bool check_bytes(const std::vector<uint32_t>& in) {
  const int n = static_cast<int>(in.size());
  std::vector<uint32_t> out(n, 0);
  const Allow gi(in), go(out);
  struct { uint64_t in, out; int n; } args{addr(in), addr(out), n};
  if (launch(kernel(o2(), "bytes"), args, static_cast<uint32_t>(n), 64).fault) return false;
  for (int i = 0; i < n; ++i) {
    const uint32_t v = in[i];
    const uint32_t b0 = v & 0xff, b1 = (v >> 8) & 0xff, b2 = (v >> 16) & 0xff, b3 = v >> 24;
    const int32_t s2 = static_cast<int8_t>(v >> 16), w1 = static_cast<int16_t>(v >> 16);
    const uint32_t expect = b0 * b1 + (b2 ^ b3) * 3u + static_cast<uint32_t>(s2) * static_cast<uint32_t>(w1) + b3 * (v & 0xffff);
    if (out[i] != expect) return false;
  }
  return true;
}

bool check_dpp_scan(const std::vector<int>& in, uint16_t wg) {
  const int n = static_cast<int>(in.size());
  std::vector<int> out(n, 0);
  const Allow gi(in), go(out);
  struct { uint64_t in, out; int n; } args{addr(in), addr(out), n};
  if (launch(kernel(o2(), "dpp_scan"), args, static_cast<uint32_t>(n), wg).fault) return false;
  uint32_t sum = 0;
  for (int i = 0; i < n; ++i) {
    sum = (i % 64 == 0 ? 0u : sum) + static_cast<uint32_t>(in[i]);  // inclusive, per wave of 64
    if (static_cast<uint32_t>(out[i]) != sum) return false;
  }
  return true;
}

// covers: ISA-EXEC-6
RC_GTEST_PROP(IsaSemantics, ISA_SEM_1_PackedHalfMathRoundsOnce, ()) {
  const int n = *rc::gen::inRange(1, 300);
  const auto a = *rc::gen::container<std::vector<uint32_t>>(n, finite_half_pairs());
  const auto b = *rc::gen::container<std::vector<uint32_t>>(n, finite_half_pairs());
  const auto c = *rc::gen::container<std::vector<uint32_t>>(n, finite_half_pairs());
  RC_ASSERT(check_half2(a, b, c));
}

// covers: ISA-EXEC-6, ISA-EXEC-7
RC_GTEST_PROP(IsaSemantics, ISA_SEM_1_PackedShortsAndByteSelects, ()) {
  const int n = *rc::gen::inRange(1, 300);
  const auto a = *rc::gen::container<std::vector<uint32_t>>(n, rc::gen::arbitrary<uint32_t>());
  const auto b = *rc::gen::container<std::vector<uint32_t>>(n, rc::gen::arbitrary<uint32_t>());
  RC_ASSERT(check_short2(a, b));
  RC_ASSERT(check_bytes(a));
}

// covers: ISA-EXEC-8
RC_GTEST_PROP(IsaSemantics, ISA_SEM_1_DppWavePrefixSum, ()) {
  const int n = *rc::gen::inRange(1, 600);
  const auto in = *rc::gen::container<std::vector<int>>(n, rc::gen::arbitrary<int>());
  RC_ASSERT(check_dpp_scan(in, *rc::gen::element<uint16_t>(64, 128, 256)));
}

// covers: ISA-EXEC-4
RC_GTEST_PROP(IsaSemantics, ISA_SEM_1_VectorAddIsBitExact, ()) {
  const int n = *rc::gen::inRange(1, 700);
  const auto a = *rc::gen::container<std::vector<float>>(n, rc::gen::map(rc::gen::arbitrary<int>(), [](int v) { return v / 7.0f; }));
  const auto b = *rc::gen::container<std::vector<float>>(n, rc::gen::map(rc::gen::arbitrary<int>(), [](int v) { return v / 3.0f; }));
  RC_ASSERT(check_vadd(a, b));
}

RC_GTEST_PROP(IsaSemantics, ISA_SEM_1_SaxpyIsFusedMultiplyAdd, ()) {
  const int n = *rc::gen::inRange(1, 500);
  const float a = static_cast<float>(*rc::gen::inRange(-1000, 1000)) / 17.0f;
  auto gen = rc::gen::map(rc::gen::inRange(-100000, 100000), [](int v) { return v / 13.0f; });
  const auto x = *rc::gen::container<std::vector<float>>(n, gen);
  auto y = *rc::gen::container<std::vector<float>>(n, gen);
  const std::vector<float> y0 = y;
  const Allow gx(x), gy(y);
  struct { float a; uint64_t x, y; int n; } args{a, addr(x), addr(y), n};
  // Kernarg layout: a at 0, x at 8, y at 16, n at 24 (the struct pads a to 8 as the kernarg segment does).
  RC_ASSERT(!launch(kernel(o2(), "saxpy"), args, static_cast<uint32_t>(n), 256).fault);
  for (int i = 0; i < n; ++i) RC_ASSERT(y[i] == std::fma(a, x[i], y0[i]));  // hipcc contracts to v_fma_f32
}

// covers: ISA-LDS-1
RC_GTEST_PROP(IsaSemantics, ISA_BAR_1_ReductionWithLdsAndBarriers, ()) {
  const int n = *rc::gen::inRange(1, 1200);
  const auto in = *rc::gen::container<std::vector<int>>(n, rc::gen::inRange(-100000, 100000));
  RC_ASSERT(check_reduce(in));
}

RC_GTEST_PROP(IsaSemantics, ISA_MEM_3_AtomicsCountEveryLane, ()) {
  const int n = *rc::gen::inRange(1, 900);
  const auto in = *rc::gen::container<std::vector<unsigned>>(n, rc::gen::arbitrary<unsigned>());
  std::vector<unsigned> bins(17, 0);
  const Allow gi(in), gb(bins);
  struct { uint64_t in, bins; int n; } args{addr(in), addr(bins), n};
  RC_ASSERT(!launch(kernel(o2(), "histogram"), args, static_cast<uint32_t>(n), 128).fault);
  std::vector<unsigned> expect(17, 0);
  for (unsigned v : in) { ++expect[v % 16]; expect[16] = std::max(expect[16], v); }
  RC_ASSERT(bins == expect);
}

RC_GTEST_PROP(IsaSemantics, ISA_EXEC_3_DivergentBranchesAndLoops, ()) {
  const int n = *rc::gen::inRange(1, 400);
  const auto in = *rc::gen::container<std::vector<int>>(n, rc::gen::inRange(-1000, 100000));
  RC_ASSERT(check_divergent(in));
}

RC_GTEST_PROP(IsaSemantics, ISA_EXEC_1_SixtyFourBitAddressArithmetic, ()) {
  const int n = *rc::gen::inRange(1, 300);
  const auto in = *rc::gen::container<std::vector<int64_t>>(n, rc::gen::arbitrary<int64_t>());
  const int64_t stride = *rc::gen::inRange<int64_t>(1, 5);
  RC_ASSERT(check_addr64(in, stride));
}

// covers: ISA-EXEC-2
RC_GTEST_PROP(IsaSemantics, ISA_EXEC_5_FloatMathAndDivision, ()) {
  const int n = *rc::gen::inRange(1, 300);
  const auto x = *rc::gen::container<std::vector<float>>(n, rc::gen::map(rc::gen::inRange(-2000000, 2000000), [](int v) { return v / 1000.0f; }));
  std::vector<float> y(n);
  std::vector<double> z(n);
  const Allow gx(x), gy(y), gz(z);
  struct { uint64_t x, y, z; int n; } args{addr(x), addr(y), addr(z), n};
  RC_ASSERT(!launch(kernel(o2(), "fmath"), args, static_cast<uint32_t>(n), 64).fault);
  for (int i = 0; i < n; ++i) {
    const float v = x[i];
    const float q = std::fabs(v) / (1.0f + v * v);  // IEEE division: the div_scale/fmas/fixup macro is exact
    const float terms = std::fabs(std::fmin(v, 2.0f) * 0.5f) + std::fabs(std::fmax(v, -1.0f)) + std::fabs(v) + q;
    const float expect = std::fmin(v, 2.0f) * 0.5f - std::fmax(v, -1.0f) + static_cast<float>(static_cast<int>(v)) + q;
    RC_ASSERT(std::fabs(y[i] - expect) <= terms * 4e-7f);  // contraction may fuse one product
    RC_ASSERT(z[i] == static_cast<double>(v) * 1.5 + 2.0);
  }
}

// covers: ISA-MEM-2, ISA-DISP-2
RC_GTEST_PROP(IsaSemantics, ISA_MEM_4_ScratchAtO0, ()) {
  const int n = *rc::gen::inRange(1, 200);
  const auto in = *rc::gen::container<std::vector<int>>(n, rc::gen::inRange(-1000, 1000));
  std::vector<int> out(n, 0);
  const Allow gi(in), go(out);
  struct { uint64_t in, out; int n; } args{addr(in), addr(out), n};
  const uint64_t ko = kernel(o0(), "private_array");
  KernelDescriptor kd;
  std::memcpy(&kd, reinterpret_cast<const void*>(static_cast<uintptr_t>(ko)), sizeof kd);
  RC_ASSERT(kd.private_segment_fixed_size > 0u);  // -O0 really uses scratch
  const Result r = launch(ko, args, static_cast<uint32_t>(n), 64);
  RC_ASSERT(!r.fault);
  for (int i = 0; i < n; ++i) {
    int local[8];
    for (int k = 0; k < 8; ++k) local[k] = in[(i + k) % n] * (k + 1);
    int sum = 0;
    for (int k = 7; k >= 0; --k) sum = sum * 3 + local[k];
    RC_ASSERT(out[i] == sum);
  }
}

TEST(IsaSemantics, ISA_SEM_1_O0BuildsAgreeWithO2) {
  std::vector<float> a(300), b(300);
  for (int i = 0; i < 300; ++i) { a[i] = i * 0.25f; b[i] = 1000.0f - i; }
  std::vector<float> c2(300), c0(300);
  const Allow ga(a), gb(b), gc2(c2), gc0(c0);
  struct { uint64_t a, b, c; int n; } args2{addr(a), addr(b), addr(c2), 300}, args0{addr(a), addr(b), addr(c0), 300};
  ASSERT_FALSE(launch(o2().kernel_object("vadd"), args2, 300, 128).fault);
  const Result r = launch(o0().kernel_object("vadd"), args0, 300, 128);
  ASSERT_FALSE(r.fault) << r.fault->what;
  EXPECT_EQ(c0, c2);
}

// --- error paths: hand-built kernels ---

struct HandKernel {
  alignas(256) uint8_t bytes[1024] = {};
  explicit HandKernel(std::initializer_list<uint32_t> code) {
    KernelDescriptor kd{};
    kd.kernel_code_entry_byte_offset = 256;
    kd.compute_pgm_rsrc1 = (3u << 18) | (1u << 21) | (1u << 23);  // LLVM's defaults: denorms, DX10_CLAMP, IEEE
    std::memcpy(bytes, &kd, sizeof kd);
    size_t i = 0;
    for (uint32_t w : code) std::memcpy(bytes + 256 + 4 * i++, &w, 4);
  }
  uint64_t ko() const { return reinterpret_cast<uintptr_t>(bytes); }
};

Result run_hand(const HandKernel& k) {
  const Allow code(k.bytes, sizeof k.bytes);
  struct { int unused; } args{0};
  return launch(k.ko(), args, 64, 64);
}

TEST(IsaErrors, ISA_ERR_1_IllegalEncodingIsIllegalInstruction) {
  const Result r = run_hand(HandKernel({0xffffffffu, 0xbf810000u}));
  ASSERT_TRUE(r.fault);
  EXPECT_EQ(static_cast<int>(r.fault->status), static_cast<int>(HSA_STATUS_ERROR_ILLEGAL_INSTRUCTION)) << r.fault->what;
}

TEST(IsaErrors, ISA_ERR_1_UnimplementedInstructionIsIllegalInstruction) {
  const Result r = run_hand(HandKernel({0xf0000100u, 0x00000001u, 0xbf810000u}));  // image_load v0, v1, s[0:7] dmask:0x1
  ASSERT_TRUE(r.fault);
  EXPECT_EQ(static_cast<int>(r.fault->status), static_cast<int>(HSA_STATUS_ERROR_ILLEGAL_INSTRUCTION)) << r.fault->what;
}

TEST(IsaErrors, ISA_ERR_1_UnreachedBadCodeIsHarmless) {
  const Result r = run_hand(HandKernel({0xbf810000u, 0xffffffffu}));  // s_endpgm first
  EXPECT_FALSE(r.fault);
  EXPECT_EQ(r.stats.instructions, 1u);
}

TEST(IsaErrors, ISA_ERR_2_TrapIsAnException) {
  const Result r = run_hand(HandKernel({0xbf920002u, 0xbf810000u}));  // s_trap 2
  ASSERT_TRUE(r.fault);
  EXPECT_EQ(r.fault->status, HSA_STATUS_ERROR_EXCEPTION);
}

TEST(IsaErrors, ISA_MEM_1_BadAddressIsAMemoryViolation) {
  const Result r = run_hand(HandKernel({0xc0020000u, 0x00000000u, 0xbf810000u}));  // s_load_dword s0, s[0:1], 0x0
  ASSERT_TRUE(r.fault);
  EXPECT_EQ(static_cast<int>(r.fault->status), static_cast<int>(HSA_STATUS_ERROR_MEMORY_APERTURE_VIOLATION));
  EXPECT_EQ(r.fault->address, 0u);
  // A vector store one element past what the GPU may touch faults at exactly that address.
  std::vector<float> a(64, 1.0f), b(64, 2.0f), c(64);
  const Allow ga(a), gb(b), gc(c.data(), 63 * sizeof(float));
  struct { uint64_t a, b, c; int n; } args{addr(a), addr(b), addr(c), 64};
  const Result v = launch(o2().kernel_object("vadd"), args, 64, 64);
  ASSERT_TRUE(v.fault);
  EXPECT_EQ(static_cast<int>(v.fault->status), static_cast<int>(HSA_STATUS_ERROR_MEMORY_APERTURE_VIOLATION));
  EXPECT_EQ(v.fault->address, addr(c) + 63 * sizeof(float));
}

TEST(IsaErrors, ISA_DISP_1_DescriptorChecks) {
  TestMemory memory;
  HandKernel k({0xbf810000u});
  const Allow code(k.bytes, sizeof k.bytes);
  hsa_kernel_dispatch_packet_t p{};
  p.kernel_object = k.ko();
  EXPECT_TRUE(is_isa_kernel(p, memory));
  std::string why;
  p.kernel_object = k.ko() + 8;  // not 64-byte aligned
  EXPECT_FALSE(is_isa_kernel(p, memory, &why));
  p.kernel_object = k.ko();
  k.bytes[12] = 1;  // reserved0
  EXPECT_FALSE(is_isa_kernel(p, memory, &why));
  k.bytes[12] = 0;
  k.bytes[57] = 1 << 2;  // ENABLE_WAVEFRONT_SIZE32 (bit 10 of kernel_code_properties)
  EXPECT_FALSE(is_isa_kernel(p, memory, &why));
  k.bytes[57] = 0;
  std::memset(k.bytes + 48, 0, 4);  // rsrc1 zero too: a rocref kernel-language or zeroed object
  EXPECT_FALSE(is_isa_kernel(p, memory, &why));
  EXPECT_NE(why.find("rsrc"), std::string::npos) << why;
}

TEST(IsaErrors, ISA_DEC_2_ChangedCodeAtACachedAddressIsDecodedAgain) {
  HandKernel k({0xbf810000u, 0xbf810000u});  // s_endpgm
  ASSERT_FALSE(run_hand(k).fault);
  const uint32_t trap = 0xbf920002u;  // the loader puts other code at the same address: s_trap 2
  std::memcpy(k.bytes + 256, &trap, 4);
  const Result r = run_hand(k);
  ASSERT_TRUE(r.fault);
  EXPECT_EQ(r.fault->status, HSA_STATUS_ERROR_EXCEPTION);
}

TEST(IsaErrors, ISA_MEM_1_NothingPastTheCodeIsFetched) {
  // Code ending exactly where the mapping ends (descriptor and one s_endpgm): the decoder
  // must not read the next word, or the VM would report a fault for a fetch the hardware never makes.
  for (int round = 0; round < 2; ++round) {  // the second run reuses the cached program
    HandKernel k({0xbf810000u});
    const Allow code(k.bytes, 256 + 4);
    refused() = 0;
    struct { int unused; } args{0};
    const Result r = launch(k.ko(), args, 64, 64);
    EXPECT_FALSE(r.fault) << r.fault->what;
    EXPECT_EQ(refused(), 0);
  }
}

TEST(IsaStats, WavesAndLaneInstructionsAreCounted) {
  std::vector<float> a(100, 1.0f), b(100, 2.0f), c(100);
  const Allow ga(a), gb(b), gc(c);
  struct { uint64_t a, b, c; int n; } args{addr(a), addr(b), addr(c), 100};
  const Result r = launch(o2().kernel_object("vadd"), args, 100, 64);
  ASSERT_FALSE(r.fault);
  EXPECT_EQ(r.stats.work_groups, 2u);
  EXPECT_EQ(r.stats.waves, 2u);
  EXPECT_GT(r.stats.lane_instructions, r.stats.instructions);
}

#ifdef ROCREF_ISA_MUTANTS
// Each planted bug must make a check above fail (the checks cannot pass vacuously).
// covers: ISA-EXEC-1, ISA-EXEC-3, ISA-BAR-1, ISA-DISP-2, ISA-DEC-1, ISA-EXEC-6, ISA-EXEC-7, ISA-EXEC-8
TEST(IsaSemantics, ISA_DISP_3_SpinningWorkGroupsLetOthersRun) {
  EXPECT_TRUE(check_cross_group(2));
  EXPECT_TRUE(check_cross_group(40));  // more work-groups than are resident at once
}

TEST(IsaMutants, EveryMutantIsCaught) {
  std::vector<float> a(300), b(300);
  for (int i = 0; i < 300; ++i) { a[i] = i * 0.5f; b[i] = 3.0f * i; }
  std::vector<int> ints(700);
  for (int i = 0; i < 700; ++i) ints[i] = (i * 7919) % 1001 - 300;
  std::vector<int64_t> wide(100);
  for (int i = 0; i < 100; ++i) wide[i] = (int64_t{0x7fffffff} + i) * 0x10001 * (i % 2 ? -1 : 1);
  ASSERT_TRUE(check_vadd(a, b));
  ASSERT_TRUE(check_reduce(ints));
  ASSERT_TRUE(check_divergent(ints));
  ASSERT_TRUE(check_addr64(wide, 3));
  ASSERT_TRUE(Straddling(300).straddles()) << "no memory at the 4 GiB boundary: the carry mutant cannot be tested";
  {
    Mutant m(IsaMutant::AddCoNoCarry);
    EXPECT_FALSE(check_addr64(wide, 3));
  }
  {
    Mutant m(IsaMutant::IgnoreExec);
    EXPECT_FALSE(check_divergent(ints));
  }
  {
    Mutant m(IsaMutant::BarrierNotWaiting);
    EXPECT_FALSE(check_reduce(ints));
  }
  {
    Mutant m(IsaMutant::WorkItemIdXInV1);
    EXPECT_FALSE(check_vadd(a, b));
  }
  ASSERT_TRUE(check_cross_group(2));
  {
    Mutant m(IsaMutant::WorkGroupsOneAtATime);
    EXPECT_FALSE(check_cross_group(2));
  }
  {
    Mutant m(IsaMutant::Vop2Src1AsSgpr);
    EXPECT_FALSE(check_vadd(a, b));
  }
  // VOP3P, SDWA and DPP in hipcc's code.
  std::vector<uint32_t> h(200), g(200), k(200);
  for (uint32_t i = 0; i < 200; ++i) {
    h[i] = 0x3c00bc00u + i * 0x00050003u;
    g[i] = 0x40003800u + i * 0x00070011u;
    k[i] = 0xb4003a00u ^ (i * 0x00090101u);
  }
  std::vector<uint32_t> signed_bytes(200);
  for (uint32_t i = 0; i < 200; ++i) signed_bytes[i] = 0x80f08000u + i * 0x01030507u;
  ASSERT_TRUE(check_half2(h, g, k));
  ASSERT_TRUE(check_bytes(signed_bytes));
  ASSERT_TRUE(check_dpp_scan(ints, 256));
  {
    Mutant m(IsaMutant::PackedOpSelHiIgnored);
    EXPECT_FALSE(check_half2(h, g, k));
  }
  {
    Mutant m(IsaMutant::SdwaNoSignExtend);
    EXPECT_FALSE(check_bytes(signed_bytes));
  }
  {
    Mutant m(IsaMutant::DppRowShiftReversed);
    EXPECT_FALSE(check_dpp_scan(ints, 256));
  }
}
#endif

// ISA-TRACE-1: every full wave of vadd runs its straight-line code once, so the dispatch's counts are
// waves x the instructions (and the scalar ones) LLVM's disassembly lists.
TEST(IsaSemantics, ISA_TRACE_1_DispatchCountsMatchTheDisassembly) {
#ifndef ROCREF_LLVM_OBJDUMP
  GTEST_SKIP() << "llvm-objdump-15 not found";
#endif
  const Listing l = disassembly(ROCREF_ISA_KERNELS_O2, "vadd");
  ASSERT_GT(l.all, 4u);
  ASSERT_GT(l.scalar, 0u);
  ASSERT_TRUE(l.straight) << "vadd is no longer straight-line code";
  const int n = 64 * 5;
  std::vector<float> a(n, 1.0f), b(n, 2.0f), c(n + 64, 0.0f);
  const Allow ga(a), gb(b), gc(c);
  struct {
    uint64_t a, b, c;
    int n;
  } args{addr(a), addr(b), addr(c), n};
  auto run = [&] { return launch(o2().kernel_object("vadd"), args, static_cast<uint32_t>(n), 64); };
  const Result r = run();
  ASSERT_FALSE(r.fault.has_value());
  EXPECT_EQ(r.stats.work_groups, 5u);
  EXPECT_EQ(r.stats.waves, 5u);
  EXPECT_EQ(r.stats.instructions, 5 * l.all);
  EXPECT_EQ(r.stats.scalar_instructions, 5 * l.scalar);
  EXPECT_EQ(r.stats.lane_instructions, 64 * 5 * l.all);
#ifdef ROCREF_ISA_MUTANTS
  Mutant m(IsaMutant::StatsSkipScalar);
  EXPECT_NE(run().stats.scalar_instructions, 5 * l.scalar);
#endif
}

}  // namespace
}  // namespace rocref::gpu::isa
