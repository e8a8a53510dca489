// hsa/api_image.cpp - C entry points of the image extension (hsa/hsa_ext_image.h, hsa_amd_image_create).
//
// ROCR 5.2.3's checks in its order (src/image/hsa_ext_image.cpp, image_runtime.cpp): agent
// handle 0, then null pointers and enum ranges, then the agent's device type, the format's
// capability, the dimensions, the layout. Where ROCR dereferences an unchecked handle
// (destroy, copy, import, export, clear of an image it did not make) rocref answers
// INVALID_ARGUMENT (HSA-IMG-*).
#include <hsa/hsa.h>
#include <hsa/hsa_ext_amd.h>
#include <hsa/hsa_ext_image.h>

#include <cstring>
#include <iterator>

#include "common/resource_descriptors.h"
#include "hsa/agent.h"
#include "hsa/image_descriptor.h"
#include "hsa/image_format.h"
#include "hsa/image_registry.h"
#include "hsa/image_transfer.h"
#include "hsa/runtime.h"

using rocref::hsa::Agent;
using rocref::hsa::ImageFormat;
using rocref::hsa::ImageLayout;
using rocref::hsa::ImageObject;
using rocref::hsa::Runtime;
using rocref::hsa::runtime;
using rocref::hsa::SamplerObject;

namespace {

namespace rsrc = rocref::rsrc;

// The agent behind a non-zero handle: INVALID_AGENT for one this runtime did not make (ROCR's
// hsa_agent_get_info answer on the way to the device type).
hsa_status_t find(Runtime* rt, hsa_agent_t handle, Agent** agent) {
  *agent = rt->find_agent(handle);
  return *agent == nullptr ? HSA_STATUS_ERROR_INVALID_AGENT : HSA_STATUS_SUCCESS;
}

bool bad_geometry(hsa_ext_image_geometry_t g) {
  return g < HSA_EXT_IMAGE_GEOMETRY_1D || g > HSA_EXT_IMAGE_GEOMETRY_2DADEPTH;
}
bool bad_permission(hsa_access_permission_t p) { return p < HSA_ACCESS_PERMISSION_RO || p > HSA_ACCESS_PERMISSION_RW; }

// HSA-IMG-2: a CPU supports no image format.
ImageFormat format_of(const Agent& agent, const hsa_ext_image_format_t& format, uint32_t geometry) {
  return agent.is_gpu() ? rocref::hsa::image_format(format, geometry) : ImageFormat{};
}

// HSA-IMG-4: ROCR's GetImageSizeAndAlignment: capability, then dimensions, then the layout.
hsa_status_t size_and_alignment(const Agent& agent, const hsa_ext_image_descriptor_t& desc, bool linear,
                                size_t row_pitch, size_t slice_pitch, ImageFormat* format, ImageLayout* layout) {
  *format = format_of(agent, desc.format, desc.geometry);
  if (format->capability == 0) return static_cast<hsa_status_t>(HSA_EXT_STATUS_ERROR_IMAGE_FORMAT_UNSUPPORTED);
  const rocref::hsa::ImageMaxDim max = rocref::hsa::image_max_dim(desc.geometry);
  if (desc.width > max.width || desc.height > max.height || desc.depth > max.depth || desc.array_size > max.array_size)
    return static_cast<hsa_status_t>(HSA_EXT_STATUS_ERROR_IMAGE_SIZE_UNSUPPORTED);
  if (hsa_status_t s = rocref::hsa::linear_layout(desc, format->element_size, row_pitch, layout);
      s != HSA_STATUS_SUCCESS)
    return s;
  // An explicit linear layout must be the one addrlib computes (1DB excepted, as in ROCR).
  if (linear && desc.geometry != HSA_EXT_IMAGE_GEOMETRY_1DB &&
      ((row_pitch != 0 && row_pitch != layout->row_pitch) || (slice_pitch != 0 && slice_pitch != layout->slice_pitch)))
    return static_cast<hsa_status_t>(HSA_EXT_STATUS_ERROR_IMAGE_PITCH_UNSUPPORTED);
  return HSA_STATUS_SUCCESS;
}

// ROCR's enforceDefaultPitch for the _with_layout calls: a row of width texels, a slice of
// height rows (one row for 1DA) when the image has depth or layers.
void default_pitches(const ImageFormat& format, const hsa_ext_image_descriptor_t& desc, size_t* row, size_t* slice) {
  if (*row == 0) *row = desc.width * format.element_size;
  if (*slice != 0 || (desc.depth == 0 && desc.array_size == 0)) return;
  switch (desc.geometry) {
    case HSA_EXT_IMAGE_GEOMETRY_3D:
    case HSA_EXT_IMAGE_GEOMETRY_2DA:
    case HSA_EXT_IMAGE_GEOMETRY_2DADEPTH: *slice = *row * desc.height; break;
    case HSA_EXT_IMAGE_GEOMETRY_1DA: *slice = *row; break;
    default: break;
  }
}

hsa_status_t create_image(Runtime* rt, hsa_agent_t agent_handle, const hsa_ext_image_descriptor_t& desc,
                          const void* data, hsa_access_permission_t permission, bool linear, size_t row_pitch,
                          size_t slice_pitch, hsa_ext_image_t* image) {
  image->handle = 0;
  Agent* agent = nullptr;
  if (hsa_status_t s = find(rt, agent_handle, &agent); s != HSA_STATUS_SUCCESS) return s;
  if (linear) default_pitches(format_of(*agent, desc.format, desc.geometry), desc, &row_pitch, &slice_pitch);
  ImageObject object;
  if (hsa_status_t s = size_and_alignment(*agent, desc, linear, row_pitch, slice_pitch, &object.format, &object.layout);
      s != HSA_STATUS_SUCCESS)
    return s;
  if (reinterpret_cast<uintptr_t>(data) % object.layout.alignment != 0) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  object.agent = agent_handle;
  object.desc = desc;
  object.permission = permission;
  object.data = static_cast<uint8_t*>(const_cast<void*>(data));
  uint32_t srd[rocref::hsa::kImageSrdDwords];
  rocref::hsa::write_image_srd(desc, object.format, data, object.layout, srd);
  return rt->images().add_image(object, srd, image);
}

}  // namespace

