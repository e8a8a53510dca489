// hsa/image_descriptor.h - the gfx9 T#, V# and S# an HSA image or sampler handle points at.
//
// Written with common/resource_descriptors.h, the layout the GPU model's interpreter reads
// (HSA-IMG-3). Images are linear (SW_MODE 0): the layout is addrlib's gfx9 linear surface,
// rows padded to 256 bytes (HSA-IMG-4).
#pragma once

#include <hsa/hsa.h>
#include <hsa/hsa_ext_image.h>

#include <cstddef>
#include <cstdint>

#include "hsa/image_format.h"

namespace rocref::hsa {

// ROCR's image object: the 8-dword T# (or V# for 1DB), then the channel type, channel order
// and width the HSAIL image ABI reads from dwords 8..10; a sampler object is 8 dwords (S# first).
inline constexpr size_t kImageSrdDwords = 12;
inline constexpr size_t kSamplerSrdDwords = 8;

struct ImageLayout {
  uint32_t pitch = 0;  // texels per row
  uint32_t height = 1, slices = 1;
  size_t row_pitch = 0, slice_pitch = 0, size = 0, alignment = 256;
};

// The linear layout of `desc` (addrlib gfx9 rules: pitch a multiple of 256 bytes; a requested
// row pitch, when not 0, must be such a multiple no smaller than the padded width).
// HSA_STATUS_ERROR where addrlib refuses the pitch (ROCR's answer for it).
hsa_status_t linear_layout(const hsa_ext_image_descriptor_t& desc, uint32_t element_size, size_t row_pitch,
                           ImageLayout* out) noexcept;

// The T# (V# for 1DB) of a linear image at `data` and ROCR's dwords 8..10.
void write_image_srd(const hsa_ext_image_descriptor_t& desc, const ImageFormat& format, const void* data,
                     const ImageLayout& layout, uint32_t srd[kImageSrdDwords]) noexcept;

// The S#; INVALID_ARGUMENT for an unknown addressing or filter mode.
hsa_status_t write_sampler_srd(const hsa_ext_sampler_descriptor_t& desc, uint32_t srd[4]) noexcept;

}  // namespace rocref::hsa
