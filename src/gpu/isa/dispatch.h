// gpu/isa/dispatch.h - the AQL front end: one kernel dispatch whose kernel object is an AMDHSA descriptor.
//
// The packet processor calls is_isa_kernel() at launch (classification, no side
// effects) and run_isa_dispatch() at completion: launch_from_aql() turns the packet
// and its descriptor into a Launch (launch.h), run_launch() runs it: resident work-groups whose
// waves take turns (ISA-DISP-3) on one or more host workers (ISA-PAR-1); a wave at s_barrier
// waits for its group's other waves (ISA-BAR-1). A fault or an
// illegal instruction ends the dispatch with the PacketFault the queue's error
// path reports (ISA-ERR-1, ISA-MEM-1); the model itself never stops.
#pragma once

#include <hsa/hsa.h>

#include <cstdint>
#include <optional>
#include <string>

#include "gpu/isa/launch.h"
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
  unsigned workers = 0;      // host threads for the work-groups; 0: WorkGroupPool::configured_workers()
};

// ISA-DISP-1: whether the dispatch's kernel object is a valid gfx9 AMDHSA kernel descriptor.
bool is_isa_kernel(const hsa_kernel_dispatch_packet_t& packet, MemoryAccess& memory, std::string* why = nullptr);

// ISA-DISP-2: the Launch of the dispatch (user SGPRs in the ABI's order of the descriptor's
// kernel_code_properties); a fault when the descriptor is not one the interpreter can run.
std::optional<PacketFault> launch_from_aql(const IsaDispatch& dispatch, Launch* out);

// launch_from_aql, then run_launch: the whole grid; nullopt on success.
std::optional<PacketFault> run_isa_dispatch(const IsaDispatch& dispatch, IsaStats* stats = nullptr);

}  // namespace rocref::gpu::isa
