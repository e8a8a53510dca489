// gpu/isa/instruction.h - one pre-decoded gfx900 instruction: format, opcode and operand fields.
//
// The decoder fills it once per code address (program_cache.h); the executors
// read only these fields, never the raw words again. VOP1, VOP2 and VOPC are
// widened to their VOP3 opcode (VOPC 0x000-0x0ff, VOP2 0x100-0x13f, VOP1
// 0x140-0x17f, as the VOP3 encoding numbers them) with implicit VCC operands made
// explicit, so one vector executor serves all four encodings.
#pragma once

#include <cstdint>

namespace rocref::gpu::isa {

enum class Format : uint8_t {
  Invalid,  // not a gfx900 encoding (or one the decoder does not know)
  SOP1,
  SOP2,
  SOPK,
  SOPC,
  SOPP,
  SMEM,
  VOP1,
  VOP2,
  VOPC,
  VOP3,
  VOP3P,
  DS,
  FLAT,
  GLOBAL,
  SCRATCH,
  MUBUF,
  SDWA,
  DPP,    // VOP1/2/C with an SDWA or DPP extension word (`base` names which)
  MIMG,   // image instructions (T# in saddr.., S# in soffset..)
  Other,  // a known encoding family not executed (VINTRP, MTBUF, EXP)
};

const char* format_name(Format f) noexcept;

// Scalar operand codes (the 8-bit SSRC / 9-bit SRC fields; 256+ are VGPRs).
enum OperandCode : uint16_t {
  kFlatScratchLo = 102, kVccLo = 106, kVccHi = 107, kM0 = 124, kExecLo = 126, kExecHi = 127,
  kConstZero = 128, kSharedBase = 235, kSharedLimit = 236, kPrivateBase = 237, kPrivateLimit = 238,
  kVccz = 251, kExecz = 252, kScc = 253, kLiteral = 255, kVgpr0 = 256,
};

// MIMG flag bits (Inst::mimg).
enum MimgFlag : uint8_t { kMimgUnorm = 1, kMimgDa = 2, kMimgA16 = 4, kMimgTfe = 8, kMimgLwe = 16, kMimgD16 = 32 };

struct Inst {
  Format format = Format::Invalid;
  uint8_t dwords = 1;    // instruction length including literal / extension words
  uint16_t op = 0;       // opcode; VOP1/VOP2/VOPC widened to the VOP3 opcode space
  uint16_t src[3] = {};  // operand codes (0..511)
  uint16_t vdst = 0;     // destination VGPR index (vector ops) or SGPR code (scalar dst)
  uint16_t sdst = 0;     // scalar destination code: VOP3B carry/VOPC mask, SOP dst, SMEM sdata
  uint32_t literal = 0;  // the literal constant when an operand is kLiteral (or madak/madmk K)
  int32_t imm = 0;       // SOPP/SOPK simm16, SMEM/FLAT/DS/MUBUF offset
  uint8_t neg = 0, abs = 0, omod = 0, clamp = 0, opsel = 0;  // VOP3 modifiers (VOP3P: abs holds neg_hi)
  uint8_t opsel_hi = 0;  // VOP3P op_sel_hi (bit i: source i)
  // SDWA / DPP: the VOP1/VOP2/VOPC encoding extended, and the extension word's fields.
  Format base = Format::Invalid;
  uint8_t sel[3] = {6, 6, 6};  // SDWA dst_sel, src0_sel, src1_sel (0-3 BYTE_n, 4-5 WORD_n, 6 DWORD)
  uint8_t dst_unused = 0;      // SDWA: 0 pad with zeros, 1 sign-extend, 2 preserve
  uint8_t sext = 0;            // SDWA: bit i sign-extends source i
  uint16_t dpp_ctrl = 0;       // DPP_CTRL (quad_perm, row shifts, wave shifts, mirrors, broadcasts)
  uint8_t row_mask = 0xf, bank_mask = 0xf;
  bool bound_ctrl = false;     // DPP: an invalid source lane reads 0 (else the lane is not written)
  bool glc = false, slc = false, smem_imm = true, offen = false, idxen = false, e64 = false;
  uint8_t offset1 = 0;   // DS second offset
  uint16_t saddr = 0;    // GLOBAL/SCRATCH saddr code (0x7f: off); SMEM sbase code; MUBUF srsrc code
  uint16_t soffset = 0;  // MUBUF soffset code; SMEM soffset when !smem_imm; MIMG ssamp code
  uint8_t vaddr = 0, vdata = 0;  // memory VGPR fields
  uint8_t dmask = 0;             // MIMG: which of X, Y, Z, W are read or written
  uint8_t mimg = 0;              // MIMG flags (kMimg*)
  uint32_t word0 = 0, word1 = 0;  // raw words, kept to check a cached program is unchanged
};

}  // namespace rocref::gpu::isa
