// gpu/isa/vector_float.cpp - VALU floating point: f32/f64 arithmetic, compares, conversions, transcendentals.
//
// gfx900 rounds add/mul/fma/conversions as IEEE round-to-nearest-even, so they
// are computed in host float/double (this file is built with -ffp-contract=off:
// v_mad_f32 rounds the product). rcp, rsq, sqrt, exp, log, sin, cos are
// approximations on the hardware (1 ULP); the host's results lie within those
// bounds. VOP3 abs/neg apply to inputs, omod and clamp to results (ISA-EXEC-5).
#include <bit>
#include <cfenv>
#include <cmath>
#include <limits>
#include <numbers>

#include "gpu/isa/float_compare.h"
#include "gpu/isa/vector_operands.h"

namespace rocref::gpu::isa {
namespace {

struct FloatOperands {
  Lanes32 a, b, c;
};

float mod32(const Inst& in, int i, uint32_t bits) {
  float f = as_f32(bits);
  if ((in.abs >> i) & 1) f = std::fabs(f);
  if ((in.neg >> i) & 1) f = -f;
  return f;
}
double mod64(const Inst& in, int i, uint64_t bits) {
  double f = as_f64(bits);
  if ((in.abs >> i) & 1) f = std::fabs(f);
  if ((in.neg >> i) & 1) f = -f;
  return f;
}

float out32(const Inst& in, float r) {
  if (in.omod == 1) r *= 2.0f;
  else if (in.omod == 2) r *= 4.0f;
  else if (in.omod == 3) r *= 0.5f;
  if (in.clamp) r = std::isnan(r) ? 0.0f : std::fmin(std::fmax(r, 0.0f), 1.0f);
  return r;
}
double out64(const Inst& in, double r) {
  if (in.omod == 1) r *= 2.0;
  else if (in.omod == 2) r *= 4.0;
  else if (in.omod == 3) r *= 0.5;
  if (in.clamp) r = std::isnan(r) ? 0.0 : std::fmin(std::fmax(r, 0.0), 1.0);
  return r;
}

// v_cmp_class: bit 0 signalling NaN, 1 quiet NaN, 2 -inf, 3 -normal, 4 -denormal, 5 -0, 6 +0, 7 +denormal, 8 +normal, 9 +inf.
template <typename T>
unsigned class_bit(T v) {
  const bool neg = std::signbit(v);
  switch (std::fpclassify(v)) {
    case FP_NAN: {
      using U = std::conditional_t<sizeof(T) == 4, uint32_t, uint64_t>;
      const U quiet = U{1} << (std::numeric_limits<T>::digits - 2);
      return (std::bit_cast<U>(v) & quiet) ? 1 : 0;
    }
    case FP_INFINITE: return neg ? 2 : 9;
    case FP_NORMAL: return neg ? 3 : 8;
    case FP_SUBNORMAL: return neg ? 4 : 7;
    default: return neg ? 5 : 6;
  }
}

bool float_compare(Wave& w, const Inst& in, ExecContext& ctx, Step* step) {
  const unsigned op = in.op;
  const bool f64 = (op >= 0x60 && op <= 0x7f) || op == 0x12 || op == 0x13;
  const bool f32 = (op >= 0x40 && op <= 0x5f) || op == 0x10 || op == 0x11;
  if (!f32 && !f64) return false;
  const bool is_class = op < 0x20;
  const bool cmpx = is_class ? (op & 1) != 0 : (op & 0x10) != 0;
  const uint64_t exec = active_lanes(w);
  uint64_t mask = 0;
  Lanes32 b32;
  if (f64) {
    Lanes64 a;
    Lanes64 b;
    const bool ok = read64(w, in.src[0], in.literal, a, true) &&
                    (is_class ? read32(w, in.src[1], in.literal, b32) : read64(w, in.src[1], in.literal, b, true));
    if (!ok) { *step = ctx.illegal(in, w.pc, "out-of-range VGPR in"); return true; }
    for (unsigned l = 0; l < kWaveLanes; ++l) {
      const double x = mod64(in, 0, a[l]);
      const bool r = is_class ? ((b32[l] >> class_bit(x)) & 1) != 0 : fcompare(op & 15, x, mod64(in, 1, b[l]));
      mask |= uint64_t{r} << l;
    }
  } else {
    Lanes32 a;
    if (!read32(w, in.src[0], in.literal, a) || !read32(w, in.src[1], in.literal, b32)) {
      *step = ctx.illegal(in, w.pc, "out-of-range VGPR in");
      return true;
    }
    for (unsigned l = 0; l < kWaveLanes; ++l) {
      const float x = mod32(in, 0, a[l]);
      const bool r = is_class ? ((b32[l] >> class_bit(x)) & 1) != 0 : fcompare(op & 15, x, mod32(in, 1, b32[l]));
      mask |= uint64_t{r} << l;
    }
  }
  mask &= exec;
  scalar_write64(w, in.sdst, mask);
  if (cmpx) w.set_exec(mask);
  *step = Step::Next;
  return true;
}

// IEEE-mode min/max: a quiet NaN loses to a number; -0 orders below +0.
float fmin32(float x, float y) {
  if (x == y) return std::signbit(x) ? x : y;
  return std::fmin(x, y);
}
float fmax32(float x, float y) {
  if (x == y) return std::signbit(x) ? y : x;
  return std::fmax(x, y);
}

int32_t cvt_i32(double f) {
  if (std::isnan(f)) return 0;
  if (f >= 2147483647.0) return INT32_MAX;
  if (f <= -2147483648.0) return INT32_MIN;
  return static_cast<int32_t>(f);
}
uint32_t cvt_u32(double f) {
  if (std::isnan(f) || f <= 0) return 0;
  if (f >= 4294967295.0) return UINT32_MAX;
  return static_cast<uint32_t>(f);
}

// v_div_scale: the scaling the division macro needs is only for operands near the
// exponent limits; elsewhere the result is the selected operand unscaled and VCC 0.
template <typename T>
T div_scale(T s0, T s1, T s2, bool* vcc) {
  *vcc = false;
  const int limit = std::numeric_limits<T>::max_exponent - 2;
  int e1, e2;
  std::frexp(s1, &e1);
  std::frexp(s2, &e2);
  if (s1 == 0 || s2 == 0 || std::isnan(s1) || std::isnan(s2) || std::isinf(s1) || std::isinf(s2)) return s0;
  if (e2 - e1 >= limit) {  // quotient would overflow: scale the denominator up
    if (s0 == s1) return std::ldexp(s0, std::numeric_limits<T>::digits * 2);
  } else if (e2 - e1 <= -limit || e2 <= std::numeric_limits<T>::min_exponent + std::numeric_limits<T>::digits) {
    *vcc = s0 == s2;
    return std::ldexp(s0, std::numeric_limits<T>::digits * 2);
  }
  return s0;
}

template <typename T>
T div_fixup(T q, T d, T n) {  // special cases of n / d; otherwise the macro's quotient
  if (std::isnan(n) || std::isnan(d)) return n + d;
  if ((d == 0 && n == 0) || (std::isinf(d) && std::isinf(n))) return std::numeric_limits<T>::quiet_NaN();
  const bool neg = std::signbit(n) != std::signbit(d);
  if (d == 0 || std::isinf(n)) return neg ? -std::numeric_limits<T>::infinity() : std::numeric_limits<T>::infinity();
  if (std::isinf(d) || n == 0) return neg ? T(-0.0) : T(0.0);
  if (std::isnan(q)) return neg ? -std::fabs(q) : std::fabs(q);
  return q;
}

constexpr double kTwoPi = 2.0 * std::numbers::pi;

bool f64_op(Wave& w, const Inst& in, ExecContext& ctx, Step* step) {
  const unsigned op = in.op;
  const bool all64 = op == 0x1cc || op == 0x1df || op == 0x1e1 || op == 0x1e3 || (op >= 0x280 && op <= 0x283) ||
                     (op >= 0x157 && op <= 0x15a) || op == 0x165 || op == 0x166 || op == 0x168 || op == 0x172 ||
                     op == 0x171;
  const bool to64 = op == 0x144 || op == 0x150 || op == 0x156;  // 32-bit source, 64-bit result
  const bool from64 = op == 0x143 || op == 0x14f || op == 0x155 || op == 0x170;  // 64-bit source, 32-bit result
  const bool ldexp64 = op == 0x284;
  if (!all64 && !to64 && !from64 && !ldexp64) return false;
  *step = Step::Next;
  const uint64_t exec = active_lanes(w);
  Lanes64 a, b, c;
  Lanes32 a32, b32;
  bool ok = true;
  if (to64) ok = read32(w, in.src[0], in.literal, a32) && w.vgpr_ok(in.vdst, 2);
  else if (from64) ok = read64(w, in.src[0], in.literal, a, true) && w.vgpr_ok(in.vdst);
  else if (ldexp64) ok = read64(w, in.src[0], in.literal, a, true) && read32(w, in.src[1], in.literal, b32) && w.vgpr_ok(in.vdst, 2);
  else ok = read64(w, in.src[0], in.literal, a, true) && read64(w, in.src[1], in.literal, b, true) &&
            read64(w, in.src[2], in.literal, c, true) && w.vgpr_ok(in.vdst, 2);
  if (!ok) {
    *step = ctx.illegal(in, w.pc, "out-of-range VGPR in");
    return true;
  }
  if (from64) {
    write_lanes32(w, in.vdst, exec, [&](unsigned l) -> uint32_t {
      const double x = mod64(in, 0, a[l]);
      switch (op) {
        case 0x143: return static_cast<uint32_t>(cvt_i32(x));
        case 0x14f: return f32_bits(out32(in, static_cast<float>(x)));
        case 0x155: return cvt_u32(x);
        default: { int e = 0; std::frexp(x, &e); return std::isfinite(x) ? static_cast<uint32_t>(e) : 0u; }
      }
    });
    return true;
  }
  const double x0 = 0;
  (void)x0;
  uint64_t vcc_bits = 0;
  const uint64_t vcc_in = w.vcc();
  write_lanes64(w, in.vdst, exec, [&](unsigned l) -> uint64_t {
    if (to64) {
      switch (op) {
        case 0x144: return f64_bits(static_cast<double>(static_cast<int32_t>(a32[l])));
        case 0x150: return f64_bits(out64(in, static_cast<double>(mod32(in, 0, a32[l]))));
        default: return f64_bits(static_cast<double>(a32[l]));
      }
    }
    const double x = mod64(in, 0, a[l]);
    if (ldexp64) return f64_bits(out64(in, std::ldexp(x, static_cast<int32_t>(b32[l]))));
    const double y = mod64(in, 1, b[l]), z = mod64(in, 2, c[l]);
    double r = 0;
    switch (op) {
      case 0x157: r = std::trunc(x); break;
      case 0x158: r = std::ceil(x); break;
      case 0x159: r = std::nearbyint(x); break;
      case 0x15a: r = std::floor(x); break;
      case 0x165: r = 1.0 / x; break;
      case 0x166: r = 1.0 / std::sqrt(x); break;
      case 0x168: r = std::sqrt(x); break;
      case 0x171: { int e; r = std::isfinite(x) ? std::frexp(x, &e) : x; break; }
      case 0x172: r = std::isinf(x) ? std::numeric_limits<double>::quiet_NaN() : x - std::floor(x); break;
      case 0x1cc: r = std::fma(x, y, z); break;
      case 0x1df: r = div_fixup(x, y, z); break;
      case 0x1e1: { bool v; r = div_scale(x, y, z, &v); vcc_bits |= uint64_t{v} << l; break; }
      case 0x1e3: r = std::fma(x, y, z) * (((vcc_in >> l) & 1) ? 0x1p64 : 1.0); break;
      case 0x280: r = x + y; break;
      case 0x281: r = x * y; break;
      case 0x282: r = std::fmin(x, y); break;
      default: r = std::fmax(x, y); break;
    }
    return f64_bits(out64(in, r));
  });
  if (op == 0x1e1) scalar_write64(w, in.sdst, vcc_bits & exec);
  return true;
}

}  // namespace

bool exec_vector_float(Wave& w, const Inst& in, ExecContext& ctx, Step* step) {
  if (in.op < 0xa0) return float_compare(w, in, ctx, step);
  if (f64_op(w, in, ctx, step)) return true;
  const unsigned op = in.op;
  FloatOperands o;
  if (!read32(w, in.src[0], in.literal, o.a) || !read32(w, in.src[1], in.literal, o.b) ||
      !read32(w, in.src[2], in.literal, o.c) || !w.vgpr_ok(in.vdst)) {
    *step = ctx.illegal(in, w.pc, "out-of-range VGPR in");
    return true;
  }
  const uint64_t exec = active_lanes(w);
  *step = Step::Next;
  auto f = [&](auto&& fn) {
    write_lanes32(w, in.vdst, exec, [&](unsigned l) {
      return f32_bits(out32(in, fn(mod32(in, 0, o.a[l]), mod32(in, 1, o.b[l]), mod32(in, 2, o.c[l]))));
    });
  };
  auto to_int = [&](auto&& fn) {
    write_lanes32(w, in.vdst, exec, [&](unsigned l) { return fn(mod32(in, 0, o.a[l])); });
  };
  auto from_int = [&](auto&& fn) {
    write_lanes32(w, in.vdst, exec, [&](unsigned l) { return f32_bits(out32(in, fn(o.a[l]))); });
  };
  switch (op) {
    case 0x101: f([](float x, float y, float) { return x + y; }); break;
    case 0x102: f([](float x, float y, float) { return x - y; }); break;
    case 0x103: f([](float x, float y, float) { return y - x; }); break;
    case 0x104: f([](float x, float y, float) { return (x == 0 || y == 0) ? 0.0f : x * y; }); break;
    case 0x105: f([](float x, float y, float) { return x * y; }); break;
    case 0x10a: f([](float x, float y, float) { return fmin32(x, y); }); break;
    case 0x10b: f([](float x, float y, float) { return fmax32(x, y); }); break;
    case 0x116: case 0x1c1: f([](float x, float y, float z) { return x * y + z; }); break;  // v_mac / v_mad
    case 0x1c0: f([](float x, float y, float z) { return ((x == 0 || y == 0) ? 0.0f : x * y) + z; }); break;
    case 0x1cb: f([](float x, float y, float z) { return std::fma(x, y, z); }); break;
    case 0x1d0: f([](float x, float y, float z) { return fmin32(fmin32(x, y), z); }); break;
    case 0x1d3: f([](float x, float y, float z) { return fmax32(fmax32(x, y), z); }); break;
    case 0x1d6: f([](float x, float y, float z) { return fmax32(fmin32(x, y), fmin32(fmax32(x, y), z)); }); break;
    case 0x1de: f([](float q, float d, float n) { return div_fixup(q, d, n); }); break;
    case 0x1e0: {
      uint64_t vcc_bits = 0;
      write_lanes32(w, in.vdst, exec, [&](unsigned l) {
        bool v;
        const float r = div_scale(mod32(in, 0, o.a[l]), mod32(in, 1, o.b[l]), mod32(in, 2, o.c[l]), &v);
        vcc_bits |= uint64_t{v} << l;
        return f32_bits(r);
      });
      scalar_write64(w, in.sdst, vcc_bits & exec);
      break;
    }
    case 0x1e2: {
      const uint64_t vcc_in = w.vcc();
      write_lanes32(w, in.vdst, exec, [&](unsigned l) {
        const float r = std::fma(mod32(in, 0, o.a[l]), mod32(in, 1, o.b[l]), mod32(in, 2, o.c[l]));
        return f32_bits(out32(in, ((vcc_in >> l) & 1) ? r * 0x1p32f : r));
      });
      break;
    }
    case 0x288: write_lanes32(w, in.vdst, exec, [&](unsigned l) {
      return f32_bits(out32(in, std::ldexp(mod32(in, 0, o.a[l]), static_cast<int32_t>(o.b[l]))));
    }); break;
    case 0x140: break;  // v_nop
    case 0x145: from_int([](uint32_t v) { return static_cast<float>(static_cast<int32_t>(v)); }); break;
    case 0x146: from_int([](uint32_t v) { return static_cast<float>(v); }); break;
    case 0x147: to_int([](float x) { return cvt_u32(x); }); break;
    case 0x148: to_int([](float x) { return static_cast<uint32_t>(cvt_i32(x)); }); break;
    case 0x14c: to_int([](float x) { return static_cast<uint32_t>(cvt_i32(std::floor(x + 0.5f))); }); break;
    case 0x14d: to_int([](float x) { return static_cast<uint32_t>(cvt_i32(std::floor(x))); }); break;
    case 0x151: case 0x152: case 0x153: case 0x154: {
      const unsigned shift = 8 * (op - 0x151);
      from_int([shift](uint32_t v) { return static_cast<float>((v >> shift) & 0xff); });
      break;
    }
    case 0x15b: f([](float x, float, float) { return std::isinf(x) ? std::numeric_limits<float>::quiet_NaN() : std::fmin(x - std::floor(x), 0x1.fffffep-1f); }); break;
    case 0x15c: f([](float x, float, float) { return std::trunc(x); }); break;
    case 0x15d: f([](float x, float, float) { return std::ceil(x); }); break;
    case 0x15e: f([](float x, float, float) { return std::nearbyint(x); }); break;
    case 0x15f: f([](float x, float, float) { return std::floor(x); }); break;
    case 0x160: f([](float x, float, float) { return std::exp2(x); }); break;
    case 0x161: f([](float x, float, float) { return std::log2(x); }); break;
    case 0x162: case 0x163: f([](float x, float, float) { return 1.0f / x; }); break;
    case 0x164: f([](float x, float, float) { return 1.0f / std::sqrt(x); }); break;
    case 0x167: f([](float x, float, float) { return std::sqrt(x); }); break;
    case 0x169: f([](float x, float, float) { return static_cast<float>(std::sin(double{x} * kTwoPi)); }); break;
    case 0x16a: f([](float x, float, float) { return static_cast<float>(std::cos(double{x} * kTwoPi)); }); break;
    case 0x173: to_int([](float x) { int e = 0; std::frexp(x, &e); return std::isfinite(x) ? static_cast<uint32_t>(e) : 0u; }); break;
    case 0x174: f([](float x, float, float) { int e; return std::isfinite(x) ? std::frexp(x, &e) : x; }); break;
    default:
      return false;
  }
  return true;
}

}  // namespace rocref::gpu::isa
