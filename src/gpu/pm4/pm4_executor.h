// gpu/pm4/pm4_executor.h - runs a PM4 indirect buffer: the commands ROCR sends through AQL.
//
// Follows spec/pm4.md clauses PM4-*: every packet's length comes from its
// header before it is executed; an unknown opcode, a packet running past the
// IB, an invalid or too deeply nested IB, or an unmapped address stops the IB
// with an error (the caller puts the queue in error); nothing is skipped.
#pragma once

#include <cstdint>
#include <functional>
#include <string>

#include "gpu/memory_access.h"

namespace rocref::gpu::isa {
class AgentCache;
struct ShRegisters;
}  // namespace rocref::gpu::isa

namespace rocref::gpu::pm4 {

struct Pm4Context {
  MemoryAccess* memory = nullptr;
  std::function<void(uint32_t int_ctx)> on_interrupt;  // RELEASE_MEM with int_sel != 0
  std::function<uint64_t()> clock;                     // data_sel 3 (GPU clock); null: steady clock
  isa::ShRegisters* sh = nullptr;  // a compute queue's SH registers (SET_SH_REG); null in an AQL PM4-IB
  isa::AgentCache* l2 = nullptr;   // adversarial mode: the agent's L2 (isa/agent_cache.h)
};

struct Pm4Result {
  bool ok = true;
  uint32_t packets = 0;   // packets executed, nested IBs included
  std::string what;       // on error: starts with the clause
  // PM4-WAIT-1: a WAIT_REG_MEM whose condition does not hold yet: the packet did not complete
  // (ok stays true, packets does not count it); the queue runs it again later.
  bool waiting = false;
};

inline constexpr int kMaxIbDepth = 2;  // the AQL jump IB plus one chained level

// PM4-PKT-1/2: a type-3 packet's length in dwords from its header (dwords_of, planted bugs aside).
uint32_t packet_dwords(uint32_t header) noexcept;

Pm4Result execute_ib(uint64_t va, uint32_t size_dw, const Pm4Context& ctx, int depth = 0);
// Runs one type-3 packet of n dwords (n = dwords_of(p[0])) already copied out of its ring or
// IB; false (and r.what) on an error. An INDIRECT_BUFFER runs its IB at depth + 1. A
// WAIT_REG_MEM that does not hold sets r.waiting and returns true (execute_ib, which cannot
// stall, makes that an error; a compute queue keeps the packet and polls again).
bool run_packet(const uint32_t* p, uint32_t n, const Pm4Context& ctx, int depth, Pm4Result& r);

}  // namespace rocref::gpu::pm4
