// hsa/image_transfer.h - texels between host memory and linear images, and between images.
//
// ROCR runs blit kernels that address the image through its T#, so the hardware's rules hold:
// a texel outside the image reads as zeros and a store outside it is dropped, and a coordinate
// the geometry does not address is ignored; ROCR checks no region. rocref moves the same bytes
// on the host (the model's device memory is host-visible, HSA-MEM-2), synchronously as ROCR's
// calls are (HSA-IMG-6). Texels are copied as raw bytes: ROCR's copy kernels read and write
// them as unsigned integers of the texel's size.
#pragma once

#include <hsa/hsa.h>
#include <hsa/hsa_ext_image.h>

#include "hsa/image_registry.h"

namespace rocref::hsa {

// hsa_ext_image_import / export: the host side is read and written with common/own_memory.h,
// so memory the process cannot reach is HSA_STATUS_ERROR, not a crash.
hsa_status_t import_texels(const void* src, size_t row_pitch, size_t slice_pitch, const ImageObject& dst,
                           const hsa_ext_image_region_t& region);
hsa_status_t export_texels(const ImageObject& src, void* dst, size_t row_pitch, size_t slice_pitch,
                           const hsa_ext_image_region_t& region);
// hsa_ext_image_copy of images of one format (the caller checks it).
hsa_status_t copy_texels(const ImageObject& src, const hsa_dim3_t& src_offset, const ImageObject& dst,
                         const hsa_dim3_t& dst_offset, const hsa_dim3_t& range);
// hsa_ext_image_clear with the four words of `data`.
hsa_status_t clear_texels(const ImageObject& image, const uint32_t data[4], const hsa_ext_image_region_t& region);

}  // namespace rocref::hsa
