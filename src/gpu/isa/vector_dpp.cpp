// gpu/isa/vector_dpp.cpp - DPP: VOP1/VOP2/VOPC whose src0 is read from another lane.
//
// Vega ISA 12.9: DPP_CTRL picks, for each lane, the lane its src0 comes from:
// quad_perm within each group of 4, row_shl/shr/ror by 1-15 within each row
// of 16, wave_shl/rol/shr/ror by one lane, row_mirror, row_half_mirror,
// row_bcast15 (lane 15 of a row to the next row) and row_bcast31 (lane 31 to
// rows 2 and 3). A source lane outside its row (or the wave), or disabled by
// EXEC, is invalid: with bound_ctrl it reads 0, else the lane is not written.
// row_mask / bank_mask disable writes to whole rows / to lane groups 4k..4k+3
// of every row. The permuted src0 goes to a hidden row, and the base
// instruction runs with EXEC narrowed to the written lanes (ISA-EXEC-8).
#include "gpu/isa/vector_operands.h"

namespace rocref::gpu::isa {
namespace {

constexpr int kInvalid = -1, kIllegal = -2;

// The source lane of `lane` under `ctrl`, kInvalid when out of range, kIllegal for a reserved DPP_CTRL.
int source_lane(unsigned ctrl, int lane) {
  const int row = lane & ~15, i = lane & 15;
  if (ctrl <= 0xff) return (lane & ~3) | ((ctrl >> (2 * (lane & 3))) & 3);  // quad_perm
  const int n = static_cast<int>(ctrl & 15);
  if (n != 0 && ctrl >= 0x101 && ctrl <= 0x10f) return i + n < 16 ? lane + n : kInvalid;  // row_shl
  if (n != 0 && ctrl >= 0x111 && ctrl <= 0x11f) {                                         // row_shr
    if (isa_mutant_active(IsaMutant::DppRowShiftReversed)) return i + n < 16 ? lane + n : kInvalid;
    return i >= n ? lane - n : kInvalid;
  }
  if (n != 0 && ctrl >= 0x121 && ctrl <= 0x12f) return row | ((i - n) & 15);  // row_ror
  switch (ctrl) {
    case 0x130: return lane < 63 ? lane + 1 : kInvalid;  // wave_shl:1
    case 0x134: return (lane + 1) & 63;                  // wave_rol:1
    case 0x138: return lane > 0 ? lane - 1 : kInvalid;   // wave_shr:1
    case 0x13c: return (lane - 1) & 63;                  // wave_ror:1
    case 0x140: return row | (15 - i);                   // row_mirror
    case 0x141: return (lane & ~7) | (7 - (lane & 7));   // row_half_mirror
    case 0x142: return row >= 16 ? row - 1 : kInvalid;   // row_bcast:15
    case 0x143: return row >= 32 ? 31 : kInvalid;        // row_bcast:31
    default: return kIllegal;
  }
}

// Whether `in` writes EXEC (v_cmpx_*): DPP's narrowed EXEC would leak into the result.
bool writes_exec(const Inst& in) {
  if (in.base != Format::VOPC) return false;
  return in.op < 0x20 ? (in.op & 1) != 0 : (in.op & 0x10) != 0;
}

}  // namespace

Step exec_dpp(Wave& w, const Inst& in, ExecContext& ctx) {
  const bool supported = in.base == Format::VOP1 || in.base == Format::VOP2 || in.base == Format::VOPC;
  if (!supported || extension_refused(in) || writes_exec(in) || source_lane(in.dpp_ctrl, 0) == kIllegal) {
    return ctx.illegal(in, w.pc, "unimplemented");
  }
  for (unsigned i = 0; i < 3; ++i) {
    if (in.src[i] >= kVgpr0 && !w.vgpr_ok(in.src[i] - kVgpr0)) return ctx.illegal(in, w.pc, "out-of-range VGPR in");
  }
  if (in.base != Format::VOPC && !w.vgpr_ok(in.vdst)) return ctx.illegal(in, w.pc, "out-of-range VGPR in");
  const uint64_t exec = w.exec();
  const uint32_t* src = w.vrow(in.src[0] - kVgpr0);
  uint32_t* row = w.vrow(w.nvgpr);
  uint64_t enabled = 0;
  for (unsigned l = 0; l < kWaveLanes; ++l) {
    const bool row_on = (in.row_mask >> (l / 16)) & 1, bank_on = (in.bank_mask >> ((l & 15) / 4)) & 1;
    const int s = source_lane(in.dpp_ctrl, static_cast<int>(l));
    const bool valid = s >= 0 && ((exec >> s) & 1);
    row[l] = valid ? src[s] : 0;
    if (row_on && bank_on && (valid || in.bound_ctrl)) enabled |= uint64_t{1} << l;
  }
  Inst inner = in;
  inner.format = in.base;
  inner.src[0] = static_cast<uint16_t>(kVgpr0 + w.nvgpr);
  w.set_exec(exec & enabled);
  const Step step = run_on_hidden_rows(w, inner, ctx);
  w.set_exec(exec);
  return step;
}

}  // namespace rocref::gpu::isa
