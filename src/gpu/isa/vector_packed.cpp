// gpu/isa/vector_packed.cpp - VOP3P: packed 16-bit integer and f16 math (v_pk_*), mixed-precision v_mad_mix*.
//
// Each 32-bit source holds two 16-bit halves. The low result half reads half
// op_sel[i] of source i, the high result half reads half op_sel_hi[i]
// (Vega ISA 6.3, 12.6); neg_lo / neg_hi negate the f16 inputs of the low /
// high computation. v_mad_mix* take source i as f16 (half op_sel[i]) when
// op_sel_hi[i] is set, else as f32; neg_lo / neg_hi are then neg / abs of the
// source (ISA-EXEC-6). Float inline constants are f16 for f16 operands.
#include <algorithm>

#include "gpu/isa/half.h"
#include "gpu/isa/vector_operands.h"

namespace rocref::gpu::isa {
namespace {

enum : uint16_t {
  kPkMadI16 = 0x00, kPkMulLoU16, kPkAddI16, kPkSubI16, kPkLshlrevB16, kPkLshrrevB16, kPkAshrrevI16, kPkMaxI16,
  kPkMinI16, kPkMadU16, kPkAddU16, kPkSubU16, kPkMaxU16, kPkMinU16, kPkFmaF16, kPkAddF16, kPkMulF16, kPkMinF16,
  kPkMaxF16, kMadMixF32 = 0x20, kMadMixloF16, kMadMixhiF16,
};

int32_t saturate(int64_t v, int64_t lo, int64_t hi) { return static_cast<int32_t>(std::clamp(v, lo, hi)); }

// One 16-bit integer half: the result before packing (clamp saturates add, sub and mad).
uint16_t int_half(uint16_t op, uint16_t a, uint16_t b, uint16_t c, bool clamp) {
  const int64_t sa = static_cast<int16_t>(a), sb = static_cast<int16_t>(b), sc = static_cast<int16_t>(c);
  int64_t r;
  switch (op) {
    case kPkMadI16: r = sa * sb + sc; return static_cast<uint16_t>(clamp ? saturate(r, INT16_MIN, INT16_MAX) : r);
    case kPkAddI16: r = sa + sb; return static_cast<uint16_t>(clamp ? saturate(r, INT16_MIN, INT16_MAX) : r);
    case kPkSubI16: r = sa - sb; return static_cast<uint16_t>(clamp ? saturate(r, INT16_MIN, INT16_MAX) : r);
    case kPkMadU16: r = int64_t{a} * b + c; return static_cast<uint16_t>(clamp ? saturate(r, 0, UINT16_MAX) : r);
    case kPkAddU16: r = int64_t{a} + b; return static_cast<uint16_t>(clamp ? saturate(r, 0, UINT16_MAX) : r);
    case kPkSubU16: r = int64_t{a} - b; return static_cast<uint16_t>(clamp ? saturate(r, 0, UINT16_MAX) : r);
    case kPkMulLoU16: return static_cast<uint16_t>(a * b);
    case kPkLshlrevB16: return static_cast<uint16_t>(b << (a & 15));
    case kPkLshrrevB16: return static_cast<uint16_t>(b >> (a & 15));
    case kPkAshrrevI16: return static_cast<uint16_t>(sb >> (a & 15));
    case kPkMaxI16: return static_cast<uint16_t>(std::max(sa, sb));
    case kPkMinI16: return static_cast<uint16_t>(std::min(sa, sb));
    case kPkMaxU16: return std::max(a, b);
    default: return std::min(a, b);  // kPkMinU16
  }
}

// One f16 half: inputs already negated as neg_lo / neg_hi say; clamp to [0, 1] (NaN -> 0, DX10_CLAMP).
uint16_t float_half(uint16_t op, uint16_t a, uint16_t b, uint16_t c, bool clamp) {
  const double x = half_value(a), y = half_value(b), z = half_value(c);
  double r;
  switch (op) {
    case kPkFmaF16: r = x * y + z; break;  // exact product in double: one rounding (half.h)
    case kPkAddF16: r = x + y; break;
    case kPkMulF16: r = x * y; break;
    case kPkMinF16: r = half_min(x, y); break;
    default: r = half_max(x, y); break;  // kPkMaxF16
  }
  uint16_t bits = half_bits(r);
  if (clamp) {
    const double v = half_value(bits);
    bits = std::isnan(v) || v <= 0.0 ? 0 : half_bits(std::min(v, 1.0));  // -0 clamps to +0
  }
  return bits;
}

bool is_float_op(uint16_t op) { return op >= kPkFmaF16 && op <= kPkMaxF16; }
unsigned source_count(uint16_t op) {
  return op == kPkMadI16 || op == kPkMadU16 || op == kPkFmaF16 || op >= kMadMixF32 ? 3 : 2;
}

// v_mad_mix*: source i as f32 (op_sel_hi[i] clear) or as the f16 half op_sel[i] (set).
float mix_source(const Inst& in, unsigned i, uint32_t v) {
  float f;
  if ((in.opsel_hi >> i) & 1) {
    f = static_cast<float>(half_value(static_cast<uint16_t>((in.opsel >> i) & 1 ? v >> 16 : v)));
  } else {
    f = as_f32(v);
  }
  if ((in.abs >> i) & 1) f = std::fabs(f);  // neg_hi is abs for the mix instructions
  if ((in.neg >> i) & 1) f = -f;
  return f;
}

}  // namespace

Step exec_vop3p(Wave& w, const Inst& in, ExecContext& ctx) {
  const uint16_t op = in.op;
  if (op > kPkMaxF16 && (op < kMadMixF32 || op > kMadMixhiF16)) return ctx.illegal(in, w.pc, "unimplemented");
  const bool mix = op >= kMadMixF32;
  const bool fp = mix || is_float_op(op);
  // neg_lo / neg_hi have no meaning for the integer ops: a combination the model does not execute.
  if (!fp && (in.neg | in.abs) != 0) return ctx.illegal(in, w.pc, "unimplemented (integer VOP3P with neg)");
  const unsigned nsrc = source_count(op);
  Lanes32 s[3];
  for (unsigned i = 0; i < 3; ++i) {
    const uint16_t code = i < nsrc ? in.src[i] : static_cast<uint16_t>(kConstZero);
    uint32_t value;
    // f16 operands see the f16 form of a float inline constant (mix: only where op_sel_hi marks f16).
    if ((is_float_op(op) || (mix && ((in.opsel_hi >> i) & 1))) && half_inline_constant(code, &value)) {
      for (unsigned l = 0; l < kWaveLanes; ++l) s[i].buf[l] = value;
      s[i].p = s[i].buf;
    } else if (!read32(w, code, in.literal, s[i])) {
      return ctx.illegal(in, w.pc, "out-of-range VGPR in");
    }
  }
  if (!w.vgpr_ok(in.vdst)) return ctx.illegal(in, w.pc, "out-of-range VGPR in");
  const uint64_t exec = active_lanes(w);
  const uint32_t* old = w.vrow(in.vdst);  // mixlo/mixhi keep the other half
  if (mix) {
    write_lanes32(w, in.vdst, exec, [&](unsigned l) -> uint32_t {
      // Unfused like v_mad_f32: the product rounds to f32 (this file is built with -ffp-contract=off).
      const float product = mix_source(in, 0, s[0][l]) * mix_source(in, 1, s[1][l]);
      float r = product + mix_source(in, 2, s[2][l]);
      if (in.clamp) r = std::isnan(r) ? 0.0f : std::fmin(std::fmax(r, 0.0f), 1.0f);
      if (op == kMadMixF32) return f32_bits(r);
      const uint32_t h = half_bits_from_f32(r);
      return op == kMadMixloF16 ? (old[l] & 0xffff0000u) | h : (old[l] & 0xffffu) | h << 16;
    });
    return Step::Next;
  }
  const bool hi_ignores_opsel = isa_mutant_active(IsaMutant::PackedOpSelHiIgnored);
  write_lanes32(w, in.vdst, exec, [&](unsigned l) -> uint32_t {
    uint16_t lo_in[3], hi_in[3];
    for (unsigned i = 0; i < 3; ++i) {
      const uint32_t v = s[i][l];
      lo_in[i] = static_cast<uint16_t>((in.opsel >> i) & 1 ? v >> 16 : v);
      hi_in[i] = static_cast<uint16_t>(hi_ignores_opsel || ((in.opsel_hi >> i) & 1) ? v >> 16 : v);
      if (fp) {
        lo_in[i] ^= static_cast<uint16_t>(((in.neg >> i) & 1) << 15);
        hi_in[i] ^= static_cast<uint16_t>(((in.abs >> i) & 1) << 15);  // neg_hi
      }
    }
    const uint16_t lo = fp ? float_half(op, lo_in[0], lo_in[1], lo_in[2], in.clamp)
                           : int_half(op, lo_in[0], lo_in[1], lo_in[2], in.clamp);
    const uint16_t hi = fp ? float_half(op, hi_in[0], hi_in[1], hi_in[2], in.clamp)
                           : int_half(op, hi_in[0], hi_in[1], hi_in[2], in.clamp);
    return uint32_t{lo} | uint32_t{hi} << 16;
  });
  return Step::Next;
}

}  // namespace rocref::gpu::isa
