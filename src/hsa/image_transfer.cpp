// hsa/image_transfer.cpp - host-side texel moves for the image extension (see image_transfer.h).
#include "hsa/image_transfer.h"

#include <algorithm>
#include <cstring>
#include <vector>

#include "common/own_memory.h"
#include "hsa/image_fill.h"

namespace rocref::hsa {
namespace {

// Where texel (x, y, z) of `img` lies, or nullptr outside the image. 1DA's layer is y, 2DA's z.
uint8_t* texel_at(const ImageObject& img, uint64_t x, uint64_t y, uint64_t z) {
  const hsa_ext_image_descriptor_t& d = img.desc;
  const unsigned dims = image_coordinates(d.geometry);
  if (dims < 2) y = 0;
  if (dims < 3) z = 0;
  const uint64_t width = std::max<size_t>(d.width, 1);
  const uint64_t height =
      d.geometry == HSA_EXT_IMAGE_GEOMETRY_1DA ? std::max<size_t>(d.array_size, 1) : std::max<size_t>(d.height, 1);
  const uint64_t depth =
      d.geometry == HSA_EXT_IMAGE_GEOMETRY_3D ? std::max<size_t>(d.depth, 1) : std::max<size_t>(d.array_size, 1);
  if (x >= width || (dims >= 2 && y >= height) || (dims >= 3 && z >= depth)) return nullptr;
  const uint64_t y_pitch = d.geometry == HSA_EXT_IMAGE_GEOMETRY_1DA ? img.layout.slice_pitch : img.layout.row_pitch;
  return img.data + z * img.layout.slice_pitch + y * y_pitch + x * img.format.element_size;
}

// The host buffer's pitches in texels, as ROCR's CalcBufferRowSlicePitchesInPixel.
void buffer_pitches(const ImageObject& img, const hsa_dim3_t& range, size_t row_pitch, size_t slice_pitch,
                    uint64_t* row, uint64_t* slice) {
  const uint32_t e = img.format.element_size;
  *row = std::max<uint64_t>(range.x, row_pitch / e);
  *slice = img.desc.geometry == HSA_EXT_IMAGE_GEOMETRY_1DA ? *row : std::max<uint64_t>(*row * range.y, slice_pitch / e);
}

bool empty(const hsa_dim3_t& r) { return r.x == 0 || r.y == 0 || r.z == 0; }

// 1DB images: ROCR copies range.x texels with hsa_memory_copy, one row only.
hsa_dim3_t rows_of(const ImageObject& img, const hsa_dim3_t& range) {
  return img.desc.geometry == HSA_EXT_IMAGE_GEOMETRY_1DB ? hsa_dim3_t{range.x, 1, 1} : range;
}

}  // namespace

hsa_status_t import_texels(const void* src, size_t row_pitch, size_t slice_pitch, const ImageObject& dst,
                           const hsa_ext_image_region_t& region) {
  const hsa_dim3_t range = rows_of(dst, region.range);
  if (empty(range)) return HSA_STATUS_SUCCESS;
  const uint32_t e = dst.format.element_size;
  uint64_t row = 0, slice = 0;
  buffer_pitches(dst, range, row_pitch, slice_pitch, &row, &slice);
  std::vector<uint8_t> line(static_cast<size_t>(range.x) * e);
  const auto* base = static_cast<const uint8_t*>(src);
  for (uint64_t k = 0; k < range.z; ++k) {
    for (uint64_t j = 0; j < range.y; ++j) {
      if (!read_own_memory(line.data(), base + (k * slice + j * row) * e, line.size())) return HSA_STATUS_ERROR;
      for (uint64_t i = 0; i < range.x; ++i) {
        uint8_t* t = texel_at(dst, region.offset.x + i, region.offset.y + j, region.offset.z + k);
        if (t != nullptr) std::memcpy(t, line.data() + i * e, e);
      }
    }
  }
  return HSA_STATUS_SUCCESS;
}

hsa_status_t export_texels(const ImageObject& src, void* dst, size_t row_pitch, size_t slice_pitch,
                           const hsa_ext_image_region_t& region) {
  const hsa_dim3_t range = rows_of(src, region.range);
  if (empty(range)) return HSA_STATUS_SUCCESS;
  const uint32_t e = src.format.element_size;
  uint64_t row = 0, slice = 0;
  buffer_pitches(src, range, row_pitch, slice_pitch, &row, &slice);
  std::vector<uint8_t> line(static_cast<size_t>(range.x) * e);
  auto* base = static_cast<uint8_t*>(dst);
  for (uint64_t k = 0; k < range.z; ++k) {
    for (uint64_t j = 0; j < range.y; ++j) {
      for (uint64_t i = 0; i < range.x; ++i) {
        const uint8_t* t = texel_at(src, region.offset.x + i, region.offset.y + j, region.offset.z + k);
        if (t != nullptr) std::memcpy(line.data() + i * e, t, e);
        else std::memset(line.data() + i * e, 0, e);  // a load outside the image reads zeros
      }
      if (!write_own_memory(base + (k * slice + j * row) * e, line.data(), line.size())) return HSA_STATUS_ERROR;
    }
  }
  return HSA_STATUS_SUCCESS;
}

hsa_status_t copy_texels(const ImageObject& src, const hsa_dim3_t& src_offset, const ImageObject& dst,
                         const hsa_dim3_t& dst_offset, const hsa_dim3_t& range) {
  if (empty(range)) return HSA_STATUS_SUCCESS;
  const uint32_t e = src.format.element_size;
  // Read every source texel first: the copy kernel's work-items are unordered, so overlap
  // within one image has no defined order there; here it reads the old texels.
  std::vector<uint8_t> texels(static_cast<size_t>(range.x) * range.y * range.z * e);
  size_t n = 0;
  for (uint64_t k = 0; k < range.z; ++k)
    for (uint64_t j = 0; j < range.y; ++j)
      for (uint64_t i = 0; i < range.x; ++i, n += e) {
        const uint8_t* t = texel_at(src, src_offset.x + i, src_offset.y + j, src_offset.z + k);
        if (t != nullptr) std::memcpy(&texels[n], t, e);
      }
  n = 0;
  for (uint64_t k = 0; k < range.z; ++k)
    for (uint64_t j = 0; j < range.y; ++j)
      for (uint64_t i = 0; i < range.x; ++i, n += e) {
        uint8_t* t = texel_at(dst, dst_offset.x + i, dst_offset.y + j, dst_offset.z + k);
        if (t != nullptr) std::memcpy(t, &texels[n], e);
      }
  return HSA_STATUS_SUCCESS;
}

hsa_status_t clear_texels(const ImageObject& image, const uint32_t data[4], const hsa_ext_image_region_t& region) {
  const hsa_dim3_t& range = region.range;
  if (empty(range)) return HSA_STATUS_SUCCESS;
  uint8_t texel[16] = {};
  fill_texel(image.format, data, texel);
  const uint32_t e = image.format.element_size;
  for (uint64_t k = 0; k < range.z; ++k)
    for (uint64_t j = 0; j < range.y; ++j)
      for (uint64_t i = 0; i < range.x; ++i) {
        uint8_t* t = texel_at(image, region.offset.x + i, region.offset.y + j, region.offset.z + k);
        if (t != nullptr) std::memcpy(t, texel, e);
      }
  return HSA_STATUS_SUCCESS;
}

}  // namespace rocref::hsa
