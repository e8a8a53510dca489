// hsa/image_descriptor.cpp - T#, V# and S# words for HSA images and samplers (see image_descriptor.h).
#include "hsa/image_descriptor.h"

#include <algorithm>
#include <cstring>

#include "common/resource_descriptors.h"
#include "hsa/hsa_mutant.h"

namespace rocref::hsa {
namespace {

using namespace rocref::rsrc;

// TEX_BC_SWIZZLE for the border colour, as ROCR's gfx9 manager derives it from DST_SEL.
uint32_t bc_swizzle(const uint32_t s[4]) {
  enum : uint32_t { kXYZW = 0, kXWYZ = 1, kWZYX = 2, kWXYZ = 3, kZYXW = 4, kYXWZ = 5 };
  const uint32_t r = s[0], g = s[1], b = s[2], a = s[3];
  if (a == kSelX) {
    if (b == kSelY) return kWZYX;
    if (r == kSelX && g == kSelX && b == kSelX) return kXYZW;
    return kWXYZ;
  }
  if (r == kSelX) return g == kSelY || (g == kSelX && b == kSelX && a == kSelW) ? kXYZW : kXWYZ;
  if (g == kSelX) return kYXWZ;
  if (b == kSelX) return kZYXW;
  return kXYZW;
}

bool is_array(uint32_t geometry) {
  return geometry == HSA_EXT_IMAGE_GEOMETRY_1DA || geometry == HSA_EXT_IMAGE_GEOMETRY_2DA ||
         geometry == HSA_EXT_IMAGE_GEOMETRY_2DADEPTH;
}

}  // namespace

hsa_status_t linear_layout(const hsa_ext_image_descriptor_t& desc, uint32_t element_size, size_t row_pitch,
                           ImageLayout* out) noexcept {
  if (element_size == 0) return HSA_STATUS_ERROR;
  const uint64_t align = 256 / element_size;  // texels
  const uint64_t width = std::max<uint64_t>(desc.width, 1);
  uint64_t pitch = (width + align - 1) / align * align;
  if (row_pitch != 0) {
    const uint64_t requested = row_pitch / element_size;
    if (requested % align != 0 || requested < pitch) return HSA_STATUS_ERROR;
    pitch = requested;
  }
  if (pitch > UINT32_MAX) return HSA_STATUS_ERROR;
  out->pitch = static_cast<uint32_t>(pitch);
  out->height = static_cast<uint32_t>(std::max<size_t>(desc.height, 1));
  out->slices = static_cast<uint32_t>(std::max<size_t>({desc.depth, desc.array_size, 1}));
  out->row_pitch = pitch * element_size;
  out->slice_pitch = out->row_pitch * out->height;
  out->size = out->slice_pitch * out->slices;
  out->alignment = 256;
  return HSA_STATUS_SUCCESS;
}

void write_image_srd(const hsa_ext_image_descriptor_t& desc, const ImageFormat& format, const void* data,
                     const ImageLayout& layout, uint32_t srd[kImageSrdDwords]) noexcept {
  std::memset(srd, 0, kImageSrdDwords * sizeof(uint32_t));
  const uint64_t va = reinterpret_cast<uintptr_t>(data);
  const DescField* sel = nullptr;
  if (desc.geometry == HSA_EXT_IMAGE_GEOMETRY_1DB) {
    // A V#: what buffer_load_format reads for a 1D-buffer image (ISA-IMG-1).
    vsharp::kBaseLo.set(srd, static_cast<uint32_t>(va));
    vsharp::kBaseHi.set(srd, static_cast<uint32_t>(va >> 32));
    vsharp::kStride.set(srd, format.element_size);
    vsharp::kNumRecords.set(srd, static_cast<uint32_t>(desc.width * format.element_size));
    vsharp::kNumFormat.set(srd, format.num_format);
    vsharp::kDataFormat.set(srd, format.data_format);
    vsharp::kIndexStride.set(srd, format.element_size);  // ROCR writes the size into the 2-bit field
    static constexpr DescField kSel[] = {vsharp::kDstSelX, vsharp::kDstSelY, vsharp::kDstSelZ, vsharp::kDstSelW};
    sel = kSel;
  } else {
    tsharp::kBaseLo.set(srd, static_cast<uint32_t>(va >> 8));
    tsharp::kBaseHi.set(srd, static_cast<uint32_t>(va >> 40));
    tsharp::kDataFormat.set(srd, format.data_format);
    tsharp::kNumFormat.set(srd, format.num_format);
    tsharp::kWidth.set(srd, static_cast<uint32_t>(std::max<size_t>(desc.width, 1) - 1));
    tsharp::kHeight.set(srd, layout.height - 1);
    tsharp::kSwMode.set(srd, 0);  // linear
    tsharp::kType.set(srd, image_resource_type(desc.geometry));
    const uint32_t depth = is_array(desc.geometry)                      ? std::max<size_t>(desc.array_size, 1) - 1
                           : desc.geometry == HSA_EXT_IMAGE_GEOMETRY_3D ? std::max<size_t>(desc.depth, 1) - 1
                                                                        : 0;
    tsharp::kDepth.set(srd, depth);
    // PITCH counts texels; the planted bug (hsa_mutant.h) writes the row pitch in bytes.
    const bool in_bytes = hsa_mutant_active(HsaMutant::ImagePitchInBytes);
    tsharp::kPitch.set(srd, (in_bytes ? static_cast<uint32_t>(layout.row_pitch) : layout.pitch) - 1);
    tsharp::kBcSwizzle.set(srd, bc_swizzle(format.dst_sel));
    static constexpr DescField kSel[] = {tsharp::kDstSelX, tsharp::kDstSelY, tsharp::kDstSelZ, tsharp::kDstSelW};
    sel = kSel;
  }
  for (unsigned c = 0; c < 4; ++c) sel[c].set(srd, format.dst_sel[c]);
  srd[8] = desc.format.channel_type;
  srd[9] = desc.format.channel_order;
  srd[10] = static_cast<uint32_t>(desc.width);
}

hsa_status_t write_sampler_srd(const hsa_ext_sampler_descriptor_t& desc, uint32_t srd[4]) noexcept {
  uint32_t clamp = 0;
  switch (desc.address_mode) {
    case HSA_EXT_SAMPLER_ADDRESSING_MODE_CLAMP_TO_EDGE: clamp = ssharp::kClampLastTexel; break;
    case HSA_EXT_SAMPLER_ADDRESSING_MODE_CLAMP_TO_BORDER: clamp = ssharp::kClampBorder; break;
    case HSA_EXT_SAMPLER_ADDRESSING_MODE_MIRRORED_REPEAT: clamp = ssharp::kMirror; break;
    case HSA_EXT_SAMPLER_ADDRESSING_MODE_UNDEFINED:
    case HSA_EXT_SAMPLER_ADDRESSING_MODE_REPEAT: clamp = ssharp::kWrap; break;
    default: return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  }
  uint32_t filter = 0;
  switch (desc.filter_mode) {
    case HSA_EXT_SAMPLER_FILTER_MODE_NEAREST: filter = ssharp::kPoint; break;
    case HSA_EXT_SAMPLER_FILTER_MODE_LINEAR: filter = ssharp::kBilinear; break;
    default: return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  }
  std::memset(srd, 0, 4 * sizeof(uint32_t));
  ssharp::kClampX.set(srd, clamp);
  ssharp::kClampY.set(srd, clamp);
  ssharp::kClampZ.set(srd, clamp);
  ssharp::kForceUnnormalized.set(srd, desc.coordinate_mode == HSA_EXT_SAMPLER_COORDINATE_MODE_UNNORMALIZED);
  ssharp::kMaxLod.set(srd, 4095);
  ssharp::kXyMagFilter.set(srd, filter);
  ssharp::kXyMinFilter.set(srd, filter);
  ssharp::kZFilter.set(srd, 0);    // SQ_TEX_Z_FILTER_NONE
  ssharp::kMipFilter.set(srd, 0);  // SQ_TEX_MIP_FILTER_NONE
  ssharp::kBorderColorType.set(srd, ssharp::kTransparentBlack);
  return HSA_STATUS_SUCCESS;
}

}  // namespace rocref::hsa
