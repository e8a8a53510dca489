// tests/unit/isa/isa_image_test.cpp - texture fetches, samples and image loads/stores of hipcc-built gfx900 kernels
// run by the interpreter vs a host reference written here from the Vega ISA descriptor tables (ISA-IMG-1..3).
//
// The descriptors are built with raw shifts (not the interpreter's layout header), so a wrong field
// position on either side shows. GPU memory is limited to the buffers a test registers: a wrong address faults.
#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <random>
#include <vector>

#include "code_object.h"
#include "gpu/isa/dispatch.h"
#include "gpu/isa/isa_mutant.h"
#include "gpu/isa/kernel_descriptor.h"

namespace rocref::gpu::isa {
namespace {

namespace gen = rc::gen;

const test::CodeObject& kernels() {
  static const test::CodeObject co(ROCREF_ISA_IMAGE_KERNELS);
  return co;
}

struct Range {
  uint64_t lo, hi;
};
std::vector<Range>& allowed() {
  static std::vector<Range> ranges;
  return ranges;
}
struct Allow {
  template <typename T>
  explicit Allow(const std::vector<T>& v) : Allow(v.data(), v.size() * sizeof(T)) {}
  Allow(const void* p, size_t bytes) {
    const auto lo = reinterpret_cast<uintptr_t>(p);
    allowed().push_back({lo, lo + bytes});
  }
  ~Allow() { allowed().pop_back(); }
};

class TestMemory final : public MemoryAccess {
 public:
  void* translate(uint64_t va, size_t size, Access) noexcept override {
    for (const Range& r : allowed()) {
      if (va >= r.lo && va + size <= r.hi && va + size >= va)
        return reinterpret_cast<void*>(static_cast<uintptr_t>(va));
    }
    return nullptr;
  }
};

struct Result {
  std::optional<PacketFault> fault;
  IsaStats stats;
};

template <typename Args>
Result launch(const char* name, const Args& args, uint32_t items) {
  const uint64_t ko = kernels().kernel_object(name);
  EXPECT_NE(ko, 0u) << name;
  const uint32_t wg = 64, grid = (items + wg - 1) / wg * wg;
  TestMemory memory;
  alignas(64) uint8_t kernarg[256] = {};
  const Allow code(reinterpret_cast<const void*>(static_cast<uintptr_t>(kernels().base())), kernels().size());
  const Allow kernarg_segment(kernarg, sizeof kernarg);
  std::memcpy(kernarg, &args, sizeof args);
  hsa_kernel_dispatch_packet_t p = rocref::test::one_dimension_dispatch(ko, kernarg, grid, wg);
  Result r;
  // One worker: the store properties let several work-groups write one texel and expect the
  // last in launch order to win, which only one worker promises (ISA-PAR-1 covers race-free kernels).
  const IsaDispatch d{&p, reinterpret_cast<uintptr_t>(&p), 0, 1, &memory, nullptr, 1};
  r.fault = run_isa_dispatch(d, &r.stats);
  return r;
}

template <typename T>
uint64_t addr(const std::vector<T>& v) {
  return reinterpret_cast<uintptr_t>(v.data());
}

#ifdef ROCREF_ISA_MUTANTS
struct Mutant {
  explicit Mutant(IsaMutant m) : m_(m) { set_isa_mutant(m_, true); }
  ~Mutant() { set_isa_mutant(m_, false); }
  IsaMutant m_;
};
#endif

// --- formats: (DATA_FORMAT, NUM_FORMAT) -> channels of `bits`, converted as the ISA's tables say ---

struct Fmt {
  uint32_t dfmt, nfmt, channels, bits;
};
const Fmt kFormats[] = {{14, 7, 4, 32}, {4, 7, 1, 32},  {10, 0, 4, 8}, {5, 5, 2, 16},
                        {4, 4, 1, 32},  {12, 7, 4, 16}, {1, 1, 1, 8},  {3, 2, 2, 8}};

uint32_t f32(float f) { return std::bit_cast<uint32_t>(f); }

// Texel bytes -> the four channels (missing ones 0, 0, 0, 1).
void reference_texel(const Fmt& f, const uint8_t* p, uint32_t out[4]) {
  const bool integer = f.nfmt == 4 || f.nfmt == 5;
  out[0] = out[1] = out[2] = 0;
  out[3] = integer ? 1u : f32(1.0f);
  for (uint32_t c = 0; c < f.channels; ++c) {
    uint32_t raw = 0;
    std::memcpy(&raw, p + c * f.bits / 8, f.bits / 8);
    const int64_t s = f.bits == 32
                          ? static_cast<int32_t>(raw)
                          : static_cast<int64_t>(raw) - ((raw >> (f.bits - 1)) & 1 ? (int64_t{1} << f.bits) : 0);
    const double umax = std::pow(2.0, f.bits) - 1, smax = std::pow(2.0, f.bits - 1) - 1;
    switch (f.nfmt) {
      case 0: out[c] = f32(static_cast<float>(raw / umax)); break;
      case 1: out[c] = f32(static_cast<float>(std::max(s / smax, -1.0))); break;
      case 2: out[c] = f32(static_cast<float>(raw)); break;
      case 4: out[c] = raw; break;
      case 5: out[c] = static_cast<uint32_t>(s); break;
      default:
        out[c] = f.bits == 16 ? f32(static_cast<float>(std::bit_cast<_Float16>(static_cast<uint16_t>(raw)))) : raw;
    }
  }
}

void reference_sel(const Fmt& f, const uint32_t ch[4], const uint32_t sel[4], uint32_t out[4]) {
  const bool integer = f.nfmt == 4 || f.nfmt == 5;
  for (int c = 0; c < 4; ++c) out[c] = sel[c] >= 4 ? ch[sel[c] - 4] : sel[c] == 1 ? (integer ? 1u : f32(1.0f)) : 0u;
}

rc::Gen<uint32_t> dst_sel() { return gen::element(0u, 1u, 4u, 5u, 6u, 7u); }

// --- tex1Dfetch: a 1D-buffer texture object as ROCR writes it (a V# in the T#'s first dwords) ---

bool check_fetch(const Fmt& f, const std::vector<uint8_t>& data, uint32_t records, const uint32_t sel[4], bool xyzw) {
  const uint32_t bytes = f.channels * f.bits / 8;
  const uint32_t n = static_cast<uint32_t>(data.size() / bytes);
  std::vector<uint32_t> obj(16, 0);
  const uint64_t base = addr(data);
  obj[0] = static_cast<uint32_t>(base);
  obj[1] = static_cast<uint32_t>(base >> 32) | bytes << 16;  // STRIDE
  obj[2] = records;                                          // NUM_RECORDS (elements: stride != 0)
  obj[3] = sel[0] | sel[1] << 3 | sel[2] << 6 | sel[3] << 9 | f.nfmt << 12 | f.dfmt << 15;
  std::vector<uint32_t> out(size_t{n} * 4 + 64, 0xdeadbeef);
  const Allow a(data), o(obj), b(out);
  struct {
    uint64_t tex, out;
    int n;
  } args{addr(obj), addr(out), static_cast<int>(n)};
  const Result r = launch(xyzw ? "fetch_xyzw" : "fetch_x", args, n);
  if (r.fault) {
    RC_LOG() << r.fault->what << "\n";
    return false;
  }
  for (uint32_t i = 0; i < n; ++i) {
    uint32_t ch[4], want[4] = {0, 0, 0, 0};
    if (i < records) {
      reference_texel(f, data.data() + size_t{i} * bytes, ch);
      reference_sel(f, ch, sel, want);
    }
    for (uint32_t c = 0; c < (xyzw ? 4u : 1u); ++c) {
      if (out[size_t{i} * (xyzw ? 4 : 1) + c] != want[c]) return false;
    }
  }
  return true;
}

RC_GTEST_PROP(IsaImage, ISA_IMG_2_Tex1DfetchConvertsTheBufferFormat, ()) {
  const Fmt f = *gen::elementOf(std::vector<Fmt>(std::begin(kFormats), std::end(kFormats)));
  const uint32_t n = *gen::inRange(1u, 200u);
  auto data = *gen::container<std::vector<uint8_t>>(n * f.channels * f.bits / 8, gen::arbitrary<uint8_t>());
  const uint32_t records = *gen::inRange(0u, n + 1);
  const uint32_t sel[4] = {*dst_sel(), *dst_sel(), *dst_sel(), *dst_sel()};
  RC_ASSERT(check_fetch(f, data, records, sel, *gen::arbitrary<bool>()));
}

// --- 2D images: a linear T#, the texture object ROCclr lays out (T#, channel type/order/width, S# at dword 12) ---

struct Image2D {
  Fmt f;
  uint32_t w, h, pitch;
  std::vector<uint8_t> data;
  uint32_t sel[4];
};

std::vector<uint32_t> tsharp(const Image2D& img) {
  std::vector<uint32_t> t(16, 0);
  const uint64_t base = addr(img.data);
  t[0] = static_cast<uint32_t>(base >> 8);
  t[1] = static_cast<uint32_t>(base >> 40) | img.f.dfmt << 20 | img.f.nfmt << 26;
  t[2] = (img.w - 1) | (img.h - 1) << 14;
  t[3] = img.sel[0] | img.sel[1] << 3 | img.sel[2] << 6 | img.sel[3] << 9 | 9u << 28;  // TYPE 2D, SW_MODE linear
  t[4] = (img.pitch - 1) << 13;
  t[10] = img.w;
  return t;
}

rc::Gen<Image2D> image_2d(bool float_only) {
  return gen::exec([float_only] {
    Image2D img;
    img.f = float_only ? *gen::element(kFormats[0], kFormats[2], kFormats[5])
                       : *gen::elementOf(std::vector<Fmt>(std::begin(kFormats), std::end(kFormats)));
    img.w = *gen::inRange(1u, 12u);
    img.h = *gen::inRange(1u, 12u);
    img.pitch = img.w + *gen::inRange(0u, 4u);
    const uint32_t bytes = img.f.channels * img.f.bits / 8;
    img.data.resize(size_t{img.pitch} * img.h * bytes + 256);  // 256-byte aligned base: T# keeps address >> 8
    std::vector<uint8_t> raw = *gen::container<std::vector<uint8_t>>(img.data.size(), gen::arbitrary<uint8_t>());
    if (img.f.nfmt == 7) {  // finite float texels: the reference sums them like the filter does
      for (size_t i = 0; i + img.f.bits / 8 <= raw.size(); i += img.f.bits / 8) {
        if (img.f.bits == 32) {
          const float v = static_cast<float>(static_cast<int8_t>(raw[i])) / 8;
          std::memcpy(&raw[i], &v, 4);
        } else {
          const _Float16 v = static_cast<_Float16>(static_cast<int8_t>(raw[i]) / 8.0f);
          std::memcpy(&raw[i], &v, 2);
        }
      }
    }
    img.data = raw;
    for (auto& s : img.sel) s = *dst_sel();
    return img;
  });
}

void texel_of(const Image2D& img, const uint8_t* base, int64_t x, int64_t y, uint32_t ch[4]) {
  const uint32_t bytes = img.f.channels * img.f.bits / 8;
  reference_texel(img.f, base + (size_t(y) * img.pitch + size_t(x)) * bytes, ch);
}

// image_load / image_load_mip: integer texel coordinates, out of range (or another mip level) reads zeros.
bool check_load(Image2D img, const std::vector<int>& xs, const std::vector<int>& ys, int mip) {
  // Re-base so the image data is 256-byte aligned (the T# holds address >> 8).
  const uint64_t raw = addr(img.data), base = (raw + 255) & ~uint64_t{255};
  std::vector<uint32_t> t = tsharp(img);
  t[0] = static_cast<uint32_t>(base >> 8);
  t[1] = (t[1] & ~0xffu) | static_cast<uint32_t>(base >> 40);
  const auto* bytes = reinterpret_cast<const uint8_t*>(static_cast<uintptr_t>(base));
  const size_t n = xs.size();
  std::vector<float> out(n * 4 + 64, -7.0f);
  const Allow a(img.data), b(t), c(xs), d(ys), o(out);
  Result r;
  if (mip < 0) {
    struct {
      uint64_t t, x, y, out;
      int n;
    } args{addr(t), addr(xs), addr(ys), addr(out), static_cast<int>(n)};
    r = launch("load_2d", args, static_cast<uint32_t>(n));
  } else {
    struct {
      uint64_t t, x, y, out;
      int n, mip;
    } args{addr(t), addr(xs), addr(ys), addr(out), static_cast<int>(n), mip};
    r = launch("load_mip_2d", args, static_cast<uint32_t>(n));
  }
  if (r.fault) {
    RC_LOG() << r.fault->what << "\n";
    return false;
  }
  for (size_t i = 0; i < n; ++i) {
    uint32_t ch[4], want[4] = {0, 0, 0, 0};
    const bool inside = xs[i] >= 0 && ys[i] >= 0 && uint32_t(xs[i]) < img.w && uint32_t(ys[i]) < img.h && mip <= 0;
    if (inside) {
      texel_of(img, bytes, xs[i], ys[i], ch);
      reference_sel(img.f, ch, img.sel, want);
    }
    if (std::memcmp(&out[i * 4], want, 16) != 0) return false;
  }
  return true;
}

RC_GTEST_PROP(IsaImage, ISA_IMG_2_ImageLoadReadsTexels, ()) {
  Image2D img = *image_2d(false);
  const size_t n = *gen::inRange<size_t>(1, 150);
  const auto xs = *gen::container<std::vector<int>>(n, gen::inRange(-2, static_cast<int>(img.w) + 2));
  const auto ys = *gen::container<std::vector<int>>(n, gen::inRange(-2, static_cast<int>(img.h) + 2));
  const int mip = *gen::element(-1, 0, 1);
  RC_ASSERT(check_load(img, xs, ys, mip));
}

// image_store: the dmask'd channels (all four here) packed into the texel; out-of-range stores dropped.
bool check_store(Image2D img, const std::vector<int>& xs, const std::vector<int>& ys, const std::vector<float>& in) {
  const uint64_t raw = addr(img.data), base = (raw + 255) & ~uint64_t{255};
  std::vector<uint32_t> t = tsharp(img);
  t[0] = static_cast<uint32_t>(base >> 8);
  t[1] = (t[1] & ~0xffu) | static_cast<uint32_t>(base >> 40);
  std::vector<uint8_t> before = img.data;
  const size_t n = xs.size();
  const Allow a(img.data), b(t), c(xs), d(ys), e(in);
  struct {
    uint64_t t, x, y, in;
    int n;
  } args{addr(t), addr(xs), addr(ys), addr(in), static_cast<int>(n)};
  const Result r = launch("store_2d", args, static_cast<uint32_t>(n));
  if (r.fault) {
    RC_LOG() << r.fault->what << "\n";
    return false;
  }
  // Reference: the last lane writing a texel wins (lanes run in order); FLOAT formats only here.
  const uint32_t bytes = img.f.channels * img.f.bits / 8;
  const size_t off = base - raw;
  for (size_t i = 0; i < n; ++i) {
    if (xs[i] < 0 || ys[i] < 0 || uint32_t(xs[i]) >= img.w || uint32_t(ys[i]) >= img.h) continue;
    uint8_t* p = before.data() + off + (size_t(ys[i]) * img.pitch + size_t(xs[i])) * bytes;
    for (uint32_t ch = 0; ch < img.f.channels; ++ch) {
      if (img.f.bits == 32) std::memcpy(p + ch * 4, &in[i * 4 + ch], 4);
      else {
        const _Float16 h = static_cast<_Float16>(in[i * 4 + ch]);
        std::memcpy(p + ch * 2, &h, 2);
      }
    }
  }
  return before == img.data;
}

RC_GTEST_PROP(IsaImage, ISA_IMG_2_ImageStoreWritesTexels, ()) {
  Image2D img = *image_2d(true);
  RC_PRE(img.f.nfmt == 7u);
  const size_t n = *gen::inRange<size_t>(1, 100);
  const auto xs = *gen::container<std::vector<int>>(n, gen::inRange(-1, static_cast<int>(img.w) + 1));
  const auto ys = *gen::container<std::vector<int>>(n, gen::inRange(-1, static_cast<int>(img.h) + 1));
  std::vector<float> in(n * 4);
  for (auto& v : in) v = static_cast<float>(*gen::inRange(-64, 64)) / 4;
  RC_ASSERT(check_store(img, xs, ys, in));
}

// --- sampling: normalized coordinates, point or bilinear, wrap / clamp / mirror / border ---

struct Samp {
  uint32_t clamp, filter, border;
  bool unnormalized;
};

int64_t wrap_index(uint32_t mode, int64_t i, int64_t n) {
  if (mode == 0) return ((i % n) + n) % n;
  if (mode == 1) {
    const int64_t m = ((i % (2 * n)) + 2 * n) % (2 * n);
    return m < n ? m : 2 * n - 1 - m;
  }
  if (mode == 6) return i < 0 || i >= n ? -1 : i;
  return std::min(std::max<int64_t>(i, 0), n - 1);
}

// One sample as the spec says: texel space with 8 fraction bits, centres at +0.5 for bilinear.
void reference_sample(const Image2D& img, const uint8_t* bytes, const Samp& s, float u, float v, uint32_t out[4]) {
  const double su = s.unnormalized ? u : double(u) * img.w, sv = s.unnormalized ? v : double(v) * img.h;
  const double t[2] = {std::nearbyint(su * 256) / 256, std::nearbyint(sv * 256) / 256};
  const int64_t size[2] = {img.w, img.h};
  int64_t idx[2][2];
  double wt[2][2];
  for (int d = 0; d < 2; ++d) {
    if (s.filter == 0) {
      idx[d][0] = idx[d][1] = wrap_index(s.clamp, static_cast<int64_t>(std::floor(t[d])), size[d]);
      wt[d][0] = 1;
      wt[d][1] = 0;
    } else {
      const double c = t[d] - 0.5, f = std::floor(c);
      idx[d][0] = wrap_index(s.clamp, static_cast<int64_t>(f), size[d]);
      idx[d][1] = wrap_index(s.clamp, static_cast<int64_t>(f) + 1, size[d]);
      wt[d][0] = 1 - (c - f);
      wt[d][1] = c - f;
    }
  }
  double acc[4] = {0, 0, 0, 0};
  uint32_t first[4] = {};
  for (int j = 0; j < (s.filter ? 2 : 1); ++j) {
    for (int i = 0; i < (s.filter ? 2 : 1); ++i) {
      uint32_t ch[4];
      if (idx[0][i] < 0 || idx[1][j] < 0) {
        const uint32_t one = f32(1.0f);
        ch[0] = ch[1] = ch[2] = s.border == 2 ? one : 0;
        ch[3] = s.border == 0 ? 0 : one;
      } else {
        texel_of(img, bytes, idx[0][i], idx[1][j], ch);
      }
      if (!s.filter) std::memcpy(first, ch, sizeof ch);
      for (int c = 0; c < 4; ++c) acc[c] += wt[0][i] * wt[1][j] * std::bit_cast<float>(ch[c]);
    }
  }
  uint32_t ch[4];
  for (int c = 0; c < 4; ++c) ch[c] = s.filter ? f32(static_cast<float>(acc[c])) : first[c];
  reference_sel(img.f, ch, img.sel, out);
}

bool check_sample(Image2D img, const Samp& s, const std::vector<float>& us, const std::vector<float>& vs,
                  const std::vector<float>* lods) {
  const uint64_t raw = addr(img.data), base = (raw + 255) & ~uint64_t{255};
  std::vector<uint32_t> t = tsharp(img);
  t[0] = static_cast<uint32_t>(base >> 8);
  t[1] = (t[1] & ~0xffu) | static_cast<uint32_t>(base >> 40);
  t[12] = s.clamp | s.clamp << 3 | s.clamp << 6 | uint32_t{s.unnormalized} << 15;  // S# word 0
  t[14] = s.filter << 20 | s.filter << 22;                                         // XY_MAG/MIN_FILTER
  t[15] = s.border << 30;                                                          // BORDER_COLOR_TYPE
  const auto* bytes = reinterpret_cast<const uint8_t*>(static_cast<uintptr_t>(base));
  const size_t n = us.size();
  std::vector<float> out(n * 4 + 64, -7.0f);
  const Allow a(img.data), b(t), c(us), d(vs), o(out);
  Result r;
  if (lods == nullptr) {
    struct {
      uint64_t t, u, v, out;
      int n;
    } args{addr(t), addr(us), addr(vs), addr(out), static_cast<int>(n)};
    r = launch("sample_2d", args, static_cast<uint32_t>(n));
  } else {
    const Allow e(*lods);
    struct {
      uint64_t t, u, v, lod, out;
      int n;
    } args{addr(t), addr(us), addr(vs), addr(*lods), addr(out), static_cast<int>(n)};
    r = launch("sample_2d_lod", args, static_cast<uint32_t>(n));
  }
  if (r.fault) {
    RC_LOG() << r.fault->what << "\n";
    return false;
  }
  for (size_t i = 0; i < n; ++i) {
    uint32_t want[4];
    reference_sample(img, bytes, s, us[i], vs[i], want);
    if (std::memcmp(&out[i * 4], want, 16) != 0) {
      RC_LOG() << "lane " << i << " u " << us[i] << " v " << vs[i] << " got " << out[i * 4] << " want "
               << std::bit_cast<float>(want[0]) << "\n";
      return false;
    }
  }
  return true;
}

// Coordinates away from texel edges when point sampling (ockl's gfx9 point-sampling adjustment floors
// u * width itself before the sampler does; at an edge both roundings are the hardware's business).
rc::Gen<float> coordinate(uint32_t size, bool point, bool unnormalized) {
  return gen::exec([=] {
    const int k = *gen::inRange(-static_cast<int>(size), 2 * static_cast<int>(size));
    const float f =
        point ? static_cast<float>(*gen::inRange(3, 29)) / 32 : static_cast<float>(*gen::inRange(0, 64)) / 64;
    return unnormalized ? k + f : (k + f) / static_cast<float>(size);
  });
}

RC_GTEST_PROP(IsaImage, ISA_IMG_2_SamplesFilterAndAddressAsTheSamplerSays, ()) {
  Image2D img = *image_2d(true);
  Samp s;
  s.filter = *gen::inRange(0u, 2u);
  s.unnormalized = *gen::arbitrary<bool>();
  s.clamp = s.unnormalized ? *gen::element(2u, 6u) : *gen::element(0u, 1u, 2u, 6u);
  s.border = *gen::inRange(0u, 3u);
  const size_t n = *gen::inRange<size_t>(1, 100);
  std::vector<float> us(n), vs(n), lods(n);
  for (size_t i = 0; i < n; ++i) {
    us[i] = *coordinate(img.w, s.filter == 0, s.unnormalized);
    vs[i] = *coordinate(img.h, s.filter == 0, s.unnormalized);
    lods[i] = static_cast<float>(*gen::inRange(-2, 3));
  }
  const bool with_lod = *gen::arbitrary<bool>();
  RC_ASSERT(check_sample(img, s, us, vs, with_lod ? &lods : nullptr));
}

// --- tiled images: 2D (array) T#s in the gfx9 S/D swizzle modes, as ROCR creates opaque images (ISA-IMG-4) ---
//
// The reference computes addresses the way AMD's gfx9 address library does from coordinates (micro-block
// offset formulas, a Morton code of the micro-block indices, then the pipe and bank fold-XOR), not from the
// interpreter's per-bit equation.

// GB_ADDR_CONFIG 0x2a114042 (the model's Vega 10): 4 pipes, 256-byte pipe interleave, 16 banks, 4 shader engines.
constexpr unsigned kPipeInterleaveLog2 = 8, kPipesLog2 = 2, kBanksLog2 = 4, kSeLog2 = 2;

struct SwMode {
  uint32_t code, block_log2;
  bool display, xored;
};
const SwMode kSwModes[] = {{1, 8, false, false},  {2, 8, true, false},   {5, 12, false, false}, {6, 12, true, false},
                           {9, 16, false, false}, {10, 16, true, false}, {21, 12, false, true}, {22, 12, true, true},
                           {25, 16, false, true}, {26, 16, true, true}};
constexpr uint32_t kMicroW[5] = {16, 16, 8, 8, 4}, kMicroH[5] = {16, 8, 8, 4, 4};

uint32_t bits(uint32_t v, unsigned lo, unsigned n, unsigned to) { return ((v >> lo) & ((1u << n) - 1)) << to; }

uint32_t micro_block_offset(bool display, unsigned e, uint32_t x, uint32_t y) {
  if (!display) {
    const uint32_t xb = x << e;
    uint32_t m = (xb & 0xf) | (y & 3) << 4;
    if (e < 3) m |= (y & 4) << 4 | (e == 0 ? (y & 8) << 4 : (xb & 0x10) << 3);
    else m |= (xb & 0x30) << 2;
    return m;
  }
  if (e == 4) return bits(x, 0, 1, 4) | bits(y, 0, 1, 5) | bits(x, 1, 1, 6) | bits(y, 1, 1, 7);
  const uint32_t m = bits(x, 0, 3, e) | bits(y, 1, 2, 3 + e) | bits(x, 3, 1, 5 + e) | bits(y, 3, 1, 6 + e);
  return bits(m, 0, 4, 0) | bits(y, 0, 1, 4) | bits(m, 4, 3, 5);
}

uint64_t morton(uint32_t x, uint32_t y) {  // y in the even bits
  uint64_t m = 0;
  for (unsigned i = 0; i < 16; ++i) m |= uint64_t{(y >> i) & 1} << (2 * i) | uint64_t{(x >> i) & 1} << (2 * i + 1);
  return m;
}

uint64_t reverse_bits(uint64_t v, unsigned n) {
  uint64_t r = 0;
  for (unsigned i = 0; i < n; ++i) r |= ((v >> (n - 1 - i)) & 1) << i;
  return r;
}

uint64_t fold_xor(uint64_t v, unsigned n) { return (v & ((uint64_t{1} << n) - 1)) ^ reverse_bits(v >> n, n); }

struct TiledImage {
  Fmt f;
  SwMode mode;
  uint32_t w, h, layers, pitch;  // pitch: a multiple of the block width
  unsigned e;                    // log2 texel bytes
  uint32_t block_w, block_h;
  std::vector<uint8_t> memory;  // the image at the first block-aligned address inside
  uint64_t base() const {
    return (addr(memory) + (uint64_t{1} << mode.block_log2) - 1) & ~((uint64_t{1} << mode.block_log2) - 1);
  }
};

uint64_t reference_tiled_offset(const TiledImage& img, uint32_t x, uint32_t y, uint32_t slice) {
  const unsigned e = img.e, blk = img.mode.block_log2;
  uint64_t off = micro_block_offset(img.mode.display, e, x, y) | morton(x / kMicroW[e], y / kMicroH[e]) << 8;
  if (img.mode.xored) {
    const unsigned pipe = std::min(blk - kPipeInterleaveLog2, kPipesLog2 + kSeLog2);
    const unsigned bank = std::min(blk - pipe - kPipeInterleaveLog2, kBanksLog2);
    const uint64_t low = off & 0xff;
    uint64_t rest = off >> kPipeInterleaveLog2;
    const uint64_t pipe_xor = fold_xor(rest, pipe);
    rest >>= pipe;
    const uint64_t bank_xor = fold_xor(rest, bank);
    rest >>= bank;
    off = ((rest << bank | bank_xor) << pipe | pipe_xor) << kPipeInterleaveLog2 | low;
    off ^= reverse_bits(slice, pipe) << kPipeInterleaveLog2;
    off ^= reverse_bits(slice >> pipe, bank) << (kPipeInterleaveLog2 + pipe);
  }
  off &= (uint64_t{1} << blk) - 1;
  const uint64_t row_blocks = img.pitch / img.block_w, slice_rows = (img.h + img.block_h - 1) / img.block_h;
  return ((slice * slice_rows + y / img.block_h) * row_blocks + x / img.block_w) << blk | off;
}

rc::Gen<TiledImage> tiled_image(bool float32_only) {
  return gen::exec([float32_only] {
    TiledImage img;
    img.f = float32_only ? *gen::element(kFormats[0], kFormats[1])
                         : *gen::elementOf(std::vector<Fmt>(std::begin(kFormats), std::end(kFormats)));
    img.mode = *gen::elementOf(std::vector<SwMode>(std::begin(kSwModes), std::end(kSwModes)));
    const uint32_t bytes = img.f.channels * img.f.bits / 8;
    img.e = static_cast<unsigned>(std::countr_zero(bytes));
    const unsigned amp = img.mode.block_log2 - 8;
    img.block_w = kMicroW[img.e] << (amp / 2);
    img.block_h = kMicroH[img.e] << (amp - amp / 2);
    const uint32_t blocks = img.mode.block_log2 == 16 ? 1 : 2;  // image spans up to this many blocks (+ a few texels)
    img.w = *gen::inRange(1u, blocks * img.block_w + 4);
    img.h = *gen::inRange(1u, blocks * img.block_h + 4);
    img.layers = *gen::inRange(1u, 5u);
    img.pitch = ((img.w + img.block_w - 1) / img.block_w + *gen::inRange(0u, 2u)) * img.block_w;
    const size_t size = size_t{img.layers} * ((img.h + img.block_h - 1) / img.block_h) * (img.pitch / img.block_w)
                        << img.mode.block_log2;
    img.memory.resize(size + (size_t{1} << img.mode.block_log2));
    std::mt19937 random_bytes(*gen::arbitrary<uint32_t>());
    for (auto& b : img.memory) b = static_cast<uint8_t>(random_bytes());
    return img;
  });
}

std::vector<uint32_t> tiled_tsharp(const TiledImage& img, bool array) {
  std::vector<uint32_t> t(16, 0);
  const uint64_t base = img.base();
  t[0] = static_cast<uint32_t>(base >> 8);
  t[1] = static_cast<uint32_t>(base >> 40) | img.f.dfmt << 20 | img.f.nfmt << 26;
  t[2] = (img.w - 1) | (img.h - 1) << 14;
  t[3] = 4u | 5u << 3 | 6u << 6 | 7u << 9 | img.mode.code << 20 | (array ? 13u : 9u) << 28;
  t[4] = (array ? img.layers - 1 : 0) | (img.pitch - 1) << 13;
  return t;
}

// Coordinates inside the image (and a few outside); with array, layers too.
struct Coords {
  std::vector<int> x, y, layer;
};
rc::Gen<Coords> coords(const TiledImage& img, bool array, size_t n) {
  return gen::exec([&img, array, n] {
    Coords c;
    c.x = *gen::container<std::vector<int>>(n, gen::inRange(-1, static_cast<int>(img.w) + 1));
    c.y = *gen::container<std::vector<int>>(n, gen::inRange(-1, static_cast<int>(img.h) + 1));
    c.layer = *gen::container<std::vector<int>>(n, gen::inRange(0, array ? static_cast<int>(img.layers) : 1));
    return c;
  });
}

bool inside(const TiledImage& img, const Coords& c, size_t i) {
  return c.x[i] >= 0 && c.y[i] >= 0 && uint32_t(c.x[i]) < img.w && uint32_t(c.y[i]) < img.h;
}

bool check_tiled_load(const TiledImage& img, bool array, const Coords& c) {
  const std::vector<uint32_t> t = tiled_tsharp(img, array);
  const size_t n = c.x.size();
  std::vector<float> out(n * 4 + 64, -7.0f);
  const Allow a(img.memory), b(t), cx(c.x), cy(c.y), cl(c.layer), o(out);
  Result r;
  if (array) {
    struct {
      uint64_t t, x, y, layer, out;
      int n;
    } args{addr(t), addr(c.x), addr(c.y), addr(c.layer), addr(out), static_cast<int>(n)};
    r = launch("load_2d_array", args, static_cast<uint32_t>(n));
  } else {
    struct {
      uint64_t t, x, y, out;
      int n;
    } args{addr(t), addr(c.x), addr(c.y), addr(out), static_cast<int>(n)};
    r = launch("load_2d", args, static_cast<uint32_t>(n));
  }
  if (r.fault) {
    RC_LOG() << r.fault->what << "\n";
    return false;
  }
  const auto* bytes = reinterpret_cast<const uint8_t*>(static_cast<uintptr_t>(img.base()));
  for (size_t i = 0; i < n; ++i) {
    uint32_t want[4] = {0, 0, 0, 0};
    if (inside(img, c, i)) {
      reference_texel(img.f, bytes + reference_tiled_offset(img, c.x[i], c.y[i], c.layer[i]), want);
    }
    if (std::memcmp(&out[i * 4], want, 16) != 0) {
      RC_LOG() << "mode " << img.mode.code << " lane " << i << " (" << c.x[i] << ", " << c.y[i] << ", " << c.layer[i]
               << ")\n";
      return false;
    }
  }
  return true;
}

// Stores of f32 texels: exactly the reference's bytes change (the last lane writing a texel wins).
bool check_tiled_store(TiledImage& img, bool array, const Coords& c, const std::vector<float>& in) {
  const std::vector<uint32_t> t = tiled_tsharp(img, array);
  std::vector<uint8_t> want = img.memory;
  const size_t n = c.x.size();
  const Allow a(img.memory), b(t), cx(c.x), cy(c.y), cl(c.layer), d(in);
  Result r;
  if (array) {
    struct {
      uint64_t t, x, y, layer, in;
      int n;
    } args{addr(t), addr(c.x), addr(c.y), addr(c.layer), addr(in), static_cast<int>(n)};
    r = launch("store_2d_array", args, static_cast<uint32_t>(n));
  } else {
    struct {
      uint64_t t, x, y, in;
      int n;
    } args{addr(t), addr(c.x), addr(c.y), addr(in), static_cast<int>(n)};
    r = launch("store_2d", args, static_cast<uint32_t>(n));
  }
  if (r.fault) {
    RC_LOG() << r.fault->what << "\n";
    return false;
  }
  const size_t skip = img.base() - addr(img.memory);
  for (size_t i = 0; i < n; ++i) {
    if (!inside(img, c, i)) continue;
    std::memcpy(want.data() + skip + reference_tiled_offset(img, c.x[i], c.y[i], c.layer[i]), &in[i * 4],
                img.f.channels * 4);
  }
  return want == img.memory;
}

RC_GTEST_PROP(IsaImage, ISA_IMG_4_TiledImageLoadsReadTheSwizzledTexel, ()) {
  const TiledImage img = *tiled_image(false);
  const bool array = *gen::arbitrary<bool>();
  const Coords c = *coords(img, array, *gen::inRange<size_t>(1, 150));
  RC_ASSERT(check_tiled_load(img, array, c));
}

RC_GTEST_PROP(IsaImage, ISA_IMG_4_TiledImageStoresWriteTheSwizzledTexel, ()) {
  TiledImage img = *tiled_image(true);
  const bool array = *gen::arbitrary<bool>();
  const size_t n = *gen::inRange<size_t>(1, 100);
  const Coords c = *coords(img, array, n);
  std::vector<float> in(n * 4);
  for (auto& v : in) v = static_cast<float>(*gen::inRange(-64, 64)) / 4;
  RC_ASSERT(check_tiled_store(img, array, c, in));
}

// Unexecuted variants fail the queue as an illegal instruction; a T# pointing nowhere is a page fault.
TEST(IsaImage, ISA_IMG_3_UnexecutedVariantsAndBadAddressesFailTheQueue) {
  ASSERT_TRUE(kernels().ok()) << kernels().error();
  Image2D img{kFormats[0], 4, 4, 4, std::vector<uint8_t>(4 * 4 * 16 + 256), {4, 5, 6, 7}};
  std::vector<uint32_t> t = tsharp(img);
  std::vector<int> xs(8, 1), ys(8, 1);
  std::vector<float> out(8 * 4 + 64);
  const Allow a(img.data), b(t), c(xs), d(ys), o(out);
  struct {
    uint64_t t, x, y, out;
    int n;
  } args{addr(t), addr(xs), addr(ys), addr(out), 8};
  t[3] |= 4u << 20;  // SW_MODE 4 (SW_4KB_Z): a Z-order swizzle the model does not address
  Result r = launch("load_2d", args, 8);
  ASSERT_TRUE(r.fault.has_value());
  EXPECT_EQ(r.fault->status, HSA_STATUS_ERROR_ILLEGAL_INSTRUCTION) << r.fault->what;
  const std::vector<uint32_t> fresh = tsharp(img);
  std::copy(fresh.begin(), fresh.end(), t.begin());  // in place: the kernel argument points at t
  t[0] = 0x10;                                       // base 0x1000: not mapped
  t[1] &= ~0xffu;
  r = launch("load_2d", args, 8);
  ASSERT_TRUE(r.fault.has_value());
  EXPECT_EQ(static_cast<uint32_t>(r.fault->status), static_cast<uint32_t>(HSA_STATUS_ERROR_MEMORY_APERTURE_VIOLATION))
      << r.fault->what;
}

#ifdef ROCREF_ISA_MUTANTS
// Every planted image bug makes a check above fail.
TEST(IsaImage, PlantedImageBugsAreCaught) {
  std::vector<uint8_t> data(64 * 16);
  for (size_t i = 0; i < data.size(); ++i) data[i] = static_cast<uint8_t>(i * 37 + 11);
  const uint32_t sel[4] = {6, 4, 1, 5};
  ASSERT_TRUE(check_fetch(kFormats[2], data, 64, sel, true));
  {
    Mutant m(IsaMutant::FormatIgnoresDstSel);
    EXPECT_FALSE(check_fetch(kFormats[2], data, 64, sel, true));
  }
  Image2D img{kFormats[0], 4, 3, 5, std::vector<uint8_t>(5 * 3 * 16 + 256), {4, 5, 6, 7}};
  for (size_t i = 0; i < img.data.size(); i += 4) {
    const float v = static_cast<float>(i % 97);
    std::memcpy(&img.data[i], &v, 4);
  }
  const Samp s{2, 1, 0, false};
  std::vector<float> us = {0.1f, 0.37f, 0.5f, 0.9f}, vs = {0.2f, 0.5f, 0.75f, 0.33f};
  ASSERT_TRUE(check_sample(img, s, us, vs, nullptr));
  {
    Mutant m(IsaMutant::LinearNoHalfTexel);
    EXPECT_FALSE(check_sample(img, s, us, vs, nullptr));
  }
  // SW_4KB_D_X, 4-byte texels, three slices of a 40x9 array: the pipe XOR moves texels between 256-byte runs.
  TiledImage tiled{kFormats[4], kSwModes[7], 40, 9, 3, 64, 2, 32, 32, std::vector<uint8_t>(3 * 2 * 4096 + 4096)};
  std::mt19937 random_bytes(7);  // no period: the XOR moves texels by multiples of 256 bytes
  for (auto& b : tiled.memory) b = static_cast<uint8_t>(random_bytes());
  Coords c;
  for (int i = 0; i < 120; ++i) {
    c.x.push_back(i % 40);
    c.y.push_back(i % 9);
    c.layer.push_back(i % 3);
  }
  ASSERT_TRUE(check_tiled_load(tiled, true, c));
  {
    Mutant m(IsaMutant::TiledNoPipeBankXor);
    EXPECT_FALSE(check_tiled_load(tiled, true, c));
  }
}
#endif

}  // namespace
}  // namespace rocref::gpu::isa
