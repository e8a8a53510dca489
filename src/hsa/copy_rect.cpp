// hsa/copy_rect.cpp - ROCR 5.2.3's limits of a rect copy (see copy_rect.h).
#include "hsa/copy_rect.h"

#include <algorithm>

namespace rocref::hsa {
namespace {

// log2 of the largest SDMA element (1 to 16 bytes) that divides `bytes` (ROCR's maxAlignedElement).
int element_of(uint64_t bytes) { return __builtin_ctzll(bytes | 16); }

// BuildCopyRectCommand's limits: pitch and slice counted in the smallest element any tile uses.
bool fits_the_packet(const CopyRect& r) {
  int widest = std::min(element_of(r.src.pitch), element_of(r.dst.pitch));
  if (r.range.z != 1) widest = std::min({widest, element_of(r.src.slice), element_of(r.dst.slice)});
  const int smallest =
      std::min({widest, element_of(r.range.x), element_of(r.src_offset.x % 4), element_of(r.dst_offset.x % 4)});
  if ((r.src.pitch >> smallest) > kRectMaxPitchElements || (r.dst.pitch >> smallest) > kRectMaxPitchElements)
    return false;
  if (r.range.z != 1 &&
      ((r.src.slice >> smallest) > kRectMaxSliceElements || (r.dst.slice >> smallest) > kRectMaxSliceElements))
    return false;
  return true;
}

}  // namespace

bool copy_rect_expressible(const CopyRect& r) noexcept {
  const auto misaligned = [](uint64_t v) { return v % 4 != 0; };
  if (misaligned(reinterpret_cast<uintptr_t>(r.dst.base)) || misaligned(reinterpret_cast<uintptr_t>(r.src.base)))
    return false;
  if (misaligned(r.dst.pitch) || misaligned(r.src.pitch) || misaligned(r.dst.slice) || misaligned(r.src.slice))
    return false;
  if (uint64_t{r.src_offset.x} + r.range.x > r.src.pitch || uint64_t{r.dst_offset.x} + r.range.x > r.dst.pitch)
    return false;
  // Both pitches are at least the width here, so neither division is by 0.
  if (r.src.slice != 0 && uint64_t{r.src_offset.y} + r.range.y > r.src.slice / r.src.pitch) return false;
  if (r.dst.slice != 0 && uint64_t{r.dst_offset.y} + r.range.y > r.dst.slice / r.dst.pitch) return false;
  if (r.range.z > 1 && (r.src.slice == 0 || r.dst.slice == 0)) return false;
  if (r.range.z == 1 && (r.src.pitch > kRectMaxPitchElements || r.dst.pitch > kRectMaxPitchElements)) {
    // ROCR turns a one-slice copy with a pitch too wide for the packet into rows as slices:
    // pitch 0, the pitch as slice, the rows as the depth.
    CopyRect wide = r;
    wide.src = {r.src.base, 0, r.src.pitch};
    wide.dst = {r.dst.base, 0, r.dst.pitch};
    wide.src_offset = {r.src_offset.x, 0, 0};
    wide.dst_offset = {r.dst_offset.x, 0, 0};
    wide.range = {r.range.x, 1, r.range.y};
    return fits_the_packet(wide);
  }
  return fits_the_packet(r);
}

}  // namespace rocref::hsa
