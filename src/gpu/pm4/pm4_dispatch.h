// gpu/pm4/pm4_dispatch.h - SET_SH_REG and DISPATCH_DIRECT: a PM4 queue's compute dispatch.
//
// SET_SH_REG writes consecutive registers of the queue's SH register file (PM4-DISP-1);
// DISPATCH_DIRECT turns that file into an isa::Launch (isa/compute_registers.h) and runs it
// on the same back end as an AQL dispatch (isa/launch.h, PM4-DISP-2). A fault ends the
// packet with an error: the queue stops, as for any PM4 error (PM4-Q-2); a GPU page fault
// was already reported by GPUVM (the memory event, KFD-FAULT-1).
#pragma once

#include <cstdint>

#include "gpu/pm4/pm4_executor.h"

namespace rocref::gpu::pm4 {

bool set_sh_reg(const uint32_t* p, uint32_t n, const Pm4Context& ctx, Pm4Result& r);
bool dispatch_direct(const uint32_t* p, uint32_t n, const Pm4Context& ctx, Pm4Result& r);

}  // namespace rocref::gpu::pm4
