// gpu/isa/scalar_alu.cpp - SOP1, SOP2, SOPK and SOPC: the scalar ALU (Vega ISA reference, chapter 5).
#include <bit>
#include <cstring>

#include "gpu/isa/exec_context.h"

namespace rocref::gpu::isa {
namespace {

uint32_t r32(const Wave& w, const Inst& in, int i) { return scalar_read32(w, in.src[i], in.literal); }
uint64_t r64(const Wave& w, const Inst& in, int i) { return scalar_read64(w, in.src[i], in.literal); }

// SH_MEM_BASES (hwreg 15): private aperture bits 63:48 in [15:0], shared in [31:16].
constexpr uint32_t kShMemBases =
    static_cast<uint32_t>(kPrivateApertureBase >> 48) | static_cast<uint32_t>(kSharedApertureBase >> 48) << 16;

uint32_t hwreg_value(const Wave& w, uint32_t id) {
  switch (id) {
    case 1: return w.mode;                  // HW_REG_MODE
    case 4: return w.wave_id & 0xf;         // HW_REG_HW_ID: wave slot
    case 15: return kShMemBases;            // HW_REG_SH_MEM_BASES
    default: return 0;
  }
}

}  // namespace

Step exec_sop1(Wave& w, const Inst& in, ExecContext& ctx) {
  const uint16_t d = in.sdst;
  switch (in.op) {
    case 0: scalar_write32(w, d, r32(w, in, 0)); return Step::Next;  // s_mov_b32
    case 1: scalar_write64(w, d, r64(w, in, 0)); return Step::Next;  // s_mov_b64
    case 2: if (w.scc) scalar_write32(w, d, r32(w, in, 0)); return Step::Next;  // s_cmov_b32
    case 3: if (w.scc) scalar_write64(w, d, r64(w, in, 0)); return Step::Next;
    case 4: { const uint32_t v = ~r32(w, in, 0); scalar_write32(w, d, v); w.scc = v != 0; return Step::Next; }
    case 5: { const uint64_t v = ~r64(w, in, 0); scalar_write64(w, d, v); w.scc = v != 0; return Step::Next; }
    case 8: scalar_write32(w, d, bit_reverse32(r32(w, in, 0))); return Step::Next;
    case 12: { const uint32_t v = std::popcount(r32(w, in, 0)); scalar_write32(w, d, v); w.scc = v != 0; return Step::Next; }
    case 13: { const uint32_t v = std::popcount(r64(w, in, 0)); scalar_write32(w, d, v); w.scc = v != 0; return Step::Next; }
    case 16: { const uint32_t s = r32(w, in, 0); scalar_write32(w, d, s == 0 ? ~0u : std::countr_zero(s)); return Step::Next; }
    case 17: { const uint64_t s = r64(w, in, 0); scalar_write32(w, d, s == 0 ? ~0u : std::countr_zero(s)); return Step::Next; }
    case 18: { const uint32_t s = r32(w, in, 0); scalar_write32(w, d, s == 0 ? ~0u : std::countl_zero(s)); return Step::Next; }
    case 22: scalar_write32(w, d, static_cast<uint32_t>(static_cast<int8_t>(r32(w, in, 0)))); return Step::Next;
    case 23: scalar_write32(w, d, static_cast<uint32_t>(static_cast<int16_t>(r32(w, in, 0)))); return Step::Next;
    case 28: scalar_write64(w, d, w.pc + 4); return Step::Next;  // s_getpc_b64: the next instruction
    case 29: w.pc = r64(w, in, 0); return Step::Jumped;         // s_setpc_b64
    case 30: {                                                   // s_swappc_b64
      const uint64_t target = r64(w, in, 0);
      scalar_write64(w, d, w.pc + 4);
      w.pc = target;
      return Step::Jumped;
    }
    case 32: case 33: case 34: case 35: case 36: case 37: case 38: case 39: {  // s_*_saveexec_b64
      const uint64_t s = r64(w, in, 0), e = w.exec();
      uint64_t n = 0;
      switch (in.op) {
        case 32: n = s & e; break;
        case 33: n = s | e; break;
        case 34: n = s ^ e; break;
        case 35: n = s & ~e; break;
        case 36: n = s | ~e; break;
        case 37: n = ~(s & e); break;
        case 38: n = ~(s | e); break;
        default: n = ~(s ^ e); break;
      }
      scalar_write64(w, d, e);
      w.set_exec(n);
      w.scc = n != 0;
      return Step::Next;
    }
    case 48: {  // s_abs_i32
      const int32_t s = static_cast<int32_t>(r32(w, in, 0));
      const uint32_t v = s < 0 ? 0u - static_cast<uint32_t>(s) : static_cast<uint32_t>(s);
      scalar_write32(w, d, v);
      w.scc = v != 0;
      return Step::Next;
    }
    default:
      return ctx.illegal(in, w.pc, "unimplemented");
  }
}

Step exec_sop2(Wave& w, const Inst& in, ExecContext& ctx) {
  const uint16_t d = in.sdst;
  const uint32_t a = r32(w, in, 0), b = r32(w, in, 1);
  const auto ia = static_cast<int32_t>(a), ib = static_cast<int32_t>(b);
  auto put = [&](uint32_t v) { scalar_write32(w, d, v); };
  auto put_scc = [&](uint32_t v) { scalar_write32(w, d, v); w.scc = v != 0; };
  auto put64_scc = [&](uint64_t v) { scalar_write64(w, d, v); w.scc = v != 0; };
  switch (in.op) {
    case 0: { const uint64_t s = uint64_t{a} + b; put(static_cast<uint32_t>(s)); w.scc = (s >> 32) != 0; break; }
    case 1: put(a - b); w.scc = b > a; break;
    case 2: { const uint32_t s = a + b; put(s); w.scc = ((~(a ^ b) & (a ^ s)) >> 31) != 0; break; }
    case 3: { const uint32_t s = a - b; put(s); w.scc = (((a ^ b) & (a ^ s)) >> 31) != 0; break; }
    case 4: { const uint64_t s = uint64_t{a} + b + (w.scc ? 1 : 0); put(static_cast<uint32_t>(s)); w.scc = (s >> 32) != 0; break; }
    case 5: { const uint64_t s = uint64_t{a} - b - (w.scc ? 1 : 0); put(static_cast<uint32_t>(s)); w.scc = (s >> 32) != 0; break; }
    case 6: put(ia < ib ? a : b); w.scc = ia < ib; break;
    case 7: put(a < b ? a : b); w.scc = a < b; break;
    case 8: put(ia > ib ? a : b); w.scc = ia > ib; break;
    case 9: put(a > b ? a : b); w.scc = a > b; break;
    case 10: put(w.scc ? a : b); break;
    case 11: scalar_write64(w, d, w.scc ? r64(w, in, 0) : r64(w, in, 1)); break;
    case 12: put_scc(a & b); break;
    case 13: put64_scc(r64(w, in, 0) & r64(w, in, 1)); break;
    case 14: put_scc(a | b); break;
    case 15: put64_scc(r64(w, in, 0) | r64(w, in, 1)); break;
    case 16: put_scc(a ^ b); break;
    case 17: put64_scc(r64(w, in, 0) ^ r64(w, in, 1)); break;
    case 18: put_scc(a & ~b); break;
    case 19: put64_scc(r64(w, in, 0) & ~r64(w, in, 1)); break;
    case 20: put_scc(a | ~b); break;
    case 21: put64_scc(r64(w, in, 0) | ~r64(w, in, 1)); break;
    case 22: put_scc(~(a & b)); break;
    case 23: put64_scc(~(r64(w, in, 0) & r64(w, in, 1))); break;
    case 24: put_scc(~(a | b)); break;
    case 25: put64_scc(~(r64(w, in, 0) | r64(w, in, 1))); break;
    case 26: put_scc(~(a ^ b)); break;
    case 27: put64_scc(~(r64(w, in, 0) ^ r64(w, in, 1))); break;
    case 28: put_scc(a << (b & 31)); break;
    case 29: put64_scc(r64(w, in, 0) << (b & 63)); break;
    case 30: put_scc(a >> (b & 31)); break;
    case 31: put64_scc(r64(w, in, 0) >> (b & 63)); break;
    case 32: put_scc(static_cast<uint32_t>(ia >> (b & 31))); break;
    case 33: put64_scc(static_cast<uint64_t>(static_cast<int64_t>(r64(w, in, 0)) >> (b & 63))); break;
    case 34: put(((1u << (a & 31)) - 1) << (b & 31)); break;  // s_bfm_b32
    case 36: put(a * b); break;                                // s_mul_i32
    case 37: {                                                 // s_bfe_u32: offset b[4:0], width b[22:16]
      const uint32_t off = b & 31, width = (b >> 16) & 0x7f;
      const uint32_t v = width == 0 ? 0 : width >= 32 ? a >> off : (a >> off) & ((1u << width) - 1);
      put_scc(v);
      break;
    }
    case 38: {  // s_bfe_i32
      const uint32_t off = b & 31, width = (b >> 16) & 0x7f;
      int32_t v = 0;
      if (width >= 32) v = ia >> off;
      else if (width > 0) v = static_cast<int32_t>(static_cast<uint32_t>(ia >> off) << (32 - width)) >> (32 - width);
      put_scc(static_cast<uint32_t>(v));
      break;
    }
    case 39: {  // s_bfe_u64
      const uint64_t s = r64(w, in, 0);
      const uint32_t off = b & 63, width = (b >> 16) & 0x7f;
      const uint64_t v = width == 0 ? 0 : width >= 64 ? s >> off : (s >> off) & ((uint64_t{1} << width) - 1);
      put64_scc(v);
      break;
    }
    case 42: { const int64_t v = int64_t{ia} - ib; put_scc(static_cast<uint32_t>(v < 0 ? -v : v)); break; }  // s_absdiff_i32
    case 44: put(static_cast<uint32_t>((uint64_t{a} * b) >> 32)); break;
    case 45: put(static_cast<uint32_t>(static_cast<uint64_t>(int64_t{ia} * ib) >> 32)); break;
    case 46: case 47: case 48: case 49: {  // s_lshlN_add_u32
      const uint64_t s = (uint64_t{a} << (in.op - 45)) + b;
      put(static_cast<uint32_t>(s));
      w.scc = (s >> 32) != 0;
      break;
    }
    case 50: put((a & 0xffff) | (b << 16)); break;            // s_pack_ll_b32_b16
    case 51: put((a & 0xffff) | (b & 0xffff0000u)); break;    // s_pack_lh
    case 52: put((a >> 16) | (b & 0xffff0000u)); break;       // s_pack_hh
    default:
      return ctx.illegal(in, w.pc, "unimplemented");
  }
  return Step::Next;
}

Step exec_sopk(Wave& w, const Inst& in, ExecContext& ctx) {
  const uint16_t d = in.sdst;
  const uint32_t k = static_cast<uint32_t>(in.imm);  // sign-extended simm16
  const uint32_t uk = k & 0xffff;
  const uint32_t s = d < 128 ? w.s[d] : 0;
  const auto is = static_cast<int32_t>(s), ik = static_cast<int32_t>(k);
  switch (in.op) {
    case 0: scalar_write32(w, d, k); break;
    case 1: if (w.scc) scalar_write32(w, d, k); break;
    case 2: w.scc = is == ik; break;
    case 3: w.scc = is != ik; break;
    case 4: w.scc = is > ik; break;
    case 5: w.scc = is >= ik; break;
    case 6: w.scc = is < ik; break;
    case 7: w.scc = is <= ik; break;
    case 8: w.scc = s == uk; break;
    case 9: w.scc = s != uk; break;
    case 10: w.scc = s > uk; break;
    case 11: w.scc = s >= uk; break;
    case 12: w.scc = s < uk; break;
    case 13: w.scc = s <= uk; break;
    case 14: {  // s_addk_i32
      const uint32_t r = s + k;
      w.scc = ((~(s ^ k) & (s ^ r)) >> 31) != 0;
      scalar_write32(w, d, r);
      break;
    }
    case 15: scalar_write32(w, d, s * k); break;  // s_mulk_i32
    case 17: {  // s_getreg_b32: hwreg id [5:0], offset [10:6], size-1 [15:11]
      const uint32_t id = uk & 63, off = (uk >> 6) & 31, size = ((uk >> 11) & 31) + 1;
      const uint32_t v = hwreg_value(w, id) >> off;
      scalar_write32(w, d, size >= 32 ? v : v & ((1u << size) - 1));
      break;
    }
    case 18: case 20: {  // s_setreg_b32 / s_setreg_imm32_b32: only MODE is kept
      const uint32_t id = uk & 63, off = (uk >> 6) & 31, size = ((uk >> 11) & 31) + 1;
      const uint32_t value = in.op == 18 ? s : in.literal;
      if (id == 1) {
        const uint32_t mask = (size >= 32 ? ~0u : (1u << size) - 1) << off;
        w.mode = (w.mode & ~mask) | ((value << off) & mask);
      }
      break;
    }
    default:
      return ctx.illegal(in, w.pc, "unimplemented");
  }
  return Step::Next;
}

Step exec_sopc(Wave& w, const Inst& in, ExecContext& ctx) {
  const uint32_t a = r32(w, in, 0), b = r32(w, in, 1);
  const auto ia = static_cast<int32_t>(a), ib = static_cast<int32_t>(b);
  switch (in.op) {
    case 0: w.scc = ia == ib; break;
    case 1: w.scc = ia != ib; break;
    case 2: w.scc = ia > ib; break;
    case 3: w.scc = ia >= ib; break;
    case 4: w.scc = ia < ib; break;
    case 5: w.scc = ia <= ib; break;
    case 6: w.scc = a == b; break;
    case 7: w.scc = a != b; break;
    case 8: w.scc = a > b; break;
    case 9: w.scc = a >= b; break;
    case 10: w.scc = a < b; break;
    case 11: w.scc = a <= b; break;
    case 12: w.scc = ((a >> (b & 31)) & 1) == 0; break;
    case 13: w.scc = ((a >> (b & 31)) & 1) == 1; break;
    case 14: w.scc = ((r64(w, in, 0) >> (b & 63)) & 1) == 0; break;
    case 15: w.scc = ((r64(w, in, 0) >> (b & 63)) & 1) == 1; break;
    case 18: w.scc = r64(w, in, 0) == r64(w, in, 1); break;
    case 19: w.scc = r64(w, in, 0) != r64(w, in, 1); break;
    default:
      return ctx.illegal(in, w.pc, "unimplemented");
  }
  return Step::Next;
}

}  // namespace rocref::gpu::isa
