// clr/blit_kernels.h - the command layer's copy and fill kernels.
//
// ROCclr copies and fills with its own blit kernels dispatched like any other
// kernel; these are rocref's, registered in the kernel table on first use.
// Each work-item handles one chunk of the range.
#pragma once

#include <cstddef>
#include <cstdint>

namespace rocref::clr {

inline constexpr size_t kBlitChunkBytes = 4096;

struct CopyArgs {
  void* dst;
  const void* src;
  uint64_t size;
};

struct FillArgs {
  void* dst;
  uint64_t size;
  uint32_t pattern;       // repeated every pattern_bytes bytes
  uint32_t pattern_bytes; // 1 or 4
};

uint64_t copy_kernel_id();
uint64_t fill_kernel_id();

}  // namespace rocref::clr
