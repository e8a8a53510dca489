// gpu/isa/texel_format.cpp - texel bytes <-> 32-bit components (ISA-IMG-2).
#include "gpu/isa/texel_format.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>

#include "common/resource_descriptors.h"
#include "gpu/isa/half.h"
#include "gpu/isa/isa_mutant.h"

namespace rocref::gpu::isa {

using namespace rocref::rsrc;  // the descriptor layouts (common/resource_descriptors.h)
namespace {

constexpr uint32_t kOneF = 0x3f800000u;  // 1.0f

uint32_t f32(float v) { return std::bit_cast<uint32_t>(v); }
float as_float(uint32_t b) { return std::bit_cast<float>(b); }

uint32_t read_channel(const uint8_t* p, unsigned bits) {
  uint32_t v = 0;
  std::memcpy(&v, p, bits / 8);
  return v;
}

int32_t sign_extend(uint32_t v, unsigned bits) {
  return bits == 32 ? static_cast<int32_t>(v) : static_cast<int32_t>(v << (32 - bits)) >> (32 - bits);
}

// Round half to even, NaN to 0, then clamp: the float -> fixed-point conversion of UNORM/SNORM stores.
uint32_t to_fixed(float v, double scale, float lo, float hi) {
  if (std::isnan(v)) return 0;
  const double c = static_cast<double>(std::clamp(v, lo, hi)) * scale;  // in double: 32-bit UNORM reaches 2^32 - 1
  return static_cast<uint32_t>(static_cast<int64_t>(std::nearbyint(c)));
}

}  // namespace

bool texel_format(uint32_t data_format, uint32_t num_format, TexelFormat* out) {
  struct Row {
    uint8_t dfmt, channels, bits;
  };
  static constexpr Row kRows[] = {{1, 1, 8},  {2, 1, 16},  {3, 2, 8},   {4, 1, 32},  {5, 2, 16},
                                  {10, 4, 8}, {11, 2, 32}, {12, 4, 16}, {13, 3, 32}, {14, 4, 32}};
  if (num_format == 6 || num_format > 7) return false;
  for (const Row& r : kRows) {
    if (r.dfmt != data_format) continue;
    if (num_format == 7 && r.bits == 8) return false;  // no 8-bit float
    out->channels = r.channels;
    out->bits = r.bits;
    out->bytes = static_cast<uint8_t>(r.channels * r.bits / 8);
    out->num_format = static_cast<uint8_t>(num_format);
    return true;
  }
  return false;
}

void unpack_texel(const TexelFormat& f, const uint8_t* bytes, uint32_t out[4]) {
  const uint32_t one = f.integer() ? 1u : kOneF;
  out[0] = out[1] = out[2] = 0;
  out[3] = one;
  const double umax = std::ldexp(1.0, f.bits) - 1, smax = std::ldexp(1.0, f.bits - 1) - 1;
  for (unsigned c = 0; c < f.channels; ++c) {
    const uint32_t raw = read_channel(bytes + c * f.bits / 8, f.bits);
    const int32_t s = sign_extend(raw, f.bits);
    switch (f.num_format) {
      case 0: out[c] = f32(static_cast<float>(raw / umax)); break;                // UNORM
      case 1: out[c] = f32(static_cast<float>(std::max(s / smax, -1.0))); break;  // SNORM
      case 2: out[c] = f32(static_cast<float>(raw)); break;                       // USCALED
      case 3: out[c] = f32(static_cast<float>(s)); break;                         // SSCALED
      case 4: out[c] = raw; break;                                                // UINT
      case 5: out[c] = static_cast<uint32_t>(s); break;                           // SINT
      default: out[c] = f.bits == 16 ? f32(static_cast<float>(half_value(static_cast<uint16_t>(raw)))) : raw;  // FLOAT
    }
  }
}

void pack_texel(const TexelFormat& f, const uint32_t in[4], uint8_t* bytes) {
  const double umax = std::ldexp(1.0, f.bits) - 1, smax = std::ldexp(1.0, f.bits - 1) - 1;
  for (unsigned c = 0; c < f.channels; ++c) {
    const float v = as_float(in[c]);
    uint32_t raw;
    switch (f.num_format) {
      case 0: raw = to_fixed(v, umax, 0.0f, 1.0f); break;
      case 1: raw = to_fixed(v, smax, -1.0f, 1.0f); break;
      case 2:
      case 3:
        raw =
            std::isnan(v) ? 0 : static_cast<uint32_t>(static_cast<int64_t>(std::trunc(std::clamp(v, -2.1e9f, 4.2e9f))));
        break;
      case 4:
      case 5: raw = in[c]; break;
      default: raw = f.bits == 16 ? half_bits_from_f32(v) : in[c];
    }
    std::memcpy(bytes + c * f.bits / 8, &raw, f.bits / 8);
  }
}

void apply_dst_sel(const TexelFormat& f, const uint32_t channels[4], const uint32_t sel[4], uint32_t out[4]) {
  const bool ignore = isa_mutant_active(IsaMutant::FormatIgnoresDstSel);
  for (unsigned c = 0; c < 4; ++c) {
    const uint32_t s = ignore ? kSelX + c : sel[c];
    out[c] = s >= 4 ? channels[s - 4] : s == 1 ? (f.integer() ? 1u : kOneF) : 0u;
  }
}

}  // namespace rocref::gpu::isa
