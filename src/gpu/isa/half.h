// gpu/isa/half.h - IEEE binary16 for the packed and mixed-precision instructions (VOP3P).
//
// gfx900 rounds f16 add, mul and fma as IEEE round-to-nearest-even with
// denormals (MODE.FP16_DENORM as LLVM sets it). The host's _Float16 conversion
// from double rounds once; a sum, product or fused multiply-add of binary16
// values is exact in double or, where it is not, lies far from a binary16
// rounding boundary, so computing in double and converting once rounds as the
// hardware does.
#pragma once

#include <bit>
#include <cmath>
#include <cstdint>

namespace rocref::gpu::isa {

inline double half_value(uint16_t bits) { return static_cast<double>(std::bit_cast<_Float16>(bits)); }
inline uint16_t half_bits(double v) { return std::bit_cast<uint16_t>(static_cast<_Float16>(v)); }
inline uint16_t half_bits_from_f32(float v) { return std::bit_cast<uint16_t>(static_cast<_Float16>(v)); }

// The f16 form of a float inline constant (operand codes 240-248); other codes keep their 32-bit value.
inline bool half_inline_constant(uint16_t code, uint32_t* out) {
  static constexpr uint16_t kHalf[] = {0x3800, 0xb800, 0x3c00, 0xbc00, 0x4000, 0xc000, 0x4400, 0xc400, 0x3118};
  if (code < 240 || code > 248) return false;
  *out = kHalf[code - 240];
  return true;
}

// IEEE-mode minNum/maxNum on binary16 values: a NaN loses to a number; -0 orders below +0.
inline double half_min(double x, double y) {
  if (x == y) return std::signbit(x) ? x : y;
  return std::fmin(x, y);
}
inline double half_max(double x, double y) {
  if (x == y) return std::signbit(x) ? y : x;
  return std::fmax(x, y);
}

}  // namespace rocref::gpu::isa