extern "C" {

hsa_status_t HSA_API hsa_ext_image_get_capability(hsa_agent_t agent, hsa_ext_image_geometry_t geometry,
                                                  const hsa_ext_image_format_t* image_format,
                                                  uint32_t* capability_mask) {
  Runtime* rt = runtime();
  if (rt == nullptr) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  if (agent.handle == 0) return HSA_STATUS_ERROR_INVALID_AGENT;
  if (image_format == nullptr || capability_mask == nullptr || bad_geometry(geometry))
    return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  Agent* object = nullptr;
  if (hsa_status_t s = find(rt, agent, &object); s != HSA_STATUS_SUCCESS) return s;
  *capability_mask = format_of(*object, *image_format, geometry).capability;
  return HSA_STATUS_SUCCESS;
}

// ROCR accepts only the linear layout here, and answers the same capability.
hsa_status_t HSA_API hsa_ext_image_get_capability_with_layout(hsa_agent_t agent, hsa_ext_image_geometry_t geometry,
                                                              const hsa_ext_image_format_t* image_format,
                                                              hsa_ext_image_data_layout_t image_data_layout,
                                                              uint32_t* capability_mask) {
  if (runtime() != nullptr && agent.handle != 0 && image_data_layout != HSA_EXT_IMAGE_DATA_LAYOUT_LINEAR)
    return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  return hsa_ext_image_get_capability(agent, geometry, image_format, capability_mask);
}

hsa_status_t HSA_API hsa_ext_image_data_get_info(hsa_agent_t agent, const hsa_ext_image_descriptor_t* image_descriptor,
                                                 hsa_access_permission_t access_permission,
                                                 hsa_ext_image_data_info_t* image_data_info) {
  Runtime* rt = runtime();
  if (rt == nullptr) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  if (agent.handle == 0) return HSA_STATUS_ERROR_INVALID_AGENT;
  if (image_descriptor == nullptr || image_data_info == nullptr || bad_permission(access_permission))
    return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  image_data_info->size = 0;
  image_data_info->alignment = 0;
  Agent* object = nullptr;
  if (hsa_status_t s = find(rt, agent, &object); s != HSA_STATUS_SUCCESS) return s;
  ImageFormat format;
  ImageLayout layout;
  // HSA-IMG-4: the opaque layout is linear in rocref (ROCR tiles it; the model's interpreter
  // executes only some tiled modes).
  if (hsa_status_t s = size_and_alignment(*object, *image_descriptor, false, 0, 0, &format, &layout);
      s != HSA_STATUS_SUCCESS)
    return s;
  image_data_info->size = layout.size;
  image_data_info->alignment = layout.alignment;
  return HSA_STATUS_SUCCESS;
}

hsa_status_t HSA_API hsa_ext_image_data_get_info_with_layout(hsa_agent_t agent,
                                                             const hsa_ext_image_descriptor_t* image_descriptor,
                                                             hsa_access_permission_t access_permission,
                                                             hsa_ext_image_data_layout_t image_data_layout,
                                                             size_t image_data_row_pitch, size_t image_data_slice_pitch,
                                                             hsa_ext_image_data_info_t* image_data_info) {
  Runtime* rt = runtime();
  if (rt == nullptr) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  if (agent.handle == 0) return HSA_STATUS_ERROR_INVALID_AGENT;
  if (image_descriptor == nullptr || image_data_info == nullptr || bad_permission(access_permission) ||
      image_data_layout != HSA_EXT_IMAGE_DATA_LAYOUT_LINEAR)
    return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  Agent* object = nullptr;
  if (hsa_status_t s = find(rt, agent, &object); s != HSA_STATUS_SUCCESS) return s;
  default_pitches(format_of(*object, image_descriptor->format, image_descriptor->geometry), *image_descriptor,
                  &image_data_row_pitch, &image_data_slice_pitch);
  image_data_info->size = 0;
  image_data_info->alignment = 0;
  ImageFormat format;
  ImageLayout layout;
  if (hsa_status_t s = size_and_alignment(*object, *image_descriptor, true, image_data_row_pitch,
                                          image_data_slice_pitch, &format, &layout);
      s != HSA_STATUS_SUCCESS)
    return s;
  image_data_info->size = layout.size;
  image_data_info->alignment = layout.alignment;
  return HSA_STATUS_SUCCESS;
}

hsa_status_t HSA_API hsa_ext_image_create(hsa_agent_t agent, const hsa_ext_image_descriptor_t* image_descriptor,
                                          const void* image_data, hsa_access_permission_t access_permission,
                                          hsa_ext_image_t* image) {
  Runtime* rt = runtime();
  if (rt == nullptr) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  if (agent.handle == 0) return HSA_STATUS_ERROR_INVALID_AGENT;
  if (image_descriptor == nullptr || image_data == nullptr || image == nullptr)
    return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  return create_image(rt, agent, *image_descriptor, image_data, access_permission, false, 0, 0, image);
}

hsa_status_t HSA_API hsa_ext_image_create_with_layout(hsa_agent_t agent,
                                                      const hsa_ext_image_descriptor_t* image_descriptor,
                                                      const void* image_data, hsa_access_permission_t access_permission,
                                                      hsa_ext_image_data_layout_t image_data_layout,
                                                      size_t image_data_row_pitch, size_t image_data_slice_pitch,
                                                      hsa_ext_image_t* image) {
  Runtime* rt = runtime();
  if (rt == nullptr) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  if (agent.handle == 0) return HSA_STATUS_ERROR_INVALID_AGENT;
  if (image_descriptor == nullptr || image_data == nullptr || image == nullptr ||
      image_data_layout != HSA_EXT_IMAGE_DATA_LAYOUT_LINEAR)
    return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  return create_image(rt, agent, *image_descriptor, image_data, access_permission, true, image_data_row_pitch,
                      image_data_slice_pitch, image);
}

// HSA-IMG-5: the caller's T# words (the AMD metadata layout: version 1, the vendor and device
// id, eight dwords), with the base address, format, swizzle and (1D, 1DA) type ROCR rewrites.
hsa_status_t HSA_API hsa_amd_image_create(hsa_agent_t agent, const hsa_ext_image_descriptor_t* image_descriptor,
                                          const hsa_amd_image_descriptor_t* image_layout, const void* image_data,
                                          hsa_access_permission_t access_permission, hsa_ext_image_t* image) {
  Runtime* rt = runtime();
  if (rt == nullptr) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  if (agent.handle == 0) return HSA_STATUS_ERROR_INVALID_AGENT;
  if (image_descriptor == nullptr || image_data == nullptr || image == nullptr || image_layout == nullptr)
    return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  if (reinterpret_cast<uintptr_t>(image_data) % 256 != 0) return HSA_STATUS_ERROR_INVALID_ALLOCATION;
  const auto unsupported = static_cast<hsa_status_t>(HSA_EXT_STATUS_ERROR_IMAGE_FORMAT_UNSUPPORTED);
  if (image_layout->version != 1) return unsupported;
  Agent* object = nullptr;
  if (hsa_status_t s = find(rt, agent, &object); s != HSA_STATUS_SUCCESS) return s;
  uint32_t chip = 0;
  object->get_info(HSA_AMD_AGENT_INFO_CHIP_ID, &chip);
  if (image_layout->deviceID != (0x1002u << 16 | chip)) return unsupported;
  const hsa_ext_image_descriptor_t& desc = *image_descriptor;
  ImageObject o;
  o.format = format_of(*object, desc.format, desc.geometry);
  if (o.format.capability == 0 || o.format.element_size == 0) return unsupported;
  uint32_t srd[rocref::hsa::kImageSrdDwords] = {};
  std::memcpy(srd, image_layout->data, 8 * sizeof(uint32_t));
  const uint64_t va = reinterpret_cast<uintptr_t>(image_data);
  if (desc.geometry == HSA_EXT_IMAGE_GEOMETRY_1DB) {
    srd[0] = 0;
    rsrc::vsharp::kBaseLo.set(srd, static_cast<uint32_t>(va));
    rsrc::vsharp::kBaseHi.set(srd, static_cast<uint32_t>(va >> 32));
    rsrc::vsharp::kStride.set(srd, o.format.element_size);
    rsrc::vsharp::kNumFormat.set(srd, o.format.num_format);
    rsrc::vsharp::kDataFormat.set(srd, o.format.data_format);
    rsrc::vsharp::kIndexStride.set(srd, o.format.element_size);
    const rsrc::DescField sel[] = {rsrc::vsharp::kDstSelX, rsrc::vsharp::kDstSelY, rsrc::vsharp::kDstSelZ,
                                   rsrc::vsharp::kDstSelW};
    for (unsigned c = 0; c < 4; ++c) sel[c].set(srd, o.format.dst_sel[c]);
    o.layout.row_pitch = o.layout.slice_pitch = desc.width * o.format.element_size;
  } else {
    // The texel size the caller's formats give must be the HSA format's.
    static constexpr uint32_t kBytes[] = {0, 1, 2, 2,  4,  4, 4, 4, 4, 4,
                                          4, 8, 8, 12, 16, 0, 2, 2, 2};  // by IMG_DATA_FORMAT
    const uint32_t theirs = rsrc::tsharp::kDataFormat.get(srd);
    if (theirs >= std::size(kBytes) || kBytes[theirs] != o.format.element_size) return unsupported;
    rsrc::tsharp::kBaseLo.set(srd, static_cast<uint32_t>(va >> 8));
    rsrc::tsharp::kBaseHi.set(srd, static_cast<uint32_t>(va >> 40));
    rsrc::tsharp::kDataFormat.set(srd, o.format.data_format);
    rsrc::tsharp::kNumFormat.set(srd, o.format.num_format);
    const rsrc::DescField sel[] = {rsrc::tsharp::kDstSelX, rsrc::tsharp::kDstSelY, rsrc::tsharp::kDstSelZ,
                                   rsrc::tsharp::kDstSelW};
    for (unsigned c = 0; c < 4; ++c) sel[c].set(srd, o.format.dst_sel[c]);
    if (desc.geometry == HSA_EXT_IMAGE_GEOMETRY_1D || desc.geometry == HSA_EXT_IMAGE_GEOMETRY_1DA)
      rsrc::tsharp::kType.set(srd, rocref::hsa::image_resource_type(desc.geometry));
    // The metadata address the caller gives is an offset from the image's base.
    const uint64_t meta = ((uint64_t{rsrc::tsharp::kMetaDataAddressHi.get(srd)} << 40) |
                           (uint64_t{rsrc::tsharp::kMetaDataAddress.get(srd)} << 8)) +
                          va;
    rsrc::tsharp::kMetaDataAddress.set(srd, static_cast<uint32_t>(meta >> 8));
    rsrc::tsharp::kMetaDataAddressHi.set(srd, static_cast<uint32_t>(meta >> 40));
    o.linear = rsrc::tsharp::kSwMode.get(srd) == 0;
    o.layout.pitch = rsrc::tsharp::kPitch.get(srd) + 1;
    o.layout.height = rsrc::tsharp::kHeight.get(srd) + 1;
    o.layout.row_pitch = size_t{o.layout.pitch} * o.format.element_size;
    o.layout.slice_pitch = o.layout.row_pitch * o.layout.height;
  }
  srd[8] = desc.format.channel_type;
  srd[9] = desc.format.channel_order;
  srd[10] = static_cast<uint32_t>(desc.width);
  o.agent = agent;
  o.desc = desc;
  o.permission = access_permission;
  o.data = static_cast<uint8_t*>(const_cast<void*>(image_data));
  return rt->images().add_image(o, srd, image);
}

hsa_status_t HSA_API hsa_ext_image_destroy(hsa_agent_t agent, hsa_ext_image_t image) {
  Runtime* rt = runtime();
  if (rt == nullptr) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  if (agent.handle == 0) return HSA_STATUS_ERROR_INVALID_AGENT;
  return rt->images().remove_image(image);
}

// HSA-IMG-6: images of one agent and one format (ROCR's sRGB <-> RGBA conversions have no
// supported sRGB format here).
hsa_status_t HSA_API hsa_ext_image_copy(hsa_agent_t agent, hsa_ext_image_t src_image, const hsa_dim3_t* src_offset,
                                        hsa_ext_image_t dst_image, const hsa_dim3_t* dst_offset,
                                        const hsa_dim3_t* range) {
  Runtime* rt = runtime();
  if (rt == nullptr) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  if (agent.handle == 0) return HSA_STATUS_ERROR_INVALID_AGENT;
  if (src_image.handle == 0 || dst_image.handle == 0 || src_offset == nullptr || dst_offset == nullptr ||
      range == nullptr)
    return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  return rt->images().with_images(src_image, dst_image, [&](const ImageObject& src, const ImageObject& dst) {
    if (src.agent.handle != dst.agent.handle) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
    if (src.desc.format.channel_order != dst.desc.format.channel_order ||
        src.desc.format.channel_type != dst.desc.format.channel_type)
      return HSA_STATUS_ERROR_INVALID_ARGUMENT;
    if (!src.linear || !dst.linear) return HSA_STATUS_ERROR;
    return rocref::hsa::copy_texels(src, *src_offset, dst, *dst_offset, *range);
  });
}

hsa_status_t HSA_API hsa_ext_image_import(hsa_agent_t agent, const void* src_memory, size_t src_row_pitch,
                                          size_t src_slice_pitch, hsa_ext_image_t dst_image,
                                          const hsa_ext_image_region_t* image_region) {
  Runtime* rt = runtime();
  if (rt == nullptr) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  if (agent.handle == 0) return HSA_STATUS_ERROR_INVALID_AGENT;
  if (src_memory == nullptr || dst_image.handle == 0 || image_region == nullptr)
    return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  return rt->images().with_image(dst_image, [&](const ImageObject& dst) {
    if (!dst.linear) return HSA_STATUS_ERROR;
    return rocref::hsa::import_texels(src_memory, src_row_pitch, src_slice_pitch, dst, *image_region);
  });
}

hsa_status_t HSA_API hsa_ext_image_export(hsa_agent_t agent, hsa_ext_image_t src_image, void* dst_memory,
                                          size_t dst_row_pitch, size_t dst_slice_pitch,
                                          const hsa_ext_image_region_t* image_region) {
  Runtime* rt = runtime();
  if (rt == nullptr) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  if (agent.handle == 0) return HSA_STATUS_ERROR_INVALID_AGENT;
  if (dst_memory == nullptr || src_image.handle == 0 || image_region == nullptr)
    return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  return rt->images().with_image(src_image, [&](const ImageObject& src) {
    if (!src.linear) return HSA_STATUS_ERROR;
    return rocref::hsa::export_texels(src, dst_memory, dst_row_pitch, dst_slice_pitch, *image_region);
  });
}

hsa_status_t HSA_API hsa_ext_image_clear(hsa_agent_t agent, hsa_ext_image_t image, const void* data,
                                         const hsa_ext_image_region_t* image_region) {
  Runtime* rt = runtime();
  if (rt == nullptr) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  if (agent.handle == 0) return HSA_STATUS_ERROR_INVALID_AGENT;
  if (image.handle == 0 || image_region == nullptr || data == nullptr) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  uint32_t words[4];
  std::memcpy(words, data, sizeof words);
  return rt->images().with_image(image, [&](const ImageObject& target) {
    if (!target.linear) return HSA_STATUS_ERROR;
    return rocref::hsa::clear_texels(target, words, *image_region);
  });
}

// HSA-IMG-7. ROCR ignores the S# writer's status, so an unknown addressing or filter mode
// succeeds there with a half-written S#; rocref refuses it (INVALID_ARGUMENT).
hsa_status_t HSA_API hsa_ext_sampler_create(hsa_agent_t agent, const hsa_ext_sampler_descriptor_t* sampler_descriptor,
                                            hsa_ext_sampler_t* sampler) {
  Runtime* rt = runtime();
  if (rt == nullptr) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  if (agent.handle == 0) return HSA_STATUS_ERROR_INVALID_AGENT;
  if (sampler_descriptor == nullptr || sampler == nullptr) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  sampler->handle = 0;
  Agent* object = nullptr;
  if (hsa_status_t s = find(rt, agent, &object); s != HSA_STATUS_SUCCESS) return s;
  if (!object->is_gpu()) return HSA_STATUS_ERROR_INVALID_AGENT;
  uint32_t srd[4];
  if (hsa_status_t s = rocref::hsa::write_sampler_srd(*sampler_descriptor, srd); s != HSA_STATUS_SUCCESS) return s;
  SamplerObject o;
  o.agent = agent;
  o.desc = *sampler_descriptor;
  return rt->images().add_sampler(o, srd, sampler);
}

hsa_status_t HSA_API hsa_ext_sampler_destroy(hsa_agent_t agent, hsa_ext_sampler_t sampler) {
  Runtime* rt = runtime();
  if (rt == nullptr) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  if (agent.handle == 0) return HSA_STATUS_ERROR_INVALID_AGENT;
  return rt->images().remove_sampler(sampler);
}

hsa_status_t HSA_API hsa_amd_image_get_info_max_dim(hsa_agent_t agent, hsa_agent_info_t attribute, void* value) {
  Runtime* rt = runtime();
  if (rt == nullptr) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  if (agent.handle == 0) return HSA_STATUS_ERROR_INVALID_AGENT;
  if (value == nullptr) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  Agent* object = rt->find_agent(agent);
  // ROCR checks the attribute before it asks for the agent's device type.
  uint32_t probe[3];
  if (rocref::hsa::image_max_dim_info(true, attribute, probe) != HSA_STATUS_SUCCESS)
    return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  if (object == nullptr) return HSA_STATUS_ERROR_INVALID_AGENT;
  return rocref::hsa::image_max_dim_info(object->is_gpu(), attribute, value);
}

}  // extern "C"
