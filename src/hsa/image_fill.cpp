// hsa/image_fill.cpp - the clear value of one texel (see image_fill.h).
#include "hsa/image_fill.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>

#include "common/resource_descriptors.h"

namespace rocref::hsa {
namespace {

enum : uint32_t { kUnorm = 0, kSnorm = 1, kUint = 4, kSint = 5, kFloat = 7 };

// binary32 -> binary16, round to nearest even; NaN stays NaN, overflow is infinity.
uint16_t half_bits(float value) {
  const uint32_t x = std::bit_cast<uint32_t>(value);
  const uint32_t sign = (x >> 16) & 0x8000u, exponent = (x >> 23) & 0xffu;
  uint32_t mantissa = x & 0x7fffffu;
  if (exponent == 0xff) return static_cast<uint16_t>(sign | 0x7c00u | (mantissa != 0 ? 0x200u | (mantissa >> 13) : 0));
  const int e = static_cast<int>(exponent) - 127 + 15;
  if (e >= 31) return static_cast<uint16_t>(sign | 0x7c00u);
  uint32_t shift = 13;
  uint32_t base = static_cast<uint32_t>(std::max(e, 0)) << 10;
  if (e <= 0) {  // subnormal half: the implicit one joins the mantissa
    if (e < -10) return static_cast<uint16_t>(sign);
    mantissa |= 0x800000u;
    shift = static_cast<uint32_t>(14 - e);
    base = 0;
  }
  uint32_t h = base | (mantissa >> shift);
  const uint32_t rest = mantissa & ((1u << shift) - 1), half = 1u << (shift - 1);
  if (rest > half || (rest == half && (h & 1))) ++h;  // a carry may reach the exponent: correct
  return static_cast<uint16_t>(sign | h);
}

uint32_t to_fixed(float v, double scale, float lo, float hi) {
  if (std::isnan(v)) return 0;
  return static_cast<uint32_t>(
      static_cast<int64_t>(std::nearbyint(static_cast<double>(std::clamp(v, lo, hi)) * scale)));
}

}  // namespace

void fill_texel(const ImageFormat& format, const uint32_t value[4], uint8_t* texel) noexcept {
  const uint32_t channels = format.data_format == 1 || format.data_format == 2 || format.data_format == 4    ? 1
                            : format.data_format == 3 || format.data_format == 5 || format.data_format == 11 ? 2
                                                                                                             : 4;
  const uint32_t bits = format.element_size * 8 / channels;
  for (uint32_t ch = 0; ch < channels; ++ch) {
    // The first component whose DST_SEL reads this channel supplies it.
    uint32_t word = 0;
    for (unsigned c = 0; c < 4; ++c) {
      if (format.dst_sel[c] == rsrc::kSelX + ch) {
        word = value[c];
        break;
      }
    }
    const float f = std::bit_cast<float>(word);
    const double umax = std::ldexp(1.0, static_cast<int>(bits)) - 1,
                 smax = std::ldexp(1.0, static_cast<int>(bits) - 1) - 1;
    uint32_t raw = word;
    switch (format.num_format) {
      case kUnorm: raw = to_fixed(f, umax, 0.0f, 1.0f); break;
      case kSnorm: raw = to_fixed(f, smax, -1.0f, 1.0f); break;
      case kFloat: raw = bits == 16 ? half_bits(f) : word; break;
      default: break;  // kUint, kSint: the low bits
    }
    std::memcpy(texel + ch * bits / 8, &raw, bits / 8);
  }
}

}  // namespace rocref::hsa
