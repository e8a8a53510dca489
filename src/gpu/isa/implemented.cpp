// gpu/isa/implemented.cpp - which (format, opcode) pairs the executors implement: the coverage table's source.
//
// Answered by running the executor on a scratch wave whose operands are all
// in range and seeing whether it reports an illegal instruction, so the table
// cannot drift from the code.
#include <cstring>

#include "gpu/isa/exec_context.h"

namespace rocref::gpu::isa {

bool implemented(Format format, uint16_t op) noexcept {
  // A wave with every VGPR allocated and EXEC empty (no memory is touched), and a
  // context whose memory refuses everything.
  struct NoMemory final : MemoryAccess {
    void* translate(uint64_t, size_t, Access) noexcept override { return nullptr; }
  } none;
  static thread_local Wave w;
  if (w.v.empty()) { w.nvgpr = 256; w.v.assign((256 + kHiddenRows) * kWaveLanes, 0); }
  std::memset(w.s, 0, sizeof w.s);
  w.pc = 0x1000;
  ExecContext ctx;
  ctx.memory = &none;
  Inst in;
  in.format = format;
  in.op = op;
  in.src[0] = in.src[1] = in.src[2] = kVgpr0;  // v0: every executor accepts it
  in.saddr = 0x7f;                             // GLOBAL/SCRATCH "off"
  in.soffset = kConstZero;
  in.sdst = 0;
  in.vdst = 0;
  in.imm = 0;
  Step step;
  switch (format) {
    case Format::SOP1: in.src[0] = 0; in.sdst = 2; step = exec_sop1(w, in, ctx); break;
    case Format::SOP2: in.src[0] = in.src[1] = 0; in.sdst = 2; step = exec_sop2(w, in, ctx); break;
    case Format::SOPK: step = exec_sopk(w, in, ctx); break;
    case Format::SOPC: in.src[0] = in.src[1] = 0; step = exec_sopc(w, in, ctx); break;
    case Format::SOPP: step = exec_sopp(w, in, ctx); break;
    case Format::SMEM: step = exec_smem(w, in, ctx); break;
    case Format::VOP1: case Format::VOP2: case Format::VOPC: case Format::VOP3: step = exec_valu(w, in, ctx); break;
    case Format::DS: step = exec_ds(w, in, ctx); break;
    case Format::FLAT: case Format::GLOBAL: case Format::SCRATCH: step = exec_flat(w, in, ctx); break;
    case Format::MUBUF: in.saddr = 0; step = exec_mubuf(w, in, ctx); break;  // V# in s[0:3] (zero)
    case Format::MIMG:
      in.dmask = 1;
      step = exec_mimg(w, in, ctx);
      break;  // EXEC empty: no descriptor read
    case Format::VOP3P: step = exec_vop3p(w, in, ctx); break;
    case Format::SDWA: case Format::DPP:  // `op` in the VOP3 space names the base encoding
      in.base = op < 0x100 ? Format::VOPC : op < 0x140 ? Format::VOP2 : op < 0x180 ? Format::VOP1 : Format::Invalid;
      in.sdst = kVccLo;
      in.dpp_ctrl = 0xe4;  // quad_perm:[0,1,2,3], the identity
      step = format == Format::SDWA ? exec_sdwa(w, in, ctx) : exec_dpp(w, in, ctx);
      break;
    default: return false;
  }
  // Faults other than an illegal instruction (a page fault, a trap) mean the opcode executed.
  if (step != Step::Fault) return true;
  return ctx.fault && static_cast<uint32_t>(ctx.fault->status) != HSA_STATUS_ERROR_ILLEGAL_INSTRUCTION;
}

}  // namespace rocref::gpu::isa
