// gpu/isa/image.cpp - MIMG: image_load(_mip), image_store(_mip), image_sample(_l, _lz) on linear images
// and on 2D (array) images in the gfx9 S/D swizzle modes (tiling.h, ISA-IMG-4).
//
// The T# (8 SGPRs at srsrc) and S# (4 SGPRs at ssamp) are read with the gfx9
// layouts of common/resource_descriptors.h; every texel goes through the context's
// memory (GPUVM), so a bad address is a GPU page fault (ISA-MEM-1). What the
// model does not execute fails the queue as an illegal instruction (ISA-ERR-1):
// the other swizzle modes (Z, R, PRT) and tiled 1D/3D images, mip chains, cube maps,
// packed formats, border colour tables, linear filtering of integer formats,
// d16/a16/tfe/lwe (ISA-IMG-3).
#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>

#include "common/resource_descriptors.h"
#include "gpu/isa/texel_format.h"
#include "gpu/isa/tiling.h"
#include "gpu/isa/vector_operands.h"

namespace rocref::gpu::isa {

using namespace rocref::rsrc;  // the descriptor layouts (common/resource_descriptors.h)
namespace {

enum MimgOp : uint16_t {
  kLoad = 0x00,
  kLoadMip = 0x01,
  kStore = 0x08,
  kStoreMip = 0x09,
  kSample = 0x20,
  kSampleL = 0x24,
  kSampleLz = 0x27
};

struct Image {
  uint64_t base = 0;
  uint32_t size[3] = {1, 1, 1};  // width, height, depth or layers
  uint32_t pitch = 1;            // texels per row
  unsigned coords = 1;           // address VGPRs (before mip / lod)
  bool array = false;            // the last coordinate is a layer index
  TexelFormat texel;
  uint32_t dst_sel[4] = {};
  bool tiled = false;  // SW_MODE != 0: `tiling` addresses the texels
  Tiling tiling;
};

struct Sampler {
  uint32_t clamp[3] = {};
  bool normalized = true;
  uint32_t filter = 0;  // 0 point, 1 linear
  uint32_t border = 0;
};

// Returns nullptr when the T# describes something this model does not execute.
const char* read_image(const uint32_t* t, Image* img) {
  const uint32_t type = tsharp::kType.get(t);
  switch (type) {
    case tsharp::k1D: img->coords = 1; break;
    case tsharp::k2D: img->coords = 2; break;
    case tsharp::k3D: img->coords = 3; break;
    case tsharp::k1DArray:
      img->coords = 2;
      img->array = true;
      break;
    case tsharp::k2DArray:
      img->coords = 3;
      img->array = true;
      break;
    default: return "unimplemented (T# type of)";
  }
  if (tsharp::kLastLevel.get(t) != tsharp::kBaseLevel.get(t)) return "unimplemented (mip-mapped T# of)";
  if (!texel_format(tsharp::kDataFormat.get(t), tsharp::kNumFormat.get(t), &img->texel)) {
    return "unimplemented (T# data/num format of)";
  }
  if (const uint32_t sw_mode = tsharp::kSwMode.get(t); sw_mode != 0) {
    if (type != tsharp::k2D && type != tsharp::k2DArray) return "unimplemented (tiled 1D/3D T# of)";
    if (!tiling_of(sw_mode, img->texel.bytes, &img->tiling)) return "unimplemented (tiled T# SW_MODE of)";
    img->tiled = true;
  }
  img->base = (uint64_t{tsharp::kBaseLo.get(t)} | uint64_t{tsharp::kBaseHi.get(t)} << 32) << 8;
  img->size[0] = tsharp::kWidth.get(t) + 1;
  img->size[1] = type == tsharp::k1D || type == tsharp::k1DArray ? 1 : tsharp::kHeight.get(t) + 1;
  img->size[2] = type == tsharp::k3D || img->array ? tsharp::kDepth.get(t) + 1 : 1;
  img->pitch = tsharp::kPitch.get(t) + 1;
  const DescField sels[4] = {tsharp::kDstSelX, tsharp::kDstSelY, tsharp::kDstSelZ, tsharp::kDstSelW};
  for (unsigned c = 0; c < 4; ++c) img->dst_sel[c] = sels[c].get(t);
  return nullptr;
}

// The texel (x, y, z) of a linear image: rows of `pitch` texels, slices of height rows;
// of a tiled one: where the swizzle mode puts it (z is the array slice).
uint64_t texel_address(const Image& img, uint32_t x, uint32_t y, uint32_t z) {
  if (img.tiled) {
    return img.base + tiled_offset(img.tiling, decode_gb_addr_config(kGbAddrConfig), img.pitch, img.size[1], x, y, z);
  }
  return img.base + ((uint64_t{z} * img.size[1] + y) * img.pitch + x) * img.texel.bytes;
}

// Integer coordinates in the image's order (a 1D array's layer is the second coordinate).
void coords_xyz(const Image& img, const int64_t* c, int64_t out[3]) {
  out[0] = c[0];
  out[1] = img.coords > 1 && !(img.array && img.coords == 2) ? c[1] : 0;
  out[2] = img.coords == 3 ? c[2] : (img.array && img.coords == 2 ? c[1] : 0);
}

bool in_range(const Image& img, const int64_t xyz[3]) {
  for (unsigned d = 0; d < 3; ++d) {
    if (xyz[d] < 0 || xyz[d] >= img.size[d]) return false;
  }
  return true;
}

// SQ_TEX_CLAMP on a texel index; -1: the border colour.
int64_t address_mode(uint32_t mode, int64_t i, int64_t n) {
  switch (mode) {
    case ssharp::kWrap: return ((i % n) + n) % n;
    case ssharp::kMirror: {
      const int64_t m = ((i % (2 * n)) + 2 * n) % (2 * n);
      return m < n ? m : 2 * n - 1 - m;
    }
    case ssharp::kMirrorOnceLastTexel: return std::clamp<int64_t>(i < 0 ? -1 - i : i, 0, n - 1);
    case ssharp::kClampBorder: return i < 0 || i >= n ? -1 : i;
    default: return std::clamp<int64_t>(i, 0, n - 1);  // CLAMP_LAST_TEXEL
  }
}

struct LaneRun {
  Wave& w;
  const Inst& in;
  ExecContext& ctx;
  const Image& img;
};

// Reads one texel's channels; false on a fault.
bool fetch(LaneRun& r, int64_t x, int64_t y, int64_t z, uint32_t channels[4]) {
  const uint64_t va =
      texel_address(r.img, static_cast<uint32_t>(x), static_cast<uint32_t>(y), static_cast<uint32_t>(z));
  const auto* p = static_cast<const uint8_t*>(r.ctx.map(va, r.img.texel.bytes, Access::Read));
  if (p == nullptr) {
    r.ctx.memory_fault(va, "image load");
    return false;
  }
  unpack_texel(r.img.texel, p, channels);
  return true;
}

void border_channels(const Sampler& s, const TexelFormat& f, uint32_t out[4]) {
  const uint32_t one = f.integer() ? 1u : 0x3f800000u;
  const uint32_t rgb = s.border == ssharp::kOpaqueWhite ? one : 0u;
  out[0] = out[1] = out[2] = rgb;
  out[3] = s.border == ssharp::kTransparentBlack ? 0u : one;
}

// Texel-space coordinates carry 8 fraction bits (round to nearest): the subtexel precision the
// filter weights and the point-sampled texel derive from (ISA-IMG-2).
double subtexel(double t) { return std::nearbyint(t * 256.0) / 256.0; }

// One lane's filtered channels at texel-space coordinates t (before address modes).
bool sample_lane(LaneRun& r, const Sampler& s, const double t[3], const bool filtered[3], uint32_t out[4]) {
  // Per dimension: up to two texel indices and their weights.
  int64_t idx[3][2] = {};
  double wt[3][2] = {{1, 0}, {1, 0}, {1, 0}};
  unsigned taps[3] = {1, 1, 1};
  for (unsigned d = 0; d < 3; ++d) {
    const int64_t n = r.img.size[d];
    if (d >= r.img.coords) {
      idx[d][0] = 0;
      continue;
    }
    if (r.img.array && d == r.img.coords - 1) {  // the layer: rounded and clamped, never filtered
      idx[d][0] = std::clamp<int64_t>(static_cast<int64_t>(std::nearbyint(t[d])), 0, n - 1);
      continue;
    }
    if (!filtered[d]) {
      idx[d][0] = address_mode(s.clamp[d], static_cast<int64_t>(std::floor(t[d])), n);
      continue;
    }
    const double c = t[d] - (isa_mutant_active(IsaMutant::LinearNoHalfTexel) ? 0.0 : 0.5), f = std::floor(c), a = c - f;
    idx[d][0] = address_mode(s.clamp[d], static_cast<int64_t>(f), n);
    idx[d][1] = address_mode(s.clamp[d], static_cast<int64_t>(f) + 1, n);
    wt[d][0] = 1 - a;
    wt[d][1] = a;
    taps[d] = 2;
  }
  double acc[4] = {0, 0, 0, 0};
  bool any_linear = taps[0] * taps[1] * taps[2] > 1;
  for (unsigned k = 0; k < taps[2]; ++k) {
    for (unsigned j = 0; j < taps[1]; ++j) {
      for (unsigned i = 0; i < taps[0]; ++i) {
        uint32_t ch[4];
        if (idx[0][i] < 0 || idx[1][j] < 0 || idx[2][k] < 0) {
          border_channels(s, r.img.texel, ch);
        } else if (!fetch(r, idx[0][i], idx[1][j], idx[2][k], ch)) {
          return false;
        }
        if (!any_linear) {
          std::memcpy(out, ch, sizeof ch);
          return true;
        }
        const double weight = wt[0][i] * wt[1][j] * wt[2][k];
        for (unsigned c = 0; c < 4; ++c) acc[c] += weight * std::bit_cast<float>(ch[c]);
      }
    }
  }
  for (unsigned c = 0; c < 4; ++c) out[c] = std::bit_cast<uint32_t>(static_cast<float>(acc[c]));
  return true;
}

// Writes the dmask-selected result components (after DST_SEL) to consecutive VDATA registers.
void write_components(Wave& w, const Inst& in, unsigned lane, const uint32_t result[4]) {
  unsigned r = 0;
  for (unsigned c = 0; c < 4; ++c) {
    if ((in.dmask >> c) & 1) w.vrow(in.vdata + r++)[lane] = result[c];
  }
}

}  // namespace

Step exec_mimg(Wave& w, const Inst& in, ExecContext& ctx) {
  const uint16_t op = in.op;
  const bool load = op == kLoad || op == kLoadMip, store = op == kStore || op == kStoreMip;
  const bool sample = op == kSample || op == kSampleL || op == kSampleLz;
  if (!load && !store && !sample) return ctx.illegal(in, w.pc, "unimplemented");
  if (in.mimg & (kMimgA16 | kMimgTfe | kMimgLwe | kMimgD16))
    return ctx.illegal(in, w.pc, "unimplemented (d16/a16/tfe/lwe)");
  const uint64_t exec = w.exec();
  if (exec == 0) return Step::Next;  // no lane: neither descriptor is read
  if (in.saddr + 8 > 102 || (sample && in.soffset + 4 > 102)) return ctx.illegal(in, w.pc, "out-of-range T#/S# in");
  Image img;
  if (const char* why = read_image(&w.s[in.saddr], &img)) return ctx.illegal(in, w.pc, why);
  const unsigned ndata = static_cast<unsigned>(std::popcount(static_cast<unsigned>(in.dmask)));
  const unsigned naddr = img.coords + ((op == kLoadMip || op == kStoreMip || op == kSampleL) ? 1 : 0);
  if (!w.vgpr_ok(in.vaddr, naddr) || !w.vgpr_ok(in.vdata, std::max(1u, ndata))) {
    return ctx.illegal(in, w.pc, "out-of-range VGPR in");
  }
  LaneRun run{w, in, ctx, img};
  Sampler s;
  bool filtered[3] = {};
  if (sample) {
    const uint32_t* sp = &w.s[in.soffset];
    const uint32_t mag = ssharp::kXyMagFilter.get(sp) & 1, min = ssharp::kXyMinFilter.get(sp) & 1;
    if (op == kSample && mag != min)
      return ctx.illegal(in, w.pc, "unimplemented (implicit LOD with min != mag filter)");
    if (ssharp::kBorderColorType.get(sp) == 3) return ctx.illegal(in, w.pc, "unimplemented (border colour table of)");
    s.clamp[0] = ssharp::kClampX.get(sp);
    s.clamp[1] = ssharp::kClampY.get(sp);
    s.clamp[2] = ssharp::kClampZ.get(sp);
    for (uint32_t c : s.clamp) {
      if (c == 4 || c == 5 || c == 7) return ctx.illegal(in, w.pc, "unimplemented (S# half-border clamp of)");
    }
    s.normalized = (in.mimg & kMimgUnorm) == 0 && ssharp::kForceUnnormalized.get(sp) == 0;
    s.border = ssharp::kBorderColorType.get(sp);
    s.filter = mag;
    filtered[0] = filtered[1] = s.filter == ssharp::kBilinear;
    filtered[2] = img.coords == 3 && !img.array && ssharp::kZFilter.get(sp) == 2;
    if ((filtered[0] || filtered[2]) && img.texel.integer()) {
      return ctx.illegal(in, w.pc, "unimplemented (linear filter of an integer format in)");
    }
  }
  for (unsigned l = 0; l < kWaveLanes; ++l) {
    if (((exec >> l) & 1) == 0) continue;
    uint32_t channels[4] = {0, 0, 0, 0}, result[4];
    if (sample) {
      uint32_t lod_choice = s.filter;
      if (op == kSampleL) {  // lod > 0 minifies: the min filter decides
        const float lod = std::bit_cast<float>(w.vrow(in.vaddr + img.coords)[l]);
        lod_choice = lod > 0 ? ssharp::kXyMinFilter.get(&w.s[in.soffset]) & 1 : s.filter;
      }
      bool f[3] = {lod_choice == ssharp::kBilinear, lod_choice == ssharp::kBilinear, filtered[2]};
      double t[3] = {0, 0, 0};
      for (unsigned d = 0; d < img.coords; ++d) {
        // NaN reads as 0; huge coordinates are clamped far outside any image (no integer overflow).
        const float raw = std::bit_cast<float>(w.vrow(in.vaddr + d)[l]);
        const double u = std::isnan(raw) ? 0.0 : std::clamp<double>(raw, -1e9, 1e9);
        const bool layer = img.array && d == img.coords - 1;
        t[d] = layer ? u : subtexel(s.normalized ? u * img.size[d] : u);
      }
      if (!sample_lane(run, s, t, f, channels)) return Step::Fault;
      apply_dst_sel(img.texel, channels, img.dst_sel, result);
      write_components(w, in, l, result);
      continue;
    }
    int64_t c[3] = {0, 0, 0}, xyz[3];
    for (unsigned d = 0; d < img.coords; ++d) c[d] = w.vrow(in.vaddr + d)[l];
    coords_xyz(img, c, xyz);
    const uint32_t mip = (op == kLoadMip || op == kStoreMip) ? w.vrow(in.vaddr + img.coords)[l] : 0;
    const bool inside = in_range(img, xyz) && mip == 0;  // one level: any other mip is out of range
    const uint64_t va =
        texel_address(img, static_cast<uint32_t>(xyz[0]), static_cast<uint32_t>(xyz[1]), static_cast<uint32_t>(xyz[2]));
    if (load) {
      std::memset(result, 0, sizeof result);  // out of range: zeros
      if (inside) {
        if (!fetch(run, xyz[0], xyz[1], xyz[2], channels)) return Step::Fault;
        apply_dst_sel(img.texel, channels, img.dst_sel, result);
      }
      write_components(w, in, l, result);
      continue;
    }
    if (!inside) continue;  // out-of-range stores are dropped
    auto* p = static_cast<uint8_t*>(ctx.map(va, img.texel.bytes, Access::ReadWrite));
    if (p == nullptr) return ctx.memory_fault(va, "image store");
    unpack_texel(img.texel, p, channels);  // channels dmask leaves out keep their value
    unsigned r = 0;
    for (unsigned ch = 0; ch < 4; ++ch) {
      if ((in.dmask >> ch) & 1) channels[ch] = w.vrow(in.vdata + r++)[l];
    }
    pack_texel(img.texel, channels, p);
  }
  return Step::Next;
}

}  // namespace rocref::gpu::isa
