// gpu/isa/compute_registers.h - the PM4 front end: the SH registers a compute queue set, as a Launch.
//
// A PM4 compute queue (kfdtest's, libhsakmt's) starts a kernel as a driver does without AQL:
// SET_SH_REG writes COMPUTE_PGM_LO/HI (the code address >> 8), COMPUTE_PGM_RSRC1/2,
// COMPUTE_NUM_THREAD_X/Y/Z (the work-group size), COMPUTE_START_X/Y/Z (the first work-group
// id), COMPUTE_TMPRING_SIZE (the scratch per wave) and COMPUTE_USER_DATA_0..15 (the user
// SGPRs, verbatim: there is no descriptor and no ABI layout), then DISPATCH_DIRECT gives the
// work-group counts. Register offsets are gfx9's (amdgpu gc_9_0_offset.h, kfdtest's
// asic_reg headers) relative to the SH space at 0x2c00 that SET_SH_REG addresses (ISA-LAUNCH-2).
#pragma once

#include <cstdint>
#include <optional>

#include "gpu/isa/launch.h"

namespace rocref::gpu::isa {

inline constexpr uint32_t kShRegSpaceStart = 0x2c00;  // PACKET3_SET_SH_REG_START
inline constexpr uint32_t kShRegSpaceDwords = 0x400;  // to PACKET3_SET_SH_REG_END (0x3000)

// Offsets into the SH space (register address - 0x2c00).
enum ShReg : uint32_t {
  kComputeStartX = 0x204,      // START_X/Y/Z: 0x204..0x206
  kComputeNumThreadX = 0x207,  // NUM_THREAD_X/Y/Z: 0x207..0x209, NUM_THREAD_FULL in bits 0-15
  kComputePgmLo = 0x20c,       // bits 8-39 of the code address
  kComputePgmHi = 0x20d,       // bits 40-47 in bits 0-7
  kComputePgmRsrc1 = 0x212,
  kComputePgmRsrc2 = 0x213,
  kComputeTmpringSize = 0x218,  // WAVES bits 0-11, WAVESIZE bits 12-24 (units of 1 KiB per wave)
  kComputeUserData0 = 0x240,    // USER_DATA_0..15: 0x240..0x24f
};

// One queue's SH register file, as SET_SH_REG left it.
struct ShRegisters {
  uint32_t r[kShRegSpaceDwords] = {};
};

// DISPATCH_DIRECT's DISPATCH_INITIATOR bit 0: the compute shader is enabled.
inline constexpr uint32_t kDispatchInitiatorComputeShaderEn = 1u;

// ISA-LAUNCH-2: the Launch of DISPATCH_DIRECT with `groups` work-groups per dimension; a fault
// when the registers describe no launch the shader hardware could start.
std::optional<PacketFault> launch_from_sh_registers(const ShRegisters& sh, const uint32_t groups[3],
                                                    MemoryAccess* memory, AgentCache* l2, Launch* out);

}  // namespace rocref::gpu::isa
