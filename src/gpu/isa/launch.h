// gpu/isa/launch.h - one kernel launch as the shader hardware sees it, and the back end that runs it.
//
// The seam between the two front ends that start a kernel and the work-group loop. The CP
// starts compute waves from the same state whichever queue asked: an AQL dispatch packet and
// its AMDHSA kernel descriptor (launch_from_aql, dispatch.h) or the SH registers a PM4 queue
// set before DISPATCH_DIRECT (launch_from_sh_registers, compute_registers.h). Both build a
// Launch: the code address, the decoded COMPUTE_PGM_RSRC1/2 fields, the initial user SGPRs
// already laid out, the grid and work-group sizes, the LDS and private sizes. run_launch runs
// its work-groups (ISA-LAUNCH-1); nothing in it knows which front end made the Launch. Up to 16
// work-groups are resident on a worker at once and their waves take turns of 1,024
// instructions (ISA-DISP-3); the workers are host threads claiming work-groups in launch order
// (work_group_pool.h, ISA-PAR-1).
#pragma once

#include <cstdint>
#include <optional>

#include "gpu/isa/kernel_descriptor.h"
#include "gpu/memory_access.h"
#include "gpu/packet_checks.h"

namespace rocref::gpu::isa {

class AgentCache;

inline constexpr unsigned kMaxUserSgprs = 16;

struct Launch {
  uint64_t code_va = 0;     // first instruction (256-byte aligned)
  uint64_t fault_va = 0;    // the address a fault of the launch itself names (kernel object, PGM address)
  DescriptorFields fields;  // COMPUTE_PGM_RSRC1/2, decoded
  uint32_t user_sgpr[kMaxUserSgprs] = {};  // s0.. as the wave starts
  uint32_t user_sgpr_count = 0;         // SGPRs laid out; the system SGPRs follow at max(this, fields.user_sgpr_count)
  int scratch_rsrc_sgpr = -1;           // where the private-segment V# goes (4 SGPRs): the back end owns the scratch
  int flat_scratch_sgpr = -1;           // where the flat-scratch base goes (2 SGPRs)
  uint32_t grid[3] = {1, 1, 1};         // work-items per dimension
  uint32_t workgroup[3] = {1, 1, 1};    // work-items per work-group
  uint32_t group_start[3] = {0, 0, 0};  // the first work-group id (COMPUTE_START_*)
  uint32_t lds_bytes = 0;
  uint32_t private_size = 0;  // bytes per work-item, a multiple of 4
  // The dispatch packet the kernel's dispatch ptr names (AQL only): a read-only overlay.
  const void* packet = nullptr;
  uint64_t packet_va = 0;
  MemoryAccess* memory = nullptr;
  AgentCache* l2 = nullptr;  // adversarial mode: the agent's L2 (agent_cache.h)
  unsigned workers = 0;      // host threads for the work-groups; 0: WorkGroupPool::configured_workers()
};

struct IsaStats {
  uint64_t work_groups = 0;
  uint64_t waves = 0;
  uint64_t instructions = 0;         // wave instructions
  uint64_t scalar_instructions = 0;  // of which SOP1/SOP2/SOPK/SOPC/SOPP/SMEM (the rest are vector)
  uint64_t lane_instructions = 0;    // instructions x active lanes
};

// ISA-LAUNCH-1: runs every work-group of the launch; nullopt on success, else the fault that ended it.
std::optional<PacketFault> run_launch(const Launch& launch, IsaStats* stats = nullptr);

}  // namespace rocref::gpu::isa
