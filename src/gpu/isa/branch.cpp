// gpu/isa/branch.cpp - SOPP: branches, s_endpgm, s_barrier, s_waitcnt and the other program-control instructions.
//
// The interpreter is in order, so every memory access has completed when the
// next instruction issues: s_waitcnt has nothing to wait for (ISA-EXEC-4).
#include "gpu/isa/exec_context.h"
#include "gpu/isa/messages.h"

namespace rocref::gpu::isa {

Step exec_sopp(Wave& w, const Inst& in, ExecContext& ctx) {
  const uint64_t target = w.pc + 4 + static_cast<uint64_t>(static_cast<int64_t>(in.imm) * 4);
  auto branch_if = [&](bool taken) {
    if (!taken) return Step::Next;
    w.pc = target;
    return Step::Jumped;
  };
  switch (in.op) {
    case 0: case 12: case 14: case 15: case 19: case 20: case 21:  // nop, waitcnt, sleep, setprio, icache_inv, perf
      return Step::Next;
    case 1: return Step::End;  // s_endpgm
    case 2: return branch_if(true);
    case 4: return branch_if(!w.scc);
    case 5: return branch_if(w.scc);
    case 6: return branch_if(w.vcc() == 0);
    case 7: return branch_if(w.vcc() != 0);
    case 8: return branch_if(w.exec() == 0);
    case 9: return branch_if(w.exec() != 0);
    case 10: return Step::Barrier;  // s_barrier: the work-group loop holds the wave (ISA-BAR-1)
    case 16: case 17: return send_message(w, in, ctx);
    case 18: return trap(w, in, ctx);
    default:
      return ctx.illegal(in, w.pc, "unimplemented");
  }
}

}  // namespace rocref::gpu::isa
