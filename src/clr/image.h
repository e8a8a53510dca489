// clr/image.h - image and sampler resources through the HSA image extension (ROCclr's roc::Image, roc::Sampler).
//
// ROCclr's HSA device makes every image and sampler with hsa_ext_image_create_with_layout and
// hsa_ext_sampler_create and keeps a host copy of the hardware descriptors the handle names
// (its cpuSrd / hwState), which HIP copies into texture and surface objects (HIP-TEX-4).
#pragma once

#include <hsa/hsa.h>
#include <hsa/hsa_ext_image.h>

#include <cstddef>
#include <cstdint>

namespace rocref::clr {

class Device;

// HIP 5.2.3's texture_types.h sizes: the image object (T# or V#, then the image ABI's
// dwords 8..10) and the sampler object (S#, then padding).
inline constexpr size_t kImageObjectDwords = 12;
inline constexpr size_t kSamplerObjectDwords = 8;

struct ImageResource {
  hsa_ext_image_t handle{};
  uint32_t srd[kImageObjectDwords] = {};
};

struct SamplerResource {
  hsa_ext_sampler_t handle{};
  uint32_t srd[kSamplerObjectDwords] = {};
};

// A linear image over `data` (GPU-visible memory the caller owns) with rows of `row_pitch`
// bytes (0: the extension's default), read-write; its descriptor words in out->srd.
// The extension's status when it refuses the format, size or layout (nothing is made).
hsa_status_t create_image(Device& device, const hsa_ext_image_descriptor_t& desc, void* data, size_t row_pitch,
                          ImageResource* out);
void destroy_image(Device& device, hsa_ext_image_t image);

hsa_status_t create_sampler(Device& device, const hsa_ext_sampler_descriptor_t& desc, SamplerResource* out);
void destroy_sampler(Device& device, hsa_ext_sampler_t sampler);

}  // namespace rocref::clr
