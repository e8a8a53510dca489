// hsa/copy_rect.h - one 3D pitched copy of hsa_amd_memory_async_copy_rect (HSA-MEM-8).
//
// ROCR 5.2.3 runs a rect copy on an SDMA engine only, as SDMA_PKT_COPY_LINEAR_RECT packets
// (BlitSdma::SubmitCopyRectCommand, BuildCopyRectCommand), and refuses what those packets
// cannot express. rocref keeps the refusal (copy_rect_expressible) and moves the bytes with
// the GPU's linear copy kernel, one run of contiguous rows at a time (for_each_copy_rect_run).
#pragma once

#include <hsa/hsa_ext_amd.h>

#include <cstddef>
#include <cstdint>

namespace rocref::hsa {

struct CopyRect {
  hsa_pitched_ptr_t dst{};
  hsa_dim3_t dst_offset{};
  hsa_pitched_ptr_t src{};
  hsa_dim3_t src_offset{};
  hsa_dim3_t range{};  // bytes, rows, slices; none 0
};

// SDMA_PKT_COPY_LINEAR_RECT's field widths (sdma_registers.h of ROCR 5.2.3): a pitch of up to
// 2^19 elements, a slice of up to 2^28.
inline constexpr uint64_t kRectMaxPitchElements = uint64_t{1} << 19;
inline constexpr uint64_t kRectMaxSliceElements = uint64_t{1} << 28;

// False where ROCR answers HSA_STATUS_ERROR_INVALID_ARGUMENT: a base, pitch or slice that is
// not a multiple of 4 bytes; a row (offset x + width) past either pitch; rows (offset y +
// height) past a non-zero slice / pitch; more than one slice without both slices; a pitch or
// slice that the smallest element the copy needs cannot count within the packet's fields.
bool copy_rect_expressible(const CopyRect& rect) noexcept;

// Calls run(dst, src, bytes) for the copy's rows in order (slice by slice, row by row),
// joining rows that follow each other in both memories into one run.
template <typename Run>
void for_each_copy_rect_run(const CopyRect& rect, Run run) {
  auto row = [](const hsa_pitched_ptr_t& p, const hsa_dim3_t& offset, uint64_t y, uint64_t z) {
    return static_cast<uint8_t*>(p.base) + (offset.z + z) * p.slice + (offset.y + y) * p.pitch + offset.x;
  };
  uint8_t* dst = nullptr;
  const uint8_t* src = nullptr;
  size_t bytes = 0;
  for (uint64_t z = 0; z < rect.range.z; ++z) {
    for (uint64_t y = 0; y < rect.range.y; ++y) {
      uint8_t* d = row(rect.dst, rect.dst_offset, y, z);
      const uint8_t* s = row(rect.src, rect.src_offset, y, z);
      if (bytes != 0 && d == dst + bytes && s == src + bytes) {
        bytes += rect.range.x;
        continue;
      }
      if (bytes != 0) run(dst, src, bytes);
      dst = d;
      src = s;
      bytes = rect.range.x;
    }
  }
  if (bytes != 0) run(dst, src, bytes);
}

}  // namespace rocref::hsa
