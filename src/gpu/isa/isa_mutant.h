// gpu/isa/isa_mutant.h - planted interpreter bugs the ISA tests must catch (test-only library).
//
// Compiled in only with ROCREF_ISA_MUTANTS (rocref_isa_mutable); elsewhere
// active() is a constant false and the branches vanish.
#pragma once

namespace rocref::gpu::isa {

enum class IsaMutant : unsigned {
  AddCoNoCarry,                // ISA-EXEC-1: v_add_co_u32 never sets the carry (64-bit address math breaks)
  IgnoreExec,                  // ISA-EXEC-3: vector ALU writes lanes EXEC masks off
  BarrierNotWaiting,           // ISA-BAR-1: s_barrier lets a wave run on before the others arrive
  WorkItemIdXInV1,             // ISA-DISP-2: work-item id x lands in v1 instead of v0
  Vop2Src1AsSgpr,              // ISA-DEC-1: decoder reads VOP2 vsrc1 as an SGPR code
  SdwaSrcSelSwapped,           // ISA-DEC-1: decoder swaps the SDWA src0_sel and src1_sel fields
  PackedOpSelHiIgnored,        // ISA-EXEC-6: VOP3P high halves read the high 16 bits whatever op_sel_hi says
  SdwaNoSignExtend,            // ISA-EXEC-7: SDWA sext is ignored (selected bytes/words always zero-extended)
  DppRowShiftReversed,         // ISA-EXEC-8: DPP row_shr reads lane i + n (row_shl's direction)
  HalfResultKeepsHighBits,     // ISA-EXEC-9: an f16 VALU result sets the high half instead of zeroing it
  CndmaskIgnoresModifiers,     // ISA-EXEC-5: VOP3 v_cndmask_b32 drops abs/neg of its sources (x or -x gives x)
  PackHalvesSwapped,           // ISA-EXEC-9: v_pack_b32_f16 puts S0 in the high half and S1 in the low
  MimgSsampFromSrsrc,          // ISA-DEC-1: decoder takes the MIMG sampler (SSAMP) from the SRSRC field
  FormatIgnoresDstSel,         // ISA-IMG-2: buffer/image format loads return the channels without DST_SEL
  LinearNoHalfTexel,           // ISA-IMG-2: bilinear filtering forgets the half-texel shift (texel centres)
  TiledNoPipeBankXor,          // ISA-IMG-4: the _X swizzle modes address texels without the pipe/bank XOR
  StatsSkipScalar,             // ISA-TRACE-1: the per-dispatch counts leave scalar instructions out
  FineGrainCached,             // GPU-GRAIN-1: the L2 caches fine-grained (MTYPE_UC) memory too
  L2WritesThrough,             // GPU-GRAIN-2: the L2 writes every store through (a narrow release is never stale)
  UnmapKeepsL2Lines,           // GPU-GRAIN-4: an unmap leaves the range's lines (written back into freed memory later)
  ParallelStatsOfOneWorker,    // ISA-PAR-1: a parallel launch counts only the calling thread's work-groups
  ParallelFaultOfLastGroup,    // ISA-PAR-1: a parallel launch reports the fault of the last faulting work-group
  WorkGroupsOneAtATime,        // ISA-DISP-3: each work-group runs to its end before the next starts (no quanta)
  UserDataFromSecondRegister,  // ISA-LAUNCH-2: a PM4 launch's s0 is COMPUTE_USER_DATA_1, not _0 (one register off)
  kCount
};

#ifdef ROCREF_ISA_MUTANTS
bool isa_mutant_active(IsaMutant m) noexcept;
void set_isa_mutant(IsaMutant m, bool on) noexcept;
#else
constexpr bool isa_mutant_active(IsaMutant) noexcept { return false; }
#endif

}  // namespace rocref::gpu::isa
