// gpu/isa/decoder.cpp - gfx900 encodings -> Inst (field positions: Vega ISA reference, chapter 12).
#include "gpu/isa/decoder.h"

#include "gpu/isa/isa_mutant.h"

namespace rocref::gpu::isa {
namespace {

uint32_t field(uint32_t w, unsigned lo, unsigned width) { return (w >> lo) & ((1u << width) - 1); }

int32_t sext(uint32_t v, unsigned width) {
  const uint32_t sign = 1u << (width - 1);
  return static_cast<int32_t>((v ^ sign) - sign);
}

// Appends the literal dword when any scalar-capable source is 255.
bool take_literal(Inst& in, const uint32_t* w, size_t available, int nsrc) {
  for (int i = 0; i < nsrc; ++i) {
    if (in.src[i] == kLiteral) {
      if (available < 2) return false;
      in.literal = w[1];
      in.dwords = 2;
      return true;
    }
  }
  return true;
}

Inst invalid(const uint32_t* w) {
  Inst in;
  in.word0 = w[0];
  return in;
}

// The first word names a two-word instruction but only one was available.
Inst truncated(const uint32_t* w) {
  Inst in = invalid(w);
  in.dwords = 2;
  return in;
}

// VOP2 opcode -> implicit operands made explicit (VCC carry, mac accumulator, madmk/madak K).
bool widen_vop2(Inst& in, uint32_t op, const uint32_t* w, size_t available) {
  in.op = static_cast<uint16_t>(0x100 + op);
  switch (op) {
    case 0x00:  // v_cndmask_b32: VCC selects
      in.src[2] = kVccLo;
      break;
    case 0x19: case 0x1a: case 0x1b:  // v_add/sub/subrev_co_u32: carry out to VCC
      in.sdst = kVccLo;
      break;
    case 0x1c: case 0x1d: case 0x1e:  // v_addc/subb/subbrev_co_u32: carry in and out through VCC
      in.sdst = kVccLo;
      in.src[2] = kVccLo;
      break;
    case 0x16: case 0x23:  // v_mac_f32 / v_mac_f16: accumulate into vdst
      in.src[2] = static_cast<uint16_t>(kVgpr0 + in.vdst);
      break;
    case 0x17: case 0x18: case 0x24: case 0x25: {  // v_madmk/madak f32/f16: K literal always follows
      if (available < 2) return false;
      in.literal = w[1];
      in.dwords = 2;
      const bool mk = op == 0x17 || op == 0x24;
      in.src[2] = mk ? in.src[1] : static_cast<uint16_t>(kLiteral);
      if (mk) in.src[1] = kLiteral;
      in.op = op < 0x20 ? 0x1c1 : 0x203;  // v_mad_f32 / v_mad_f16
      return true;
    }
    default:
      break;
  }
  return take_literal(in, w, available, 2);
}

// The SDWA or DPP extension word of a VOP1/VOP2/VOPC instruction (Vega ISA 12.8, 12.9):
// source selects, modifiers and lane controls; src0 comes from the extension word.
Inst extend(Inst in, uint32_t w1, bool sdwa) {
  const uint32_t vop2_op = field(in.word0, 25, 6);
  if (in.format == Format::VOP2 && (vop2_op == 0x17 || vop2_op == 0x18 || vop2_op == 0x24 || vop2_op == 0x25)) {
    return invalid(&in.word0);  // madmk/madak carry a literal, not an extension word
  }
  in.base = in.format;
  in.format = sdwa ? Format::SDWA : Format::DPP;
  in.word1 = w1;
  in.dwords = 2;
  in.literal = 0;
  if (!sdwa) {
    in.src[0] = static_cast<uint16_t>(kVgpr0 + field(w1, 0, 8));
    in.dpp_ctrl = static_cast<uint16_t>(field(w1, 8, 9));
    in.bound_ctrl = field(w1, 19, 1) != 0;
    in.neg = static_cast<uint8_t>(field(w1, 20, 1) | field(w1, 22, 1) << 1);
    in.abs = static_cast<uint8_t>(field(w1, 21, 1) | field(w1, 23, 1) << 1);
    in.bank_mask = static_cast<uint8_t>(field(w1, 24, 4));
    in.row_mask = static_cast<uint8_t>(field(w1, 28, 4));
    return in;
  }
  // S0/S1: the source is a scalar operand code instead of a VGPR (GFX9 SDWA).
  const uint32_t src0 = field(w1, 0, 8);
  in.src[0] = static_cast<uint16_t>(field(w1, 23, 1) ? src0 : kVgpr0 + src0);
  if (in.src[0] == kLiteral) return invalid(&in.word0);
  if (in.base != Format::VOP1 && field(w1, 31, 1)) in.src[1] = static_cast<uint16_t>(field(in.word0, 9, 8));
  const bool swap = isa_mutant_active(IsaMutant::SdwaSrcSelSwapped);
  in.sel[swap ? 2 : 1] = static_cast<uint8_t>(field(w1, 16, 3));
  in.sel[swap ? 1 : 2] = static_cast<uint8_t>(field(w1, 24, 3));
  in.sext = static_cast<uint8_t>(field(w1, 19, 1) | field(w1, 27, 1) << 1);
  in.neg = static_cast<uint8_t>(field(w1, 20, 1) | field(w1, 28, 1) << 1);
  in.abs = static_cast<uint8_t>(field(w1, 21, 1) | field(w1, 29, 1) << 1);
  if (in.base == Format::VOPC) {  // SD: the mask goes to SDST instead of VCC
    if (field(w1, 15, 1)) in.sdst = static_cast<uint16_t>(field(w1, 8, 7));
  } else {
    in.sel[0] = static_cast<uint8_t>(field(w1, 8, 3));
    in.dst_unused = static_cast<uint8_t>(field(w1, 11, 2));
    in.clamp = static_cast<uint8_t>(field(w1, 13, 1));
    in.omod = static_cast<uint8_t>(field(w1, 14, 2));
  }
  return in;
}

Inst decode_vop12c(const uint32_t* w, size_t available) {
  Inst in;
  in.word0 = w[0];
  const uint32_t src0 = field(w[0], 0, 9);
  in.src[0] = static_cast<uint16_t>(src0);
  const uint32_t top7 = field(w[0], 25, 7);
  const bool ext = src0 == 0xf9 || src0 == 0xfa;  // SDWA / DPP extension word follows
  if (ext && available < 2) return truncated(w);
  if (top7 == 0x3f) {  // VOP1
    in.format = Format::VOP1;
    in.vdst = static_cast<uint16_t>(field(w[0], 17, 8));
    in.op = static_cast<uint16_t>(0x140 + field(w[0], 9, 8));
    if (!ext && !take_literal(in, w, available, 1)) return truncated(w);
    return ext ? extend(in, w[1], src0 == 0xf9) : in;
  }
  // ISA-DEC-1: vsrc1 is always a VGPR (the mutant reads it as an SGPR code).
  in.src[1] = static_cast<uint16_t>((isa_mutant_active(IsaMutant::Vop2Src1AsSgpr) ? 0 : kVgpr0) + field(w[0], 9, 8));
  if (top7 == 0x3e) {  // VOPC: the mask goes to VCC
    in.format = Format::VOPC;
    in.op = static_cast<uint16_t>(field(w[0], 17, 8));
    in.sdst = kVccLo;
    if (!ext && !take_literal(in, w, available, 2)) return truncated(w);
    return ext ? extend(in, w[1], src0 == 0xf9) : in;
  }
  in.format = Format::VOP2;
  in.vdst = static_cast<uint16_t>(field(w[0], 17, 8));
  if (!widen_vop2(in, field(w[0], 25, 6), w, available)) return truncated(w);
  return ext ? extend(in, w[1], src0 == 0xf9) : in;
}

bool is_vop3b(uint32_t op) {
  return (op >= 0x119 && op <= 0x11e) || op == 0x1e0 || op == 0x1e1 || op == 0x1e8 || op == 0x1e9;
}

Inst decode_vop3(const uint32_t* w, size_t available, bool packed) {
  if (available < 2) return truncated(w);
  Inst in;
  in.word0 = w[0];
  in.word1 = w[1];
  in.dwords = 2;
  in.e64 = true;
  in.format = packed ? Format::VOP3P : Format::VOP3;
  in.op = static_cast<uint16_t>(packed ? field(w[0], 16, 7) : field(w[0], 16, 10));
  in.vdst = static_cast<uint16_t>(field(w[0], 0, 8));
  in.clamp = static_cast<uint8_t>(field(w[0], 15, 1));
  in.src[0] = static_cast<uint16_t>(field(w[1], 0, 9));
  in.src[1] = static_cast<uint16_t>(field(w[1], 9, 9));
  in.src[2] = static_cast<uint16_t>(field(w[1], 18, 9));
  in.neg = static_cast<uint8_t>(field(w[1], 29, 3));
  if (packed) {
    in.opsel = static_cast<uint8_t>(field(w[0], 11, 3));
    in.abs = static_cast<uint8_t>(field(w[0], 8, 3));  // neg_hi
    in.opsel_hi = static_cast<uint8_t>(field(w[1], 27, 2) | field(w[0], 14, 1) << 2);
    return in;
  }
  in.omod = static_cast<uint8_t>(field(w[1], 27, 2));
  if (in.op < 0x100) {  // VOPC as VOP3: the mask goes to the SGPR pair in vdst
    in.sdst = in.vdst;
  } else if (is_vop3b(in.op)) {
    in.sdst = static_cast<uint16_t>(field(w[0], 8, 7));
  } else {
    in.abs = static_cast<uint8_t>(field(w[0], 8, 3));
    in.opsel = static_cast<uint8_t>(field(w[0], 11, 4));
  }
  return in;
}

Inst decode_scalar(const uint32_t* w, size_t available) {
  Inst in;
  in.word0 = w[0];
  const uint32_t top9 = field(w[0], 23, 9);
  if (top9 == 0x17d) {
    in.format = Format::SOP1;
    in.op = static_cast<uint16_t>(field(w[0], 8, 8));
    in.sdst = static_cast<uint16_t>(field(w[0], 16, 7));
    in.src[0] = static_cast<uint16_t>(field(w[0], 0, 8));
    if (!take_literal(in, w, available, 1)) return truncated(w);
  } else if (top9 == 0x17e) {
    in.format = Format::SOPC;
    in.op = static_cast<uint16_t>(field(w[0], 16, 7));
    in.src[0] = static_cast<uint16_t>(field(w[0], 0, 8));
    in.src[1] = static_cast<uint16_t>(field(w[0], 8, 8));
    if (!take_literal(in, w, available, 2)) return truncated(w);
  } else if (top9 == 0x17f) {
    in.format = Format::SOPP;
    in.op = static_cast<uint16_t>(field(w[0], 16, 7));
    in.imm = sext(field(w[0], 0, 16), 16);
  } else if (field(w[0], 28, 4) == 0xb) {
    in.format = Format::SOPK;
    in.op = static_cast<uint16_t>(field(w[0], 23, 5));
    in.sdst = static_cast<uint16_t>(field(w[0], 16, 7));
    in.imm = sext(field(w[0], 0, 16), 16);
    if (in.op == 20) {  // s_setreg_imm32_b32: a 32-bit literal follows
      if (available < 2) return truncated(w);
      in.literal = w[1];
      in.dwords = 2;
    }
  } else {
    in.format = Format::SOP2;
    in.op = static_cast<uint16_t>(field(w[0], 23, 7));
    in.sdst = static_cast<uint16_t>(field(w[0], 16, 7));
    in.src[0] = static_cast<uint16_t>(field(w[0], 0, 8));
    in.src[1] = static_cast<uint16_t>(field(w[0], 8, 8));
    if (!take_literal(in, w, available, 2)) return truncated(w);
  }
  return in;
}

Inst decode_memory(const uint32_t* w, size_t available, uint32_t top6) {
  if (available < 2) return truncated(w);
  Inst in;
  in.word0 = w[0];
  in.word1 = w[1];
  in.dwords = 2;
  switch (top6) {
    case 0x30:  // SMEM
      in.format = Format::SMEM;
      in.op = static_cast<uint16_t>(field(w[0], 18, 8));
      in.saddr = static_cast<uint16_t>(field(w[0], 0, 6) * 2);
      in.sdst = static_cast<uint16_t>(field(w[0], 6, 7));
      in.glc = field(w[0], 16, 1) != 0;
      in.smem_imm = field(w[0], 17, 1) != 0;
      in.offen = field(w[0], 14, 1) != 0;  // SOE: an SGPR offset in word1[31:25] as well
      in.imm = in.smem_imm ? sext(field(w[1], 0, 21), 21) : static_cast<int32_t>(field(w[1], 0, 7));
      in.soffset = static_cast<uint16_t>(field(w[1], 25, 7));
      break;
    case 0x36:  // DS
      in.format = Format::DS;
      in.op = static_cast<uint16_t>(field(w[0], 17, 8));
      in.imm = static_cast<int32_t>(field(w[0], 0, 8));
      in.offset1 = static_cast<uint8_t>(field(w[0], 8, 8));
      in.glc = field(w[0], 16, 1) != 0;  // GDS
      in.vaddr = static_cast<uint8_t>(field(w[1], 0, 8));
      in.vdata = static_cast<uint8_t>(field(w[1], 8, 8));
      in.src[1] = static_cast<uint16_t>(field(w[1], 16, 8));  // data1
      in.vdst = static_cast<uint16_t>(field(w[1], 24, 8));
      break;
    case 0x37: {  // FLAT / SCRATCH / GLOBAL by SEG
      const uint32_t seg = field(w[0], 14, 2);
      in.format = seg == 0 ? Format::FLAT : seg == 1 ? Format::SCRATCH : seg == 2 ? Format::GLOBAL : Format::Invalid;
      in.op = static_cast<uint16_t>(field(w[0], 18, 7));
      in.imm = seg == 0 ? static_cast<int32_t>(field(w[0], 0, 12)) : sext(field(w[0], 0, 13), 13);
      in.glc = field(w[0], 16, 1) != 0;
      in.slc = field(w[0], 17, 1) != 0;
      in.vaddr = static_cast<uint8_t>(field(w[1], 0, 8));
      in.vdata = static_cast<uint8_t>(field(w[1], 8, 8));
      in.saddr = static_cast<uint16_t>(field(w[1], 16, 7));
      in.vdst = static_cast<uint16_t>(field(w[1], 24, 8));
      if (field(w[0], 13, 1) != 0) in.format = Format::Other;  // LDS-direct variant
      break;
    }
    case 0x38:  // MUBUF
      in.format = Format::MUBUF;
      in.op = static_cast<uint16_t>(field(w[0], 18, 7));
      in.imm = static_cast<int32_t>(field(w[0], 0, 12));
      in.offen = field(w[0], 12, 1) != 0;
      in.idxen = field(w[0], 13, 1) != 0;
      in.glc = field(w[0], 14, 1) != 0;
      in.slc = field(w[0], 17, 1) != 0;
      in.vaddr = static_cast<uint8_t>(field(w[1], 0, 8));
      in.vdata = static_cast<uint8_t>(field(w[1], 8, 8));
      in.vdst = in.vdata;  // MUBUF loads (and returning atomics) write VDATA
      in.saddr = static_cast<uint16_t>(field(w[1], 16, 5) * 4);
      in.soffset = static_cast<uint16_t>(field(w[1], 24, 8));
      if (field(w[0], 16, 1) != 0 || field(w[1], 23, 1) != 0) in.format = Format::Other;  // LDS / TFE
      break;
    case 0x3c: {  // MIMG (Vega ISA 12.13)
      in.format = Format::MIMG;
      in.op = static_cast<uint16_t>(field(w[0], 18, 7));
      in.dmask = static_cast<uint8_t>(field(w[0], 8, 4));
      in.glc = field(w[0], 13, 1) != 0;
      in.slc = field(w[0], 25, 1) != 0;
      in.mimg = static_cast<uint8_t>(field(w[0], 12, 1) * kMimgUnorm | field(w[0], 14, 1) * kMimgDa |
                                     field(w[0], 15, 1) * kMimgA16 | field(w[0], 16, 1) * kMimgTfe |
                                     field(w[0], 17, 1) * kMimgLwe | field(w[1], 31, 1) * kMimgD16);
      in.vaddr = static_cast<uint8_t>(field(w[1], 0, 8));
      in.vdata = static_cast<uint8_t>(field(w[1], 8, 8));
      in.vdst = in.vdata;
      in.saddr = static_cast<uint16_t>(field(w[1], 16, 5) * 4);
      in.soffset =
          static_cast<uint16_t>(field(w[1], isa_mutant_active(IsaMutant::MimgSsampFromSrsrc) ? 16 : 21, 5) * 4);
      break;
    }
    default:  // MTBUF, EXP, VINTRP: known families this model does not execute
      in.format = Format::Other;
      break;
  }
  return in;
}

}  // namespace

const char* format_name(Format f) noexcept {
  static constexpr const char* kNames[] = {"INVALID", "SOP1",    "SOP2",  "SOPK", "SOPC",  "SOPP", "SMEM",
                                           "VOP1",    "VOP2",    "VOPC",  "VOP3", "VOP3P", "DS",   "FLAT",
                                           "GLOBAL",  "SCRATCH", "MUBUF", "SDWA", "DPP",   "MIMG", "OTHER"};
  return kNames[static_cast<int>(f)];
}

Inst decode(const uint32_t* w, size_t available) noexcept {
  if (available == 0) return Inst{};
  const uint32_t word = w[0];
  if ((word >> 31) == 0) return decode_vop12c(w, available);
  if ((word >> 30) == 2) return decode_scalar(w, available);
  if ((word >> 23) == 0x1a7) return decode_vop3(w, available, true);
  const uint32_t top6 = word >> 26;
  if (top6 == 0x34) return decode_vop3(w, available, false);
  if (top6 == 0x30 || top6 == 0x36 || top6 == 0x37 || top6 == 0x38 || top6 == 0x3a || top6 == 0x3c || top6 == 0x31) {
    return decode_memory(w, available, top6);
  }
  if (top6 == 0x35) {  // VINTRP: one dword
    Inst in;
    in.word0 = word;
    in.format = Format::Other;
    return in;
  }
  return invalid(w);
}

}  // namespace rocref::gpu::isa
