// hip/hip_texture.h - texture and surface objects shared by the object and reference entry points (HIP-TEX-1..3).
#pragma once

#include <cstddef>

#include "hip/hip_runtime.h"

// rocref's texture object: the descriptors it was made from. The GPU model has
// no image or sampler descriptors to build; host-compiled kernels read the
// resource through these (rocref::hip::detail::texture_fetch).
struct __hip_texture {
  hipResourceDesc resDesc;
  hipTextureDesc texDesc;
  hipResourceViewDesc resViewDesc;
};

struct __hip_surface {
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

}  // namespace rocref::hip
