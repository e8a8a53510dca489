// hip/hip_texture.h - texture and surface objects shared by the object and reference entry points (HIP-TEX-1..3).
#pragma once

#include <hsa/hsa_ext_image.h>

#include <cstddef>
#include <cstdint>

#include "hip/hip_runtime.h"

// HIP 5.2.3's texture object (hipamd's __hip_texture): GPU-visible memory that starts with the
// image descriptor (T#, or V# for linear memory, HIP_IMAGE_OBJECT_SIZE_DWORD dwords) and the
// sampler descriptor (S#, HIP_SAMPLER_OBJECT_SIZE_DWORD dwords) that hipcc's texture functions
// load with s_load and use in MIMG and MUBUF format instructions; then the runtime's record.
// Host-compiled kernels read the record (rocref::hip::detail::texture_fetch_1d).
struct __hip_texture {
  uint32_t imageSRD[HIP_IMAGE_OBJECT_SIZE_DWORD];
  uint32_t samplerSRD[HIP_SAMPLER_OBJECT_SIZE_DWORD];
  hsa_ext_image_t image;
  hsa_ext_sampler_t sampler;
  int device;
  hipResourceDesc resDesc;
  hipTextureDesc texDesc;
  hipResourceViewDesc resViewDesc;
};

// A surface object: the image descriptor, then the record (hipamd's __hip_surface).
struct __hip_surface {
  uint32_t imageSRD[HIP_IMAGE_OBJECT_SIZE_DWORD];
  hsa_ext_image_t image;
  int device;
  hipResourceDesc resDesc;
};

namespace rocref::hip {

// hipCreateTextureObject's checks, in HIP 5.2.3's order, then a new object.
hipError_t create_texture(hipTextureObject_t* out, const hipResourceDesc* res, const hipTextureDesc* tex,
                          const hipResourceViewDesc* view);
// nullptr is success; a handle this runtime did not make is hipErrorInvalidValue.
hipError_t destroy_texture(hipTextureObject_t texture);
bool known_texture(hipTextureObject_t texture);
// Bytes from ptr up to the next texture alignment boundary (what a bind reports in *offset).
size_t texture_alignment_offset(const void* ptr);
// Bytes per element of a channel format (0 for a format without channels).
size_t channel_bytes(const hipChannelFormatDesc& desc);
// The HSA image format of a channel format read as `mode` (8- and 16-bit integers as
// normalized floats, 32-bit ones never); false for one HSA has no format for.
bool image_format(const hipChannelFormatDesc& desc, hipTextureReadMode mode, hsa_ext_image_format_t* out);
// The image descriptor of an array over its memory (the geometry its extent and flags give).
hsa_ext_image_descriptor_t array_image_desc(hipArray_const_t array, const hsa_ext_image_format_t& format);
// A device copy of a texture reference's program variable for hipcc's kernels: updated
// after every bind and unbind (HIP-TEX-2).
hipError_t publish_texture_reference(const textureReference* texref);

}  // namespace rocref::hip
