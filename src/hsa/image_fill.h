// hsa/image_fill.h - hsa_ext_image_clear's fill value as the bytes of one texel.
//
// ROCR's clear kernel writes the four 32-bit words of `data` with write_imagef, write_imagei or
// write_imageui by channel type: floats for normalized and float types, integers for the
// integer ones. A store goes through the format: component c lands in the memory channel its
// DST_SEL names (BGRA's blue in the first byte), UNORM and SNORM clamp and round to nearest
// even, half floats round to nearest even, integers keep their low bits (HSA-IMG-6).
#pragma once

#include <cstdint>

#include "hsa/image_format.h"

namespace rocref::hsa {

// Writes format.element_size bytes.
void fill_texel(const ImageFormat& format, const uint32_t value[4], uint8_t* texel) noexcept;

}  // namespace rocref::hsa
