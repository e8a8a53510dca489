// gpu/isa/exec_context.h - what the instruction executors share for one work-group: memory, LDS, scratch, faults.
//
// Every memory access goes through map(): the dispatch-packet snapshot and the
// dispatch's scratch backing are model-owned overlays; everything else is
// translated by the GPU's MemoryAccess (GPUVM), so a bad address is a GPU page
// fault (ISA-MEM-1), and in the adversarial mode goes through the agent's L2
// (agent_cache.h): coarse-grained bytes may be a line's, not memory's. The executors return a Step; a fault or an
// illegal instruction records the queue error here and ends the dispatch (ISA-ERR-1).
#pragma once

#include <hsa/hsa.h>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "gpu/isa/agent_cache.h"
#include "gpu/isa/instruction.h"
#include "gpu/isa/isa_mutant.h"
#include "gpu/isa/wave_state.h"
#include "gpu/memory_access.h"
#include "gpu/packet_checks.h"

namespace rocref::gpu::isa {

enum class Step : uint8_t { Next, Jumped, Barrier, End, Fault };

struct ExecContext {
  MemoryAccess* memory = nullptr;
  AgentCache* l2 = nullptr;  // adversarial mode: the agent's L2 (GPU-GRAIN-*); null in the fast mode
  // Overlays: the dispatch packet as launched, and the dispatch's scratch backing store.
  uint64_t packet_va = 0;  // 0: no packet (a PM4 dispatch)
  uint8_t packet[64] = {};
  uint64_t scratch_va = 0;  // host address of `scratch` (the V# base the waves see)
  std::vector<uint8_t> scratch;
  std::vector<uint8_t> lds;
  std::optional<PacketFault> fault;
  uint64_t lane_instructions = 0;

  // Host pointer for [va, va + size) or nullptr (the fault is already reported by the VM).
  void* map(uint64_t va, size_t size, Access access) noexcept {
    if (packet_va != 0 && va - packet_va < sizeof packet && va + size <= packet_va + sizeof packet) {
      if (access != Access::Read) return nullptr;  // the packet is read-only to the kernel
      return packet + (va - packet_va);
    }
    if (!scratch.empty() && va - scratch_va < scratch.size() && va + size <= scratch_va + scratch.size()) {
      return scratch.data() + (va - scratch_va);
    }
    void* host = memory->translate(va, size, access);
    if (l2 == nullptr) return host;
    return l2->access(*memory, va, host, size, access);
  }

  // Whether [va, va + size) touches a model-owned overlay (never cached as a GPU page).
  bool overlay(uint64_t va, size_t size) const noexcept {
    const bool packet_hit = packet_va != 0 && va < packet_va + sizeof packet && packet_va < va + size;
    const bool scratch_hit = !scratch.empty() && va < scratch_va + scratch.size() && scratch_va < va + size;
    return packet_hit || scratch_hit;
  }

  Step memory_fault(uint64_t va, const char* what) {
    if (!fault) {
      char text[160];
      std::snprintf(text, sizeof text, "ISA-MEM-1: %s at 0x%llx does not translate (GPU page fault)", what,
                    static_cast<unsigned long long>(va));
      fault = PacketFault{static_cast<hsa_status_t>(HSA_STATUS_ERROR_MEMORY_APERTURE_VIOLATION), text, va};
    }
    return Step::Fault;
  }

  Step illegal(const Inst& in, uint64_t pc, const char* why) {
    if (!fault) {
      char text[200];
      std::snprintf(text, sizeof text, "ISA-ERR-1: %s instruction %s op 0x%x (word 0x%08x) at pc 0x%llx", why,
                    format_name(in.format), in.op, in.word0, static_cast<unsigned long long>(pc));
      fault = PacketFault{static_cast<hsa_status_t>(HSA_STATUS_ERROR_ILLEGAL_INSTRUCTION), text, pc};
    }
    return Step::Fault;
  }

  Step trap(uint64_t pc, uint32_t code) {
    if (!fault) {
      char text[120];
      std::snprintf(text, sizeof text, "ISA-ERR-2: s_trap %u at pc 0x%llx", code, static_cast<unsigned long long>(pc));
      fault = PacketFault{HSA_STATUS_ERROR_EXCEPTION, text, pc};
    }
    return Step::Fault;
  }
};

// One executor per encoding family (scalar_alu.cpp, vector_alu.cpp, scalar_memory.cpp,
// vector_memory.cpp, lds.cpp, branch.cpp).
Step exec_sop1(Wave& w, const Inst& in, ExecContext& ctx);
Step exec_sop2(Wave& w, const Inst& in, ExecContext& ctx);
Step exec_sopk(Wave& w, const Inst& in, ExecContext& ctx);
Step exec_sopc(Wave& w, const Inst& in, ExecContext& ctx);
Step exec_sopp(Wave& w, const Inst& in, ExecContext& ctx);
Step exec_smem(Wave& w, const Inst& in, ExecContext& ctx);
Step exec_valu(Wave& w, const Inst& in, ExecContext& ctx);
Step exec_ds(Wave& w, const Inst& in, ExecContext& ctx);
Step exec_flat(Wave& w, const Inst& in, ExecContext& ctx);
Step exec_mubuf(Wave& w, const Inst& in, ExecContext& ctx);
Step exec_mimg(Wave& w, const Inst& in, ExecContext& ctx);   // image.cpp
Step exec_vop3p(Wave& w, const Inst& in, ExecContext& ctx);  // vector_packed.cpp
Step exec_sdwa(Wave& w, const Inst& in, ExecContext& ctx);   // vector_sdwa.cpp
Step exec_dpp(Wave& w, const Inst& in, ExecContext& ctx);    // vector_dpp.cpp

// Whether an executor implements (format, op): the coverage table's "implemented" column.
bool implemented(Format format, uint16_t op) noexcept;

}  // namespace rocref::gpu::isa
