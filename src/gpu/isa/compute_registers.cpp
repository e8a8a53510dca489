// gpu/isa/compute_registers.cpp - COMPUTE_* SH registers and DISPATCH_DIRECT's counts as a Launch.
#include "gpu/isa/compute_registers.h"

#include <string>

#include "gpu/isa/isa_mutant.h"
#include "gpu/isa/wave_state.h"

namespace rocref::gpu::isa {

std::optional<PacketFault> launch_from_sh_registers(const ShRegisters& sh, const uint32_t groups[3],
                                                    MemoryAccess* memory, AgentCache* l2, Launch* out) {
  Launch l;
  l.code_va = ((uint64_t{sh.r[kComputePgmHi] & 0xffu} << 32) | sh.r[kComputePgmLo]) << 8;
  l.fault_va = l.code_va;
  KernelDescriptor kd{};
  kd.compute_pgm_rsrc1 = sh.r[kComputePgmRsrc1];
  kd.compute_pgm_rsrc2 = sh.r[kComputePgmRsrc2];
  l.fields = decode_fields(kd);
  // The user SGPRs are the USER_DATA registers as written: the CP loads them unchanged.
  l.user_sgpr_count = l.fields.user_sgpr_count;
  const unsigned first = isa_mutant_active(IsaMutant::UserDataFromSecondRegister) ? 1 : 0;
  for (unsigned i = 0; i < l.user_sgpr_count && i < kMaxUserSgprs; ++i)
    l.user_sgpr[i] = sh.r[kComputeUserData0 + first + i];
  const uint32_t wave_kib = (sh.r[kComputeTmpringSize] >> 12) & 0x1fffu;
  l.private_size = wave_kib * 1024 / kWaveLanes;
  for (unsigned d = 0; d < 3; ++d) {
    l.workgroup[d] = sh.r[kComputeNumThreadX + d] & 0xffffu;
    l.group_start[d] = sh.r[kComputeStartX + d];
    const uint64_t items = uint64_t{groups[d]} * l.workgroup[d];
    if (l.workgroup[d] == 0) {
      return PacketFault{HSA_STATUS_ERROR_INVALID_ARGUMENT,
                         "ISA-LAUNCH-2: COMPUTE_NUM_THREAD_" + std::string(1, char('X' + d)) + " is 0", l.code_va};
    }
    if (items > UINT32_MAX) {
      return PacketFault{HSA_STATUS_ERROR_INVALID_ARGUMENT, "ISA-LAUNCH-2: more than 2^32 work-items in a dimension",
                         l.code_va};
    }
    l.grid[d] = static_cast<uint32_t>(items);
  }
  if (l.code_va == 0)
    return PacketFault{HSA_STATUS_ERROR_INVALID_CODE_OBJECT, "ISA-LAUNCH-2: COMPUTE_PGM_LO/HI is 0", 0};
  l.memory = memory;
  l.l2 = l2;
  *out = l;
  return std::nullopt;
}

}  // namespace rocref::gpu::isa
