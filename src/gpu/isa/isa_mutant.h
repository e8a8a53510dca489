// gpu/isa/isa_mutant.h - planted interpreter bugs the ISA tests must catch (test-only library).
//
// Compiled in only with ROCREF_ISA_MUTANTS (rocref_isa_mutable); elsewhere
// active() is a constant false and the branches vanish.
#pragma once

namespace rocref::gpu::isa {

enum class IsaMutant : unsigned {
  AddCoNoCarry,          // ISA-EXEC-1: v_add_co_u32 never sets the carry (64-bit address math breaks)
  IgnoreExec,            // ISA-EXEC-3: vector ALU writes lanes EXEC masks off
  BarrierNotWaiting,     // ISA-BAR-1: s_barrier lets a wave run on before the others arrive
  WorkItemIdXInV1,       // ISA-DISP-2: work-item id x lands in v1 instead of v0
  Vop2Src1AsSgpr,        // ISA-DEC-1: decoder reads VOP2 vsrc1 as an SGPR code
  kCount
};

#ifdef ROCREF_ISA_MUTANTS
bool isa_mutant_active(IsaMutant m) noexcept;
void set_isa_mutant(IsaMutant m, bool on) noexcept;
#else
constexpr bool isa_mutant_active(IsaMutant) noexcept { return false; }
#endif

}  // namespace rocref::gpu::isa
