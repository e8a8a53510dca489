// gpu/isa/vector_half.cpp - VALU f16 (VOP1, VOP2, VOPC, VOP3): add, sub, mul, min, max, fma, conversions, compares.
//
// The f16 operand is the low half of the 32-bit source; float inline constants
// are their f16 values; VOP3 abs/neg act on the f16 sign, omod and clamp on the
// result; an f16 result is written to the low half with the high half zeroed
// (gfx9). Arithmetic rounds once, IEEE round-to-nearest-even (half.h). VOP3
// op_sel on these opcodes, v_mad_f16 / v_mac_f16 and the transcendental f16
// opcodes are not executed (ISA-EXEC-9). v_pack_b32_f16 packs two f16 operands,
// op_sel choosing each source's half and abs/neg acting on its sign (ISA-EXEC-9).
#include <algorithm>

#include "gpu/isa/float_compare.h"
#include "gpu/isa/half.h"
#include "gpu/isa/vector_operands.h"

namespace rocref::gpu::isa {
namespace {

enum : uint16_t {
  kClassF16 = 0x14, kCmpxClassF16 = 0x15, kAddF16 = 0x11f, kSubF16 = 0x120, kSubrevF16 = 0x121, kMulF16 = 0x122,
  kMaxF16 = 0x12d, kMinF16 = 0x12e, kCvtF16F32 = 0x14a, kCvtF32F16 = 0x14b, kCvtF16U16 = 0x179, kCvtF16I16 = 0x17a,
  kCvtU16F16 = 0x17b, kCvtI16F16 = 0x17c, kFmaF16 = 0x206,
};

constexpr uint16_t kPackB32F16 = 0x2a0;  // v_pack_b32_f16 (VOP3)

bool is_half_op(uint16_t op) {
  switch (op) {
    case kClassF16: case kCmpxClassF16: case kAddF16: case kSubF16: case kSubrevF16: case kMulF16: case kMaxF16:
    case kMinF16: case kCvtF16F32: case kCvtF32F16: case kCvtF16U16: case kCvtF16I16: case kCvtU16F16:
    case kCvtI16F16: case kFmaF16:
      return true;
    default:
      return op >= 0x20 && op <= 0x3f;  // v_cmp_*_f16, v_cmpx_*_f16
  }
}

// Source i as an f16 value with its VOP3/SDWA/DPP abs and neg applied.
double half_source(const Inst& in, unsigned i, uint32_t v) {
  uint16_t h = static_cast<uint16_t>(v);
  if ((in.abs >> i) & 1) h &= 0x7fff;
  if ((in.neg >> i) & 1) h ^= 0x8000;
  return half_value(h);
}

uint32_t half_result(const Inst& in, double r) {
  if (in.omod == 1) r *= 2.0;
  else if (in.omod == 2) r *= 4.0;
  else if (in.omod == 3) r *= 0.5;
  uint16_t bits = half_bits(r);
  if (in.clamp) {
    const double v = half_value(bits);
    bits = std::isnan(v) || v <= 0.0 ? 0 : half_bits(std::min(v, 1.0));  // -0 clamps to +0
  }
  if (isa_mutant_active(IsaMutant::HalfResultKeepsHighBits)) return bits | 0xffff0000u;
  return bits;
}

// v_cmp_class_f16: bit 0 signalling NaN, 1 quiet NaN, 2 -inf, 3 -normal, 4 -denormal, 5 -0, 6 +0, 7 +denormal, 8 +normal, 9 +inf.
unsigned half_class(uint16_t h) {
  const bool neg = (h & 0x8000) != 0;
  const unsigned exp = (h >> 10) & 0x1f, mant = h & 0x3ff;
  if (exp == 0x1f) return mant != 0 ? ((mant & 0x200) ? 1 : 0) : (neg ? 2 : 9);
  if (exp != 0) return neg ? 3 : 8;
  if (mant != 0) return neg ? 4 : 7;
  return neg ? 5 : 6;
}

// Source i's f16 bits: the half op_sel bit i selects, abs/neg on its sign (v_pack_b32_f16).
uint16_t packed_half_source(const Inst& in, unsigned i, uint32_t v) {
  uint16_t h = static_cast<uint16_t>(((in.opsel >> i) & 1) ? v >> 16 : v);
  if ((in.abs >> i) & 1) h &= 0x7fff;
  if ((in.neg >> i) & 1) h ^= 0x8000;
  return h;
}

// v_pack_b32_f16: D[15:0] = S0.f16, D[31:16] = S1.f16 (Vega ISA, VOP3 opcode 0x2a0).
Step exec_pack_b32_f16(Wave& w, const Inst& in, ExecContext& ctx) {
  if ((in.opsel & 0x4) != 0 || (in.opsel & 0x8) != 0 || in.omod != 0 || in.clamp != 0)
    return ctx.illegal(in, w.pc, "unimplemented (v_pack_b32_f16 with dst op_sel, omod or clamp)");
  Lanes32 s[2];
  for (unsigned i = 0; i < 2; ++i) {
    uint32_t value;
    if (half_inline_constant(in.src[i], &value)) {
      for (unsigned l = 0; l < kWaveLanes; ++l) s[i].buf[l] = value;
      s[i].p = s[i].buf;
    } else if (!read32(w, in.src[i], in.literal, s[i])) {
      return ctx.illegal(in, w.pc, "out-of-range VGPR in");
    }
  }
  if (!w.vgpr_ok(in.vdst)) return ctx.illegal(in, w.pc, "out-of-range VGPR in");
  write_lanes32(w, in.vdst, active_lanes(w), [&](unsigned l) -> uint32_t {
    const uint32_t lo = packed_half_source(in, 0, s[0][l]), hi = packed_half_source(in, 1, s[1][l]);
    if (isa_mutant_active(IsaMutant::PackHalvesSwapped)) return hi | lo << 16;
    return lo | hi << 16;
  });
  return Step::Next;
}

}  // namespace

bool exec_vector_half(Wave& w, const Inst& in, ExecContext& ctx, Step* step) {
  if (in.op == kPackB32F16) {
    *step = exec_pack_b32_f16(w, in, ctx);
    return true;
  }
  if (!is_half_op(in.op)) return false;
  if (in.opsel != 0) {
    *step = ctx.illegal(in, w.pc, "unimplemented (f16 op_sel)");
    return true;
  }
  Lanes32 s[3];
  for (unsigned i = 0; i < 3; ++i) {
    uint32_t value;
    // f16 operands see the f16 form of a float inline constant (v_cvt_f16_f32 reads an f32).
    if (in.op != kCvtF16F32 && half_inline_constant(in.src[i], &value)) {
      for (unsigned l = 0; l < kWaveLanes; ++l) s[i].buf[l] = value;
      s[i].p = s[i].buf;
    } else if (!read32(w, in.src[i], in.literal, s[i])) {
      *step = ctx.illegal(in, w.pc, "out-of-range VGPR in");
      return true;
    }
  }
  const uint64_t exec = active_lanes(w);
  *step = Step::Next;
  if (in.op < 0x40) {  // compares and classes: a lane mask
    uint64_t mask = 0;
    const bool is_class = in.op < 0x20;
    for (unsigned l = 0; l < kWaveLanes; ++l) {
      const double x = half_source(in, 0, s[0][l]);
      bool r;
      if (is_class) {
        uint16_t h = static_cast<uint16_t>(s[0][l]);
        if (in.abs & 1) h &= 0x7fff;
        if (in.neg & 1) h ^= 0x8000;
        r = ((s[1][l] >> half_class(h)) & 1) != 0;
      } else {
        r = fcompare(in.op & 15, x, half_source(in, 1, s[1][l]));
      }
      mask |= uint64_t{r} << l;
    }
    mask &= exec;
    scalar_write64(w, in.sdst, mask);
    if (is_class ? in.op == kCmpxClassF16 : in.op >= 0x30) w.set_exec(mask);
    return true;
  }
  if (!w.vgpr_ok(in.vdst)) {
    *step = ctx.illegal(in, w.pc, "out-of-range VGPR in");
    return true;
  }
  write_lanes32(w, in.vdst, exec, [&](unsigned l) -> uint32_t {
    const double x = half_source(in, 0, s[0][l]);
    switch (in.op) {
      case kAddF16: return half_result(in, x + half_source(in, 1, s[1][l]));
      case kSubF16: return half_result(in, x - half_source(in, 1, s[1][l]));
      case kSubrevF16: return half_result(in, half_source(in, 1, s[1][l]) - x);
      case kMulF16: return half_result(in, x * half_source(in, 1, s[1][l]));
      case kMaxF16: return half_result(in, half_max(x, half_source(in, 1, s[1][l])));
      case kMinF16: return half_result(in, half_min(x, half_source(in, 1, s[1][l])));
      case kFmaF16: return half_result(in, x * half_source(in, 1, s[1][l]) + half_source(in, 2, s[2][l]));
      case kCvtF16F32: {  // one rounding f32 -> f16 (abs/neg act on the f32 source)
        float f = as_f32(s[0][l]);
        if (in.abs & 1) f = std::fabs(f);
        if (in.neg & 1) f = -f;
        return half_result(in, static_cast<double>(half_value(half_bits_from_f32(f))));
      }
      case kCvtF32F16: {
        float f = static_cast<float>(x);
        if (in.omod == 1) f *= 2.0f;
        else if (in.omod == 2) f *= 4.0f;
        else if (in.omod == 3) f *= 0.5f;
        if (in.clamp) f = std::isnan(f) ? 0.0f : std::fmin(std::fmax(f, 0.0f), 1.0f);
        return f32_bits(f);
      }
      case kCvtF16U16: return half_result(in, static_cast<double>(static_cast<uint16_t>(s[0][l])));
      case kCvtF16I16: return half_result(in, static_cast<double>(static_cast<int16_t>(s[0][l])));
      case kCvtU16F16: return std::isnan(x) ? 0u : static_cast<uint32_t>(std::clamp(std::trunc(x), 0.0, 65535.0));
      default:  // kCvtI16F16
        return std::isnan(x) ? 0u : static_cast<uint16_t>(static_cast<int16_t>(std::clamp(std::trunc(x), -32768.0, 32767.0)));
    }
  });
  return true;
}

}  // namespace rocref::gpu::isa
