// hsa/image_format.h - which HSA image formats and geometries a gfx9 agent supports, and how.
//
// ROCR 5.2.3's gfx9 image manager answers from one table (channel order x channel type ->
// capability, texel bytes, DATA_FORMAT, NUM_FORMAT), a swizzle per channel order and a table
// of maximum dimensions per geometry. rocref keeps the same tables minus what the GPU model's
// interpreter cannot execute (spec/gfx9-isa.md ISA-IMG-3): the packed types (UNORM_SHORT_555,
// _565, _101010) and sRGB, which it reports unsupported (HSA-IMG-2).
#pragma once

#include <hsa/hsa.h>
#include <hsa/hsa_ext_image.h>

#include <cstdint>

namespace rocref::hsa {

struct ImageFormat {
  uint32_t capability = 0;  // hsa_ext_image_capability_t bits; 0: unsupported
  uint32_t element_size = 0;
  uint32_t data_format = 0;  // IMG_DATA_FORMAT / BUF_DATA_FORMAT
  uint32_t num_format = 0;   // IMG_NUM_FORMAT
  uint32_t dst_sel[4] = {};  // SQ_SEL_* for X, Y, Z, W
};

// The format as ROCR's MapFormat answers for `geometry` (unknown orders, types and
// geometries: capability 0).
ImageFormat image_format(const hsa_ext_image_format_t& format, uint32_t geometry) noexcept;

struct ImageMaxDim {
  uint32_t width = 0, height = 0, depth = 0, array_size = 0;
};
// The largest image of `geometry` (all zero for an unknown one).
ImageMaxDim image_max_dim(uint32_t geometry) noexcept;

// hsa_agent_get_info / hsa_amd_image_get_info_max_dim for HSA_EXT_AGENT_INFO_IMAGE_*_MAX_ELEMENTS
// and _ARRAY_MAX_LAYERS: a GPU's maxima, zeros for a CPU (one, two or three uint32_t by
// geometry). INVALID_ARGUMENT for any other attribute.
hsa_status_t image_max_dim_info(bool gpu, uint32_t attribute, void* value) noexcept;

// SQ_RSRC_IMG_* of a geometry (1DB is a buffer: 0).
uint32_t image_resource_type(uint32_t geometry) noexcept;

// Coordinates a geometry addresses (1, 2 or 3): x; x, y (2D, 1DA: y is the layer); x, y, z.
unsigned image_coordinates(uint32_t geometry) noexcept;

}  // namespace rocref::hsa
