// gpu/isa/vector_sdwa.cpp - SDWA: VOP1/VOP2/VOPC with sub-dword source selects and destination placement.
//
// Vega ISA 12.8: each source is a byte (BYTE_0-3), a word (WORD_0-1) or the
// dword, zero- or sign-extended (sext) to 32 bits, before the operation; the
// 32-bit result's low byte/word goes to the dst_sel field of VDST, the other
// bits zero (UNUSED_PAD), the field's sign (UNUSED_SEXT) or as they were
// (UNUSED_PRESERVE). neg/abs, clamp and omod are the float modifiers. The
// selected sources are prepared in the wave's hidden rows and the base
// instruction runs on them through the ordinary vector executor (ISA-EXEC-7).
#include "gpu/isa/vector_operands.h"

namespace rocref::gpu::isa {
namespace {

enum : uint8_t { kByte0 = 0, kWord0 = 4, kDword = 6 };
enum : uint8_t { kUnusedPad = 0, kUnusedSext = 1, kUnusedPreserve = 2 };

uint32_t select(uint32_t v, uint8_t sel, bool sext) {
  if (sel == kDword) return v;
  if (isa_mutant_active(IsaMutant::SdwaNoSignExtend)) sext = false;
  if (sel < kWord0) {
    const uint32_t byte = (v >> (8 * sel)) & 0xff;
    return sext ? static_cast<uint32_t>(static_cast<int32_t>(static_cast<int8_t>(byte))) : byte;
  }
  const uint32_t word = (v >> (16 * (sel - kWord0))) & 0xffff;
  return sext ? static_cast<uint32_t>(static_cast<int32_t>(static_cast<int16_t>(word))) : word;
}

uint32_t place(uint32_t result, uint32_t old, uint8_t sel, uint8_t unused) {
  if (sel == kDword) return result;
  const unsigned width = sel < kWord0 ? 8 : 16;
  const unsigned shift = sel < kWord0 ? 8 * sel : 16 * (sel - kWord0);
  const uint32_t mask = ((1u << width) - 1) << shift;
  const uint32_t value = (result << shift) & mask;
  switch (unused) {
    case kUnusedPad: return value;
    case kUnusedSext: {
      const bool negative = (result >> (width - 1)) & 1;
      const unsigned top = shift + width;
      return negative && top < 32 ? value | (~0u << top) : value;
    }
    default: return (old & ~mask) | value;  // kUnusedPreserve
  }
}

}  // namespace

// A lane-crossing or scalar-destination VOP1 (v_readfirstlane_b32) has no SDWA/DPP form.
bool extension_refused(const Inst& in) { return in.op == 0x142; }

Step run_on_hidden_rows(Wave& w, const Inst& inner, ExecContext& ctx) {
  w.nvgpr += kHiddenRows;
  const Step step = exec_valu(w, inner, ctx);
  w.nvgpr -= kHiddenRows;
  return step;
}

Step exec_sdwa(Wave& w, const Inst& in, ExecContext& ctx) {
  const bool vopc = in.base == Format::VOPC;
  const unsigned nsrc = in.base == Format::VOP1 ? 1 : 2;
  bool supported = in.base == Format::VOP1 || in.base == Format::VOP2 || vopc;
  for (unsigned i = 0; i <= nsrc; ++i) supported = supported && in.sel[i] <= kDword;
  if (!supported || in.dst_unused > kUnusedPreserve || extension_refused(in)) {
    return ctx.illegal(in, w.pc, "unimplemented");
  }
  for (unsigned i = 0; i < 3; ++i) {
    if (in.src[i] >= kVgpr0 && !w.vgpr_ok(in.src[i] - kVgpr0)) return ctx.illegal(in, w.pc, "out-of-range VGPR in");
  }
  if (!vopc && !w.vgpr_ok(in.vdst)) return ctx.illegal(in, w.pc, "out-of-range VGPR in");
  const unsigned hidden = w.nvgpr;
  Inst inner = in;
  inner.format = in.base;
  for (unsigned i = 0; i < nsrc; ++i) {
    Lanes32 src;
    read32(w, in.src[i], 0, src);
    uint32_t* row = w.vrow(hidden + i);
    const bool sext = (in.sext >> i) & 1;
    for (unsigned l = 0; l < kWaveLanes; ++l) row[l] = select(src[l], in.sel[i + 1], sext);
    inner.src[i] = static_cast<uint16_t>(kVgpr0 + hidden + i);
  }
  if (vopc) return run_on_hidden_rows(w, inner, ctx);
  inner.vdst = static_cast<uint16_t>(hidden + 2);
  const Step step = run_on_hidden_rows(w, inner, ctx);
  if (step != Step::Next) return step;
  const uint32_t* result = w.vrow(hidden + 2);
  write_lanes32(w, in.vdst, active_lanes(w), [&, d = w.vrow(in.vdst)](unsigned l) {
    return place(result[l], d[l], in.sel[0], in.dst_unused);
  });
  return Step::Next;
}

}  // namespace rocref::gpu::isa
