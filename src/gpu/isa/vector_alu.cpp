// gpu/isa/vector_alu.cpp - VOP1, VOP2, VOPC and VOP3 integer, bit, move and lane instructions.
//
// All four encodings arrive in the VOP3 opcode space (instruction.h). Float
// arithmetic and conversions live in vector_float.cpp.
#include <algorithm>
#include <bit>
#include <cmath>

#include "gpu/isa/vector_operands.h"

namespace rocref::gpu::isa {
namespace {

uint32_t sext24(uint32_t v) { return static_cast<uint32_t>(static_cast<int32_t>(v << 8) >> 8); }

template <typename T>
bool compare(unsigned kind, T a, T b) {  // kind: f, lt, eq, le, gt, ne, ge, t
  switch (kind) {
    case 0: return false;
    case 1: return a < b;
    case 2: return a == b;
    case 3: return a <= b;
    case 4: return a > b;
    case 5: return a != b;
    case 6: return a >= b;
    default: return true;
  }
}

// VOPC integer compares: 0xa0-0xbf (16-bit), 0xc0-0xdf (32-bit), 0xe0-0xff (64-bit).
bool integer_compare(Wave& w, const Inst& in, ExecContext& ctx, Step* step) {
  const unsigned op = in.op;
  if (op < 0xa0 || op > 0xff) return false;
  const unsigned kind = op & 7;
  const bool is_unsigned = (op & 8) != 0;
  const bool cmpx = (op & 0x10) != 0;
  const uint64_t exec = active_lanes(w);
  uint64_t mask = 0;
  if (op >= 0xe0) {
    Lanes64 a, b;
    if (!read64(w, in.src[0], in.literal, a, false) || !read64(w, in.src[1], in.literal, b, false)) {
      *step = ctx.illegal(in, w.pc, "out-of-range VGPR in");
      return true;
    }
    for (unsigned l = 0; l < kWaveLanes; ++l) {
      const bool r = is_unsigned ? compare(kind, a[l], b[l])
                                 : compare(kind, static_cast<int64_t>(a[l]), static_cast<int64_t>(b[l]));
      mask |= uint64_t{r} << l;
    }
  } else {
    Lanes32 a, b;
    if (!read32(w, in.src[0], in.literal, a) || !read32(w, in.src[1], in.literal, b)) {
      *step = ctx.illegal(in, w.pc, "out-of-range VGPR in");
      return true;
    }
    const bool is16 = op < 0xc0;
    for (unsigned l = 0; l < kWaveLanes; ++l) {
      bool r;
      if (is16) {
        r = is_unsigned ? compare(kind, static_cast<uint16_t>(a[l]), static_cast<uint16_t>(b[l]))
                        : compare(kind, static_cast<int16_t>(a[l]), static_cast<int16_t>(b[l]));
      } else {
        r = is_unsigned ? compare(kind, a[l], b[l]) : compare(kind, static_cast<int32_t>(a[l]), static_cast<int32_t>(b[l]));
      }
      mask |= uint64_t{r} << l;
    }
  }
  mask &= exec;
  scalar_write64(w, in.sdst, mask);
  if (cmpx) w.set_exec(mask);
  *step = Step::Next;
  return true;
}

// Lane-crossing and scalar-destination instructions.
bool lane_op(Wave& w, const Inst& in, ExecContext& ctx, Step* step) {
  *step = Step::Next;
  switch (in.op) {
    case 0x142: {  // v_readfirstlane_b32: SGPR <- first active lane (lane 0 when EXEC is 0)
      Lanes32 a;
      if (!read32(w, in.src[0], in.literal, a)) break;
      const uint64_t e = w.exec();
      scalar_write32(w, in.vdst, a[e == 0 ? 0 : static_cast<unsigned>(std::countr_zero(e))]);
      return true;
    }
    case 0x289: {  // v_readlane_b32
      Lanes32 a;
      if (!read32(w, in.src[0], in.literal, a)) break;
      const uint32_t lane = scalar_read32(w, in.src[1], in.literal) & 63;
      scalar_write32(w, in.vdst, a[lane]);
      return true;
    }
    case 0x28a: {  // v_writelane_b32: ignores EXEC
      if (!w.vgpr_ok(in.vdst)) break;
      const uint32_t lane = scalar_read32(w, in.src[1], in.literal) & 63;
      w.vrow(in.vdst)[lane] = scalar_read32(w, in.src[0], in.literal);
      return true;
    }
    default:
      return false;
  }
  *step = ctx.illegal(in, w.pc, "out-of-range register in");
  return true;
}

// 64-bit shifts and multiply-adds with 64-bit results.
bool wide_op(Wave& w, const Inst& in, ExecContext& ctx, Step* step) {
  const unsigned op = in.op;
  if (op != 0x28f && op != 0x290 && op != 0x291 && op != 0x1e8 && op != 0x1e9) return false;
  const uint64_t exec = active_lanes(w);
  *step = Step::Next;
  if (!w.vgpr_ok(in.vdst, 2)) {
    *step = ctx.illegal(in, w.pc, "out-of-range VGPR in");
    return true;
  }
  if (op == 0x1e8 || op == 0x1e9) {  // v_mad_u64_u32 / v_mad_i64_i32 (VOP3B: carry out to sdst)
    Lanes32 a, b;
    Lanes64 c;
    if (!read32(w, in.src[0], 0, a) || !read32(w, in.src[1], 0, b) || !read64(w, in.src[2], 0, c, false)) {
      *step = ctx.illegal(in, w.pc, "out-of-range VGPR in");
      return true;
    }
    uint64_t carry = 0;
    write_lanes64(w, in.vdst, exec, [&](unsigned l) {
      unsigned __int128 r;
      if (op == 0x1e8) {
        r = static_cast<unsigned __int128>(uint64_t{a[l]} * b[l]) + c[l];
        if ((r >> 64) != 0) carry |= uint64_t{1} << l;
      } else {
        const __int128 s = static_cast<__int128>(int64_t{static_cast<int32_t>(a[l])} * static_cast<int32_t>(b[l])) +
                           static_cast<int64_t>(c[l]);
        if (s > INT64_MAX || s < INT64_MIN) carry |= uint64_t{1} << l;
        r = static_cast<unsigned __int128>(s);
      }
      return static_cast<uint64_t>(r);
    });
    scalar_write64(w, in.sdst, carry & exec);
    return true;
  }
  Lanes32 shift;
  Lanes64 value;
  if (!read32(w, in.src[0], in.literal, shift) || !read64(w, in.src[1], in.literal, value, false)) {
    *step = ctx.illegal(in, w.pc, "out-of-range VGPR in");
    return true;
  }
  write_lanes64(w, in.vdst, exec, [&](unsigned l) -> uint64_t {
    const unsigned s = shift[l] & 63;
    if (op == 0x28f) return value[l] << s;
    if (op == 0x290) return value[l] >> s;
    return static_cast<uint64_t>(static_cast<int64_t>(value[l]) >> s);
  });
  return true;
}

}  // namespace

Step exec_valu(Wave& w, const Inst& in, ExecContext& ctx) {
  Step step = Step::Next;
  if (exec_vector_half(w, in, ctx, &step)) return step;
  if (in.op < 0xa0) {  // float compares and classes
    if (exec_vector_float(w, in, ctx, &step)) return step;
    return ctx.illegal(in, w.pc, "unimplemented");
  }
  if (integer_compare(w, in, ctx, &step) || lane_op(w, in, ctx, &step) || wide_op(w, in, ctx, &step)) return step;
  if (exec_vector_float(w, in, ctx, &step)) return step;

  Lanes32 a, b, c;
  if (!read32(w, in.src[0], in.literal, a) || !read32(w, in.src[1], in.literal, b) ||
      !read32(w, in.src[2], in.literal, c) || !w.vgpr_ok(in.vdst)) {
    return ctx.illegal(in, w.pc, "out-of-range VGPR in");
  }
  const uint64_t exec = active_lanes(w);
  auto put = [&](auto&& f) { write_lanes32(w, in.vdst, exec, f); };
  auto i32 = [](uint32_t v) { return static_cast<int32_t>(v); };
  switch (in.op) {
    case 0x100: {  // v_cndmask_b32: src2 is a lane mask (VCC or an SGPR pair)
      // VOP3 abs/neg act on the selected value's bit 31, as the f32 modifiers (ISA-EXEC-5).
      const uint64_t sel = scalar_read64(w, in.src[2], in.literal);
      const bool mods = !isa_mutant_active(IsaMutant::CndmaskIgnoresModifiers);
      auto modified = [&](unsigned i, uint32_t v) {
        if (mods && ((in.abs >> i) & 1)) v &= 0x7fffffffu;
        if (mods && ((in.neg >> i) & 1)) v ^= 0x80000000u;
        return v;
      };
      put([&](unsigned l) { return ((sel >> l) & 1) ? modified(1, b[l]) : modified(0, a[l]); });
      break;
    }
    case 0x106: put([&](unsigned l) { return static_cast<uint32_t>(int64_t{i32(sext24(a[l]))} * i32(sext24(b[l]))); }); break;
    case 0x107: put([&](unsigned l) { return static_cast<uint32_t>((int64_t{i32(sext24(a[l]))} * i32(sext24(b[l]))) >> 32); }); break;
    case 0x108: put([&](unsigned l) { return (a[l] & 0xffffff) * (b[l] & 0xffffff); }); break;
    case 0x109: put([&](unsigned l) { return static_cast<uint32_t>((uint64_t{a[l] & 0xffffff} * (b[l] & 0xffffff)) >> 32); }); break;
    case 0x10c: put([&](unsigned l) { return i32(a[l]) < i32(b[l]) ? a[l] : b[l]; }); break;
    case 0x10d: put([&](unsigned l) { return i32(a[l]) > i32(b[l]) ? a[l] : b[l]; }); break;
    case 0x10e: put([&](unsigned l) { return a[l] < b[l] ? a[l] : b[l]; }); break;
    case 0x10f: put([&](unsigned l) { return a[l] > b[l] ? a[l] : b[l]; }); break;
    case 0x110: put([&](unsigned l) { return b[l] >> (a[l] & 31); }); break;
    case 0x111: put([&](unsigned l) { return static_cast<uint32_t>(i32(b[l]) >> (a[l] & 31)); }); break;
    case 0x112: put([&](unsigned l) { return b[l] << (a[l] & 31); }); break;
    case 0x113: put([&](unsigned l) { return a[l] & b[l]; }); break;
    case 0x114: put([&](unsigned l) { return a[l] | b[l]; }); break;
    case 0x115: put([&](unsigned l) { return a[l] ^ b[l]; }); break;
    case 0x119: case 0x11a: case 0x11b: case 0x11c: case 0x11d: case 0x11e: {  // carry ops (VOP2 e32 or VOP3B)
      const bool with_carry_in = in.op >= 0x11c;
      const uint64_t carry_in = with_carry_in ? scalar_read64(w, in.src[2], in.literal) : 0;
      uint64_t carry_out = 0;
      const unsigned kind = (in.op - 0x119) % 3;  // add, sub, subrev
      put([&](unsigned l) {
        const uint64_t ci = (carry_in >> l) & 1;
        uint64_t x = a[l], y = b[l];
        if (kind == 2) std::swap(x, y);
        uint64_t r;
        bool co;
        if (kind == 0) {
          r = x + y + ci;
          co = (r >> 32) != 0 && !isa_mutant_active(IsaMutant::AddCoNoCarry);
        } else {
          r = x - y - ci;
          co = y + ci > x;  // borrow
        }
        carry_out |= uint64_t{co} << l;
        return static_cast<uint32_t>(r);
      });
      scalar_write64(w, in.sdst, carry_out & exec);
      break;
    }
    case 0x126: put([&](unsigned l) { return (a[l] + b[l]) & 0xffff; }); break;  // v_add_u16
    case 0x127: put([&](unsigned l) { return (a[l] - b[l]) & 0xffff; }); break;
    case 0x128: put([&](unsigned l) { return (b[l] - a[l]) & 0xffff; }); break;
    case 0x129: put([&](unsigned l) { return (a[l] * b[l]) & 0xffff; }); break;
    case 0x12a: put([&](unsigned l) { return (b[l] << (a[l] & 15)) & 0xffff; }); break;
    case 0x12b: put([&](unsigned l) { return (b[l] & 0xffff) >> (a[l] & 15); }); break;
    case 0x12c: put([&](unsigned l) { return static_cast<uint32_t>(static_cast<int16_t>(b[l]) >> (a[l] & 15)) & 0xffff; }); break;
    case 0x12f: put([&](unsigned l) { return std::max(a[l] & 0xffff, b[l] & 0xffff); }); break;
    case 0x130: put([&](unsigned l) { return static_cast<uint32_t>(std::max(static_cast<int16_t>(a[l]), static_cast<int16_t>(b[l]))) & 0xffff; }); break;
    case 0x131: put([&](unsigned l) { return std::min(a[l] & 0xffff, b[l] & 0xffff); }); break;
    case 0x132: put([&](unsigned l) { return static_cast<uint32_t>(std::min(static_cast<int16_t>(a[l]), static_cast<int16_t>(b[l]))) & 0xffff; }); break;
    case 0x134: put([&](unsigned l) { return a[l] + b[l]; }); break;  // v_add_u32
    case 0x135: put([&](unsigned l) { return a[l] - b[l]; }); break;
    case 0x136: put([&](unsigned l) { return b[l] - a[l]; }); break;
    case 0x141: put([&](unsigned l) { return a[l]; }); break;  // v_mov_b32
    case 0x16b: put([&](unsigned l) { return ~a[l]; }); break;
    case 0x16c: put([&](unsigned l) { return bit_reverse32(a[l]); }); break;
    case 0x16d: put([&](unsigned l) { return a[l] == 0 ? ~0u : static_cast<uint32_t>(std::countl_zero(a[l])); }); break;
    case 0x16e: put([&](unsigned l) { return a[l] == 0 ? ~0u : static_cast<uint32_t>(std::countr_zero(a[l])); }); break;
    case 0x16f: put([&](unsigned l) {  // v_ffbh_i32: first bit that differs from the sign
      const uint32_t v = i32(a[l]) < 0 ? ~a[l] : a[l];
      return v == 0 ? ~0u : static_cast<uint32_t>(std::countl_zero(v));
    }); break;
    case 0x1c2: put([&](unsigned l) { return static_cast<uint32_t>(int64_t{i32(sext24(a[l]))} * i32(sext24(b[l]))) + c[l]; }); break;
    case 0x1c3: put([&](unsigned l) { return (a[l] & 0xffffff) * (b[l] & 0xffffff) + c[l]; }); break;
    case 0x1c8: put([&](unsigned l) {  // v_bfe_u32
      const uint32_t off = b[l] & 31, width = c[l] & 31;
      return width == 0 ? 0u : (a[l] >> off) & ((1u << width) - 1);
    }); break;
    case 0x1c9: put([&](unsigned l) {
      const uint32_t off = b[l] & 31, width = c[l] & 31;
      if (width == 0) return 0u;
      return static_cast<uint32_t>(static_cast<int32_t>((a[l] >> off) << (32 - width)) >> (32 - width));
    }); break;
    case 0x1ca: put([&](unsigned l) { return (a[l] & b[l]) | (~a[l] & c[l]); }); break;  // v_bfi_b32
    case 0x1ce: put([&](unsigned l) { return static_cast<uint32_t>(((uint64_t{a[l]} << 32) | b[l]) >> (c[l] & 31)); }); break;
    case 0x1cf: put([&](unsigned l) { return static_cast<uint32_t>(((uint64_t{a[l]} << 32) | b[l]) >> (8 * (c[l] & 3))); }); break;
    case 0x1d1: put([&](unsigned l) { return static_cast<uint32_t>(std::min({i32(a[l]), i32(b[l]), i32(c[l])})); }); break;
    case 0x1d2: put([&](unsigned l) { return std::min({a[l], b[l], c[l]}); }); break;
    case 0x1d4: put([&](unsigned l) { return static_cast<uint32_t>(std::max({i32(a[l]), i32(b[l]), i32(c[l])})); }); break;
    case 0x1d5: put([&](unsigned l) { return std::max({a[l], b[l], c[l]}); }); break;
    case 0x1d7: put([&](unsigned l) {
      const int32_t x = i32(a[l]), y = i32(b[l]), z = i32(c[l]);
      return static_cast<uint32_t>(std::max(std::min(x, y), std::min(std::max(x, y), z)));
    }); break;
    case 0x1d8: put([&](unsigned l) {
      const uint32_t x = a[l], y = b[l], z = c[l];
      return std::max(std::min(x, y), std::min(std::max(x, y), z));
    }); break;
    case 0x1ed: put([&](unsigned l) {  // v_perm_b32: byte select from {a, b}
      const uint64_t both = (uint64_t{a[l]} << 32) | b[l];
      uint32_t r = 0;
      for (unsigned i = 0; i < 4; ++i) {
        const uint32_t sel = (c[l] >> (8 * i)) & 0xff;
        uint32_t byte;
        if (sel < 8) byte = static_cast<uint32_t>(both >> (8 * sel)) & 0xff;
        else if (sel == 12) byte = 0;
        else if (sel > 12) byte = 0xff;
        else byte = ((both >> (16 * (sel - 8) + 15)) & 1) ? 0xff : 0;  // sign of byte 1/3/5/7
        r |= byte << (8 * i);
      }
      return r;
    }); break;
    case 0x1f3: put([&](unsigned l) { return (a[l] ^ b[l]) + c[l]; }); break;            // v_xad_u32
    case 0x1fd: put([&](unsigned l) { return (a[l] << (b[l] & 31)) + c[l]; }); break;    // v_lshl_add_u32
    case 0x1fe: put([&](unsigned l) { return (a[l] + b[l]) << (c[l] & 31); }); break;    // v_add_lshl_u32
    case 0x1ff: put([&](unsigned l) { return a[l] + b[l] + c[l]; }); break;              // v_add3_u32
    case 0x200: put([&](unsigned l) { return (a[l] << (b[l] & 31)) | c[l]; }); break;    // v_lshl_or_b32
    case 0x201: put([&](unsigned l) { return (a[l] & b[l]) | c[l]; }); break;            // v_and_or_b32
    case 0x202: put([&](unsigned l) { return a[l] | b[l] | c[l]; }); break;              // v_or3_b32
    case 0x285: put([&](unsigned l) { return a[l] * b[l]; }); break;                     // v_mul_lo_u32
    case 0x286: put([&](unsigned l) { return static_cast<uint32_t>((uint64_t{a[l]} * b[l]) >> 32); }); break;
    case 0x287: put([&](unsigned l) { return static_cast<uint32_t>(static_cast<uint64_t>(int64_t{i32(a[l])} * i32(b[l])) >> 32); }); break;
    case 0x28b: put([&](unsigned l) { return static_cast<uint32_t>(std::popcount(a[l])) + b[l]; }); break;
    case 0x28c: put([&](unsigned l) {  // v_mbcnt_lo_u32_b32: set bits of a below this lane (lanes 0-31)
      const uint32_t below = l >= 32 ? ~0u : (l == 0 ? 0u : (~0u >> (32 - l)));
      return static_cast<uint32_t>(std::popcount(a[l] & below)) + b[l];
    }); break;
    case 0x28d: put([&](unsigned l) {  // v_mbcnt_hi_u32_b32: lanes 32-63
      const uint32_t below = l < 32 ? 0u : (l == 32 ? 0u : (~0u >> (64 - l)));
      return static_cast<uint32_t>(std::popcount(a[l] & below)) + b[l];
    }); break;
    case 0x293: put([&](unsigned l) { return ((1u << (a[l] & 31)) - 1) << (b[l] & 31); }); break;  // v_bfm_b32
    default:
      return ctx.illegal(in, w.pc, "unimplemented");
  }
  return Step::Next;
}

}  // namespace rocref::gpu::isa
