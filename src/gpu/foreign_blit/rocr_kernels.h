// gpu/foreign_blit/rocr_kernels.h - ROCR 5.2.3's blit kernels: how to recognise their code and their kernargs.
//
// BlitKernel names every kernel the model emulates: ROCR's three below and
// ROCclr's (rocclr_kernels.h). ROCR assembles CopyAligned, CopyMisaligned and
// Fill from source at start-up (core/runtime/amd_blit_kernel.cpp) and
// dispatches them for hsa_memory_copy, hsa_amd_memory_fill and
// device-to-device copies. Each begins by loading its
// kernarg block with a fixed sequence of s_load instructions (SMEM encoding of
// gfx8/gfx9) followed by s_waitcnt lgkmcnt(0); that prologue is the kernel's
// fingerprint (BLIT-REC-1). The kernarg layouts below are the "Kernel argument
// buffer" comments of that file.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

namespace rocref::gpu::foreign_blit {

enum class BlitKernel : uint8_t {
  CopyAligned,
  CopyMisaligned,
  Fill,
  RocclrCopyBuffer,
  RocclrCopyBufferAligned,
  RocclrFillBufferAligned,
};
const char* blit_kernel_name(BlitKernel k) noexcept;

struct CopyAlignedArgs {  // DW 0-20
  uint64_t phase1_src_start, phase1_dst_start;
  uint64_t phase2_src_start, phase2_dst_start;
  uint64_t phase3_src_start, phase3_dst_start;
  uint64_t phase4_src_start, phase4_dst_start;
  uint64_t phase4_src_end, phase4_dst_end;
  uint32_t num_workitems;
};
static_assert(offsetof(CopyAlignedArgs, num_workitems) == 0x50);

struct CopyMisalignedArgs {  // DW 0-12
  uint64_t phase1_src_start, phase1_dst_start;
  uint64_t phase2_src_start, phase2_dst_start;
  uint64_t phase2_src_end, phase2_dst_end;
  uint32_t num_workitems;
};
static_assert(offsetof(CopyMisalignedArgs, num_workitems) == 0x30);

struct FillArgs {  // DW 0-7
  uint64_t phase1_dst_start;
  uint64_t phase2_dst_start;
  uint64_t phase2_dst_end;
  uint32_t value;
  uint32_t num_workitems;
};
static_assert(offsetof(FillArgs, value) == 0x18 && offsetof(FillArgs, num_workitems) == 0x1c);

// gfx8/gfx9 SMEM "s_load_dword{,x2,x4,x8} s[sdata...], s[sbase:sbase+1], offset" as two dwords
// (the second is the offset); sbase is the first register of the even pair.
constexpr uint32_t kSmemLoadDword = 0, kSmemLoadDwordx2 = 1, kSmemLoadDwordx4 = 2, kSmemLoadDwordx8 = 3;
constexpr uint32_t smem_load_dw0(uint32_t op, uint32_t sdata, uint32_t sbase = 0) {
  return 0xC0000000u | (op << 18) | (1u << 17) | (sdata << 6) | (sbase >> 1);
}

// The code dwords each ROCR kernel starts with (loads only; an s_waitcnt lgkmcnt(0) follows);
// empty for the ROCclr kernels, which rocclr_kernels.h fingerprints.
std::vector<uint32_t> prologue(BlitKernel k);
// Longest prologue plus the s_waitcnt, in dwords: how much code recognise() needs.
inline constexpr size_t kFingerprintDwords = 13;

// The ROCR kernel whose code starts with `code` (at least kFingerprintDwords dwords), if any.
std::optional<BlitKernel> recognise(const uint32_t* code, size_t dwords) noexcept;

}  // namespace rocref::gpu::foreign_blit
