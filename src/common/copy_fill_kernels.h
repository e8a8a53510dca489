// common/copy_fill_kernels.h - the copy and fill kernels the HSA runtime and the command layer dispatch.
//
// ROCR's hsa_memory_copy / hsa_amd_memory_fill and ROCclr's device copies and
// fills each dispatch blit kernels of their own; in rocref both layers dispatch
// these two host-compiled kernels (common/kernel_abi.h), registered in the
// process's kernel table on first use. Work-item i of a grid of n handles the
// chunks i, i + n, i + 2n, ... of the range, so any grid moves every byte once.
// Every address goes through the dispatch's GPUVM: memory the GPU has no mapping
// of is a GPU page fault, never a host access.
// (The GPU model's recognition of ROCR's and ROCclr's real blit kernels is
// gpu/foreign_blit.)
#pragma once

#include <cstdint>

namespace rocref::copy_fill {

inline constexpr uint64_t kChunkBytes = 4096;
// GPUVM's page: the kernels translate their ranges page by page (kernel_abi::device_pointer).
inline constexpr uint64_t kPageBytes = 4096;

struct CopyArgs {
  uint64_t dst, src, size;  // addresses and bytes
};

struct FillArgs {
  uint64_t dst, size;      // address and bytes
  uint32_t pattern;        // repeated every pattern_bytes bytes from dst
  uint32_t pattern_bytes;  // 1 or 4
};

inline constexpr const char* kCopyName = "__rocref_blit_copy";
inline constexpr const char* kFillName = "__rocref_blit_fill";

uint64_t copy_kernel_id();
uint64_t fill_kernel_id();

}  // namespace rocref::copy_fill
