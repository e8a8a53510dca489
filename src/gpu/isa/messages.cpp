// gpu/isa/messages.cpp - s_sendmsg and s_trap (Vega ISA reference, section 4.8 and table "SendMsg").
#include "gpu/isa/messages.h"

namespace rocref::gpu::isa {

Step send_message(Wave& w, const Inst& in, ExecContext& ctx) {
  const uint32_t message = static_cast<uint32_t>(in.imm) & 0xf;
  if (message == 1 || message == 4 || message == 0) return Step::Next;
  return ctx.illegal(in, w.pc, "unsupported message of");
}

Step trap(Wave& w, const Inst& in, ExecContext& ctx) {
  return ctx.trap(w.pc, static_cast<uint32_t>(in.imm) & 0xff);
}

}  // namespace rocref::gpu::isa
