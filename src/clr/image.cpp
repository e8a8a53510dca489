// clr/image.cpp - images and samplers over the HSA image extension (see image.h).
#include "clr/image.h"

#include <cstring>

#include "clr/device.h"
#include "common/trace.h"

namespace rocref::clr {

hsa_status_t create_image(Device& device, const hsa_ext_image_descriptor_t& desc, void* data, size_t row_pitch,
                          ImageResource* out) {
  ROCREF_TRACE_SPAN(trace::Layer::Clr, "Image::create", "");
  *out = ImageResource{};
  // An explicit row pitch (pitched memory): the linear layout with it, one slice; otherwise the
  // extension's own layout (the one hipArray memory is allocated with).
  hsa_ext_image_t handle{};
  const hsa_status_t s =
      row_pitch == 0 ? hsa_ext_image_create(device.gpu(), &desc, data, HSA_ACCESS_PERMISSION_RW, &handle)
                     : hsa_ext_image_create_with_layout(device.gpu(), &desc, data, HSA_ACCESS_PERMISSION_RW,
                                                        HSA_EXT_IMAGE_DATA_LAYOUT_LINEAR, row_pitch, 0, &handle);
  if (s != HSA_STATUS_SUCCESS) return s;
  // The handle is the address of the descriptor in memory the host reads (ROCR's image object).
  out->handle = handle;
  std::memcpy(out->srd, reinterpret_cast<const void*>(static_cast<uintptr_t>(handle.handle)), sizeof out->srd);
  return HSA_STATUS_SUCCESS;
}

void destroy_image(Device& device, hsa_ext_image_t image) {
  if (image.handle != 0) hsa_ext_image_destroy(device.gpu(), image);
}

hsa_status_t create_sampler(Device& device, const hsa_ext_sampler_descriptor_t& desc, SamplerResource* out) {
  ROCREF_TRACE_SPAN(trace::Layer::Clr, "Sampler::create", "");
  *out = SamplerResource{};
  hsa_ext_sampler_t handle{};
  if (hsa_status_t s = hsa_ext_sampler_create(device.gpu(), &desc, &handle); s != HSA_STATUS_SUCCESS) return s;
  out->handle = handle;
  std::memcpy(out->srd, reinterpret_cast<const void*>(static_cast<uintptr_t>(handle.handle)), sizeof out->srd);
  return HSA_STATUS_SUCCESS;
}

void destroy_sampler(Device& device, hsa_ext_sampler_t sampler) {
  if (sampler.handle != 0) hsa_ext_sampler_destroy(device.gpu(), sampler);
}

}  // namespace rocref::clr
