// gpu/isa/messages.h - s_sendmsg and s_trap: what a wave tells the hardware outside its own state.
#pragma once

#include "gpu/isa/exec_context.h"

namespace rocref::gpu::isa {

// s_sendmsg / s_sendmsghalt: compute kernels send no GS or interrupt messages the
// model acts on; MSG_INTERRUPT (1) and MSG_SAVEWAVE (4) are accepted, others are illegal.
Step send_message(Wave& w, const Inst& in, ExecContext& ctx);
// s_trap: no trap handler is installed for a dispatch, so a trap ends the
// dispatch with HSA_STATUS_ERROR_EXCEPTION (the debug-trap bit of the CP error, ISA-ERR-2).
Step trap(Wave& w, const Inst& in, ExecContext& ctx);

}  // namespace rocref::gpu::isa
