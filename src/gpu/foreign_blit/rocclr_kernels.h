// gpu/foreign_blit/rocclr_kernels.h - ROCclr 5.2.3's linear blit kernels: recognising their code; their kernargs.
//
// HIP 5.2.3's device layer (ROCclr) builds its blit program from OpenCL C at
// start-up (device/blitcl.cpp, compiled by comgr with the device libraries'
// __amd_copyBuffer and __amd_fillBufferAligned) and dispatches
// __amd_rocclr_copyBuffer for device-to-device hipMemcpy and
// __amd_rocclr_fillBufferAligned for every hipMemset form
// (device/rocm/rocblit.cpp: KernelBlitManager::copyBuffer, fillBuffer1D).
// __amd_rocclr_copyBufferAligned shares copyBuffer's layout; ROCclr 5.2.3
// never picks it (its alignment table is all 1s) but it is in the same program.
// The layouts are the code object metadata of the program Debian's comgr
// builds for gfx900 (code object v3): the explicit arguments, then
// hidden_global_offset_x/y/z, then four hidden_none (BLIT-ARG-2).
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

#include "gpu/foreign_blit/rocr_kernels.h"

namespace rocref::gpu::foreign_blit {

struct RocclrCopyBufferArgs {  // __amd_rocclr_copyBuffer, kernarg_segment_size 104
  uint64_t src, dst;                // srcI, dstI
  uint64_t src_origin, dst_origin;  // bytes
  uint64_t size;                    // work-items that act: whole dwords + 1 for the tail
  uint32_t remain;                  // bytes the last work-item copies; kCopyBytewise: one byte per work-item
  uint32_t pad;
  uint64_t global_offset_x;  // hidden_global_offset_x
};
static_assert(offsetof(RocclrCopyBufferArgs, remain) == 0x28 &&
              offsetof(RocclrCopyBufferArgs, global_offset_x) == 0x30);
inline constexpr uint32_t kCopyBytewise = 8;

struct RocclrCopyBufferAlignedArgs {  // __amd_rocclr_copyBufferAligned, kernarg_segment_size 104
  uint64_t src, dst;
  uint64_t src_origin, dst_origin;  // elements
  uint64_t size;                    // elements
  uint32_t alignment;               // 16: an element is 16 bytes, otherwise 4
  uint32_t pad;
  uint64_t global_offset_x;
};
static_assert(offsetof(RocclrCopyBufferAlignedArgs, alignment) == 0x28 &&
              offsetof(RocclrCopyBufferAlignedArgs, global_offset_x) == 0x30);

struct RocclrFillBufferArgs {  // __amd_rocclr_fillBufferAligned, kernarg_segment_size 120
  uint64_t buf_uchar, buf_ushort, buf_uint, buf_ulong;  // the first non-null from ulong down is written
  uint64_t pattern;                                     // __constant, pattern_size elements
  uint32_t pattern_size;                                // elements of the written width
  uint32_t pad;
  uint64_t offset;  // elements
  uint64_t size;    // work-items that act, one pattern each
  uint64_t global_offset_x;
};
static_assert(offsetof(RocclrFillBufferArgs, pattern_size) == 0x28 && offsetof(RocclrFillBufferArgs, offset) == 0x30 &&
              offsetof(RocclrFillBufferArgs, size) == 0x38 && offsetof(RocclrFillBufferArgs, global_offset_x) == 0x40);

// One fact about a kernel's code: the dword at `index` from the entry point.
struct CodeFact {
  uint16_t index;
  uint32_t value;
};

// BLIT-REC-3: the kernarg size the kernel descriptor declares (byte 8) and the code facts:
// the kernarg loads and the comparison on the argument that selects the kernel's mode.
struct RocclrFingerprint {
  uint32_t kernarg_size;
  std::vector<CodeFact> facts;
};
RocclrFingerprint rocclr_fingerprint(BlitKernel k);
inline constexpr BlitKernel kRocclrKernels[] = {BlitKernel::RocclrCopyBuffer, BlitKernel::RocclrCopyBufferAligned,
                                                BlitKernel::RocclrFillBufferAligned};
// One past the last fact's index, in dwords: how much code recognise_rocclr() needs.
inline constexpr size_t kRocclrFingerprintDwords = 29;

// The ROCclr kernel whose descriptor declares `kernarg_size` and whose code starts with `code`.
std::optional<BlitKernel> recognise_rocclr(uint32_t kernarg_size, const uint32_t* code, size_t dwords) noexcept;

}  // namespace rocref::gpu::foreign_blit
