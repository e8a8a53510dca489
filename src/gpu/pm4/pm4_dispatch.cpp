// gpu/pm4/pm4_dispatch.cpp - SET_SH_REG into the queue's registers; DISPATCH_DIRECT through the launch back end.
#include "gpu/pm4/pm4_dispatch.h"

#include <string>

#include "gpu/isa/compute_registers.h"
#include "gpu/isa/launch.h"
#include "gpu/pm4/pm4_mutant.h"

namespace rocref::gpu::pm4 {
namespace {

bool fail(Pm4Result& r, std::string what) {
  r.ok = false;
  r.what = std::move(what);
  return false;
}

}  // namespace

bool set_sh_reg(const uint32_t* p, uint32_t n, const Pm4Context& ctx, Pm4Result& r) {
  if (ctx.sh == nullptr) return fail(r, "PM4-DISP-1: SET_SH_REG outside a compute queue (no SH registers)");
  if (n < 3) return fail(r, "PM4-DISP-1: SET_SH_REG without a register value");
  const uint32_t offset = p[1] & 0xffffu;
  const uint32_t count = n - 2;
  // PM4-DISP-1: every register written lies in the SH space, or none is written.
  if (offset >= isa::kShRegSpaceDwords || count > isa::kShRegSpaceDwords - offset) {
    return fail(r, "PM4-DISP-1: SET_SH_REG offset " + std::to_string(offset) + " + " + std::to_string(count) +
                       " registers runs past the SH register space");
  }
  for (uint32_t i = 0; i < count; ++i) ctx.sh->r[offset + i] = p[2 + i];
  return true;
}

bool dispatch_direct(const uint32_t* p, uint32_t n, const Pm4Context& ctx, Pm4Result& r) {
  if (ctx.sh == nullptr) return fail(r, "PM4-DISP-2: DISPATCH_DIRECT outside a compute queue (no SH registers)");
  if (n != 5) return fail(r, "PM4-DISP-2: DISPATCH_DIRECT is not 5 dwords");
  if ((p[4] & isa::kDispatchInitiatorComputeShaderEn) == 0) return true;  // no compute shader: nothing starts
  uint32_t groups[3] = {p[1], p[2], p[3]};
  isa::ShRegisters regs = *ctx.sh;
  if (pm4_mutant_active(Pm4Mutant::DispatchDimsAsThreads)) {
    for (unsigned d = 0; d < 3; ++d) {
      const uint32_t wg = regs.r[isa::kComputeNumThreadX + d] & 0xffffu;
      groups[d] = wg == 0 ? groups[d] : (groups[d] + wg - 1) / wg;
    }
  }
  isa::Launch launch;
  if (std::optional<PacketFault> f = isa::launch_from_sh_registers(regs, groups, ctx.memory, ctx.l2, &launch)) {
    return fail(r, "PM4-DISP-2: " + f->what);
  }
  if (std::optional<PacketFault> f = isa::run_launch(launch)) return fail(r, "PM4-DISP-2: " + f->what);
  return true;
}

}  // namespace rocref::gpu::pm4
