// gpu/isa/dispatch.h - the entry point: run one AQL kernel dispatch whose kernel object is an AMDHSA descriptor.
//
// The packet processor calls is_isa_kernel() at launch (classification, no side
// effects) and run_isa_dispatch() at completion. Up to 16 work-groups are resident
// at once and their waves take turns of 1,024 instructions, so a wave spinning on
// memory others write lets them run (ISA-DISP-3); a wave at s_barrier waits for its
// group's other waves (ISA-BAR-1). A fault or an
// illegal instruction ends the dispatch with the PacketFault the queue's error
// path reports (ISA-ERR-1, ISA-MEM-1); the model itself never stops.
#pragma once

#include <hsa/hsa.h>

#include <cstdint>
#include <optional>
#include <string>

#include "gpu/memory_access.h"
#include "gpu/packet_checks.h"

namespace rocref::gpu::isa {

class AgentCache;

struct IsaDispatch {
  const hsa_kernel_dispatch_packet_t* packet = nullptr;
  uint64_t packet_va = 0;    // the dispatch packet in the ring: the kernel's dispatch ptr
  uint64_t queue_va = 0;     // the amd_queue_t: the kernel's queue ptr
  uint64_t dispatch_id = 0;  // the packet id: the kernel's dispatch id
  MemoryAccess* memory = nullptr;
  AgentCache* l2 = nullptr;  // adversarial mode: the agent's L2 (agent_cache.h)
};

struct IsaStats {
  uint64_t work_groups = 0;
  uint64_t waves = 0;
  uint64_t instructions = 0;         // wave instructions
  uint64_t scalar_instructions = 0;  // of which SOP1/SOP2/SOPK/SOPC/SOPP/SMEM (the rest are vector)
  uint64_t lane_instructions = 0;    // instructions x active lanes
};

// ISA-DISP-1: whether the dispatch's kernel object is a valid gfx9 AMDHSA kernel descriptor.
bool is_isa_kernel(const hsa_kernel_dispatch_packet_t& packet, MemoryAccess& memory, std::string* why = nullptr);

// Runs the whole grid; nullopt on success.
std::optional<PacketFault> run_isa_dispatch(const IsaDispatch& dispatch, IsaStats* stats = nullptr);

}  // namespace rocref::gpu::isa
