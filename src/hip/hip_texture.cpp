// hip/hip_texture.cpp - texture and surface objects (HIP-TEX-1, HIP-TEX-3).
//
// An object is made after hipamd 5.2.3's checks in hipamd's order (arguments, resource,
// alignment and limits, then the features its sampler does not program: mipmaps, anisotropy,
// LOD bias and clamps are hipErrorNotSupported). As in hipamd, it is fine-grained memory the
// GPU reads: the image and sampler descriptors the command layer made through the HSA image
// extension (clr/image.h), then the descriptors it was made from (HIP-TEX-4). Linear memory
// is a 1D-buffer image (a V#), pitched memory and arrays linear 2D images. Host-compiled
// kernels read linear textures with tex1Dfetch from the record (texture_fetch_1d below).
#include "hip/hip_texture.h"

#include <algorithm>
#include <cstring>
#include <mutex>
#include <set>

#include "clr/device.h"
#include "clr/image.h"
#include "clr/memory_registry.h"

#include "hip/hip_device_props.h"
#include "hip/hip_memory_2d.h"
#include "hip/hip_memory_ops.h"
#include "hip/hip_mutant.h"
#include "hip/hip_state.h"

using rocref::hip::result;

// The layout hipcc's device code reads (texture_types.h, TEXTURE_PARAMETERS_INIT).
static_assert(offsetof(__hip_texture, imageSRD) == 0 && offsetof(__hip_surface, imageSRD) == 0);
static_assert(offsetof(__hip_texture, samplerSRD) == HIP_SAMPLER_OBJECT_OFFSET_DWORD * sizeof(uint32_t));
static_assert(HIP_IMAGE_OBJECT_SIZE_DWORD == rocref::clr::kImageObjectDwords &&
              HIP_SAMPLER_OBJECT_SIZE_DWORD == rocref::clr::kSamplerObjectDwords);

namespace {

std::mutex g_objects_mutex;
std::set<const void*> g_textures;
std::set<const void*> g_surfaces;

bool aligned(const void* ptr, size_t alignment) { return reinterpret_cast<uintptr_t>(ptr) % alignment == 0; }

unsigned channels_of(const hipChannelFormatDesc& d) { return (d.x > 0) + (d.y > 0) + (d.z > 0) + (d.w > 0); }

// The driver API's descriptors, converted as hipamd's hip::getResourceDesc / getTextureDesc do.
hipResourceDesc from_driver(const HIP_RESOURCE_DESC& d) {
  hipResourceDesc r{};
  r.resType = static_cast<hipResourceType>(d.resType);
  switch (d.resType) {
    case HIP_RESOURCE_TYPE_ARRAY: r.res.array.array = d.res.array.hArray; break;
    case HIP_RESOURCE_TYPE_MIPMAPPED_ARRAY: r.res.mipmap.mipmap = d.res.mipmap.hMipmappedArray; break;
    case HIP_RESOURCE_TYPE_LINEAR:
      r.res.linear.devPtr = d.res.linear.devPtr;
      r.res.linear.desc = rocref::hip::array_channel_desc(d.res.linear.format, d.res.linear.numChannels);
      r.res.linear.sizeInBytes = d.res.linear.sizeInBytes;
      break;
    case HIP_RESOURCE_TYPE_PITCH2D:
      r.res.pitch2D.devPtr = d.res.pitch2D.devPtr;
      r.res.pitch2D.desc = rocref::hip::array_channel_desc(d.res.pitch2D.format, d.res.pitch2D.numChannels);
      r.res.pitch2D.width = d.res.pitch2D.width;
      r.res.pitch2D.height = d.res.pitch2D.height;
      r.res.pitch2D.pitchInBytes = d.res.pitch2D.pitchInBytes;
      break;
  }
  return r;
}

HIP_RESOURCE_DESC to_driver(const hipResourceDesc& r) {
  HIP_RESOURCE_DESC d{};
  d.resType = static_cast<HIPresourcetype>(r.resType);
  switch (r.resType) {
    case hipResourceTypeArray: d.res.array.hArray = r.res.array.array; break;
    case hipResourceTypeMipmappedArray: d.res.mipmap.hMipmappedArray = r.res.mipmap.mipmap; break;
    case hipResourceTypeLinear:
      d.res.linear.devPtr = r.res.linear.devPtr;
      d.res.linear.format = rocref::hip::array_format(r.res.linear.desc);
      d.res.linear.numChannels = channels_of(r.res.linear.desc);
      d.res.linear.sizeInBytes = r.res.linear.sizeInBytes;
      break;
    case hipResourceTypePitch2D:
      d.res.pitch2D.devPtr = r.res.pitch2D.devPtr;
      d.res.pitch2D.format = rocref::hip::array_format(r.res.pitch2D.desc);
      d.res.pitch2D.numChannels = channels_of(r.res.pitch2D.desc);
      d.res.pitch2D.width = r.res.pitch2D.width;
      d.res.pitch2D.height = r.res.pitch2D.height;
      d.res.pitch2D.pitchInBytes = r.res.pitch2D.pitchInBytes;
      break;
  }
  return d;
}

hipTextureDesc from_driver(const HIP_TEXTURE_DESC& d) {
  hipTextureDesc t{};
  for (int i = 0; i < 3; ++i) t.addressMode[i] = static_cast<hipTextureAddressMode>(d.addressMode[i]);
  t.filterMode = static_cast<hipTextureFilterMode>(d.filterMode);
  t.readMode = (d.flags & HIP_TRSF_READ_AS_INTEGER) != 0 ? hipReadModeElementType : hipReadModeNormalizedFloat;
  t.sRGB = (d.flags & HIP_TRSF_SRGB) != 0;
  t.normalizedCoords = (d.flags & HIP_TRSF_NORMALIZED_COORDINATES) != 0;
  t.maxAnisotropy = d.maxAnisotropy;
  t.mipmapFilterMode = static_cast<hipTextureFilterMode>(d.mipmapFilterMode);
  t.mipmapLevelBias = d.mipmapLevelBias;
  t.minMipmapLevelClamp = d.minMipmapLevelClamp;
  t.maxMipmapLevelClamp = d.maxMipmapLevelClamp;
  std::memcpy(t.borderColor, d.borderColor, sizeof t.borderColor);
  return t;
}

HIP_TEXTURE_DESC to_driver(const hipTextureDesc& t) {
  HIP_TEXTURE_DESC d{};
  for (int i = 0; i < 3; ++i) d.addressMode[i] = static_cast<HIPaddress_mode>(t.addressMode[i]);
  d.filterMode = static_cast<HIPfilter_mode>(t.filterMode);
  d.flags = (t.readMode == hipReadModeElementType ? HIP_TRSF_READ_AS_INTEGER : 0u) |
            (t.normalizedCoords != 0 ? HIP_TRSF_NORMALIZED_COORDINATES : 0u) | (t.sRGB != 0 ? HIP_TRSF_SRGB : 0u);
  d.maxAnisotropy = t.maxAnisotropy;
  d.mipmapFilterMode = static_cast<HIPfilter_mode>(t.mipmapFilterMode);
  d.mipmapLevelBias = t.mipmapLevelBias;
  d.minMipmapLevelClamp = t.minMipmapLevelClamp;
  d.maxMipmapLevelClamp = t.maxMipmapLevelClamp;
  std::memcpy(d.borderColor, t.borderColor, sizeof d.borderColor);
  return d;
}

hipResourceViewDesc from_driver(const HIP_RESOURCE_VIEW_DESC& d) {
  return hipResourceViewDesc{static_cast<hipResourceViewFormat>(d.format), d.width, d.height, d.depth,
                             d.firstMipmapLevel, d.lastMipmapLevel, d.firstLayer, d.lastLayer};
}

HIP_RESOURCE_VIEW_DESC to_driver(const hipResourceViewDesc& v) {
  HIP_RESOURCE_VIEW_DESC d{};
  d.format = static_cast<HIPresourceViewFormat>(v.format);
  d.width = v.width;
  d.height = v.height;
  d.depth = v.depth;
  d.firstMipmapLevel = v.firstMipmapLevel;
  d.lastMipmapLevel = v.lastMipmapLevel;
  d.firstLayer = v.firstLayer;
  d.lastLayer = v.lastLayer;
  return d;
}

// The object, when the handle is one this runtime made and has not destroyed.
const __hip_texture* find_texture(hipTextureObject_t handle) {
  std::lock_guard lock(g_objects_mutex);
  return g_textures.count(handle) == 1 ? handle : nullptr;
}

// The resource's checks of hipamd 5.2.3's ihipCreateTextureObject.
hipError_t check_resource(const hipResourceDesc& r, const hipTextureDesc& t, const hipResourceViewDesc* view) {
  using rocref::hip::kTextureAlignment;
  if (view != nullptr && r.resType != hipResourceTypeArray && r.resType != hipResourceTypeMipmappedArray) {
    return hipErrorInvalidValue;
  }
  switch (r.resType) {
    case hipResourceTypeArray:
      if (!rocref::hip::known_array(r.res.array.array)) return hipErrorInvalidValue;
      break;
    case hipResourceTypeMipmappedArray:
      if (r.res.mipmap.mipmap == nullptr || t.normalizedCoords == 0) return hipErrorInvalidValue;
      break;
    case hipResourceTypeLinear: {
      const size_t element = rocref::hip::channel_bytes(r.res.linear.desc);
      const bool alignment_checked = !rocref::hip::hip_mutant_active(rocref::hip::HipMutant::TextureAlignmentUnchecked);
      if (r.res.linear.devPtr == nullptr || (alignment_checked && !aligned(r.res.linear.devPtr, kTextureAlignment)) ||
          element == 0 || r.res.linear.sizeInBytes / element >= static_cast<size_t>(rocref::hip::kMaxTexture1DLinear)) {
        return hipErrorInvalidValue;
      }
      break;
    }
    case hipResourceTypePitch2D:
      if (r.res.pitch2D.devPtr == nullptr || !aligned(r.res.pitch2D.devPtr, kTextureAlignment) ||
          rocref::hip::channel_bytes(r.res.pitch2D.desc) == 0 ||
          r.res.pitch2D.width >= static_cast<size_t>(rocref::hip::kMaxTexture2D) ||
          r.res.pitch2D.height >= static_cast<size_t>(rocref::hip::kMaxTexture2D) ||
          r.res.pitch2D.pitchInBytes % rocref::hip::kTexturePitchAlignment != 0) {
        return hipErrorInvalidValue;
      }
      break;
    default:
      return hipErrorInvalidValue;
  }
  // What hipamd 5.2.3's sampler does not program.
  if (r.resType == hipResourceTypeMipmappedArray) return hipErrorNotSupported;
  if (t.maxAnisotropy != 0 || t.mipmapLevelBias != 0 || t.minMipmapLevelClamp != 0 || t.maxMipmapLevelClamp != 0) {
    return hipErrorNotSupported;
  }
  return hipSuccess;
}

// hipamd's sampler: unnormalized coordinates cannot wrap or mirror (clamped instead); a linear
// resource ignores the addressing and filter modes (ROCclr's CL_ADDRESS_NONE, no filter).
hsa_ext_sampler_descriptor_t sampler_of(const hipResourceDesc& r, const hipTextureDesc& t) {
  hsa_ext_sampler_descriptor_t s{};
  s.coordinate_mode = t.normalizedCoords != 0 ? HSA_EXT_SAMPLER_COORDINATE_MODE_NORMALIZED
                                              : HSA_EXT_SAMPLER_COORDINATE_MODE_UNNORMALIZED;
  s.filter_mode = HSA_EXT_SAMPLER_FILTER_MODE_NEAREST;
  s.address_mode = HSA_EXT_SAMPLER_ADDRESSING_MODE_UNDEFINED;
  if (r.resType == hipResourceTypeLinear) return s;
  if (t.filterMode == hipFilterModeLinear) s.filter_mode = HSA_EXT_SAMPLER_FILTER_MODE_LINEAR;
  hipTextureAddressMode mode = t.addressMode[0];  // ROCclr: one mode for every dimension
  if (t.normalizedCoords == 0 && (mode == hipAddressModeWrap || mode == hipAddressModeMirror)) {
    mode = hipAddressModeClamp;
  }
  if (rocref::hip::hip_mutant_active(rocref::hip::HipMutant::TextureWrapClamps) && mode == hipAddressModeWrap) {
    mode = hipAddressModeClamp;
  }
  switch (mode) {
    case hipAddressModeWrap: s.address_mode = HSA_EXT_SAMPLER_ADDRESSING_MODE_REPEAT; break;
    case hipAddressModeClamp: s.address_mode = HSA_EXT_SAMPLER_ADDRESSING_MODE_CLAMP_TO_EDGE; break;
    case hipAddressModeMirror: s.address_mode = HSA_EXT_SAMPLER_ADDRESSING_MODE_MIRRORED_REPEAT; break;
    case hipAddressModeBorder: s.address_mode = HSA_EXT_SAMPLER_ADDRESSING_MODE_CLAMP_TO_BORDER; break;
  }
  return s;
}

// The image the resource names, read as `mode`, in the command layer's image resource.
hipError_t make_image(rocref::clr::Device& device, const hipResourceDesc& r, hipTextureReadMode mode,
                      rocref::clr::ImageResource* out) {
  hsa_ext_image_descriptor_t desc{};
  void* data = nullptr;
  size_t row_pitch = 0;
  switch (r.resType) {
    case hipResourceTypeArray: {
      const hipArray* a = r.res.array.array;
      // hipamd: 32-bit integer arrays are never promoted to normalized floats.
      if (a->Format == HIP_AD_FORMAT_SIGNED_INT32 || a->Format == HIP_AD_FORMAT_UNSIGNED_INT32) {
        mode = hipReadModeElementType;
      }
      if (!rocref::hip::image_format(a->desc, mode, &desc.format)) return hipErrorInvalidValue;
      desc = rocref::hip::array_image_desc(a, desc.format);
      data = a->data;
      row_pitch = rocref::hip::array_pitch(a);
      break;
    }
    case hipResourceTypeLinear:
      if (!rocref::hip::image_format(r.res.linear.desc, mode, &desc.format)) return hipErrorInvalidValue;
      desc.geometry = HSA_EXT_IMAGE_GEOMETRY_1DB;
      desc.width = r.res.linear.sizeInBytes / rocref::hip::channel_bytes(r.res.linear.desc);
      data = r.res.linear.devPtr;
      // The planted bug goes on to image the aligned block around a misaligned pointer.
      if (rocref::hip::hip_mutant_active(rocref::hip::HipMutant::TextureAlignmentUnchecked)) {
        data =
            reinterpret_cast<void*>(reinterpret_cast<uintptr_t>(data) & ~uintptr_t{rocref::hip::kTextureAlignment - 1});
      }
      break;
    case hipResourceTypePitch2D:
      if (!rocref::hip::image_format(r.res.pitch2D.desc, mode, &desc.format)) return hipErrorInvalidValue;
      desc.geometry = HSA_EXT_IMAGE_GEOMETRY_2D;
      desc.width = r.res.pitch2D.width;
      desc.height = r.res.pitch2D.height;
      data = r.res.pitch2D.devPtr;
      row_pitch = r.res.pitch2D.pitchInBytes;
      break;
    default: return hipErrorInvalidValue;
  }
  if (rocref::clr::create_image(device, desc, data, row_pitch, out) != HSA_STATUS_SUCCESS) return hipErrorInvalidValue;
  return hipSuccess;
}

// Fine-grained memory for an object's descriptors and record (hipamd's SVM fine-grain buffer).
template <typename T>
T* allocate_object() {
  void* memory = nullptr;
  if (rocref::hip::allocate(&memory, sizeof(T), rocref::clr::MemoryKind::Host, 0, "texture object") != hipSuccess) {
    return nullptr;
  }
  return static_cast<T*>(memory);
}

float normalized(const uint8_t* p, unsigned bits, bool is_signed) {
  if (bits == 8) return is_signed ? std::max(-1.0f, *reinterpret_cast<const int8_t*>(p) / 127.0f) : *p / 255.0f;
  uint16_t u;
  std::memcpy(&u, p, 2);
  return is_signed ? std::max(-1.0f, static_cast<int16_t>(u) / 32767.0f) : u / 65535.0f;
}

}  // namespace

namespace rocref::hip {

size_t channel_bytes(const hipChannelFormatDesc& d) {
  const int bits = std::max(0, d.x) + std::max(0, d.y) + std::max(0, d.z) + std::max(0, d.w);
  return static_cast<size_t>(bits) / 8;
}

size_t texture_alignment_offset(const void* ptr) {
  const uintptr_t p = reinterpret_cast<uintptr_t>(ptr);
  return (kTextureAlignment - p % kTextureAlignment) % kTextureAlignment;
}

bool known_texture(hipTextureObject_t handle) { return find_texture(handle) != nullptr; }

bool image_format(const hipChannelFormatDesc& d, hipTextureReadMode mode, hsa_ext_image_format_t* out) {
  switch (channels_of(d)) {
    case 1: out->channel_order = HSA_EXT_IMAGE_CHANNEL_ORDER_R; break;
    case 2: out->channel_order = HSA_EXT_IMAGE_CHANNEL_ORDER_RG; break;
    case 4: out->channel_order = HSA_EXT_IMAGE_CHANNEL_ORDER_RGBA; break;
    default: return false;
  }
  const bool norm = mode == hipReadModeNormalizedFloat;
  const bool is_signed = d.f == hipChannelFormatKindSigned;
  switch (d.f) {
    case hipChannelFormatKindFloat:
      if (d.x != 16 && d.x != 32) return false;
      out->channel_type = d.x == 16 ? HSA_EXT_IMAGE_CHANNEL_TYPE_HALF_FLOAT : HSA_EXT_IMAGE_CHANNEL_TYPE_FLOAT;
      return true;
    case hipChannelFormatKindSigned:
    case hipChannelFormatKindUnsigned:
      switch (d.x) {
        case 8:
          out->channel_type =
              norm ? (is_signed ? HSA_EXT_IMAGE_CHANNEL_TYPE_SNORM_INT8 : HSA_EXT_IMAGE_CHANNEL_TYPE_UNORM_INT8)
                   : (is_signed ? HSA_EXT_IMAGE_CHANNEL_TYPE_SIGNED_INT8 : HSA_EXT_IMAGE_CHANNEL_TYPE_UNSIGNED_INT8);
          return true;
        case 16:
          out->channel_type =
              norm ? (is_signed ? HSA_EXT_IMAGE_CHANNEL_TYPE_SNORM_INT16 : HSA_EXT_IMAGE_CHANNEL_TYPE_UNORM_INT16)
                   : (is_signed ? HSA_EXT_IMAGE_CHANNEL_TYPE_SIGNED_INT16 : HSA_EXT_IMAGE_CHANNEL_TYPE_UNSIGNED_INT16);
          return true;
        case 32:
          out->channel_type =
              is_signed ? HSA_EXT_IMAGE_CHANNEL_TYPE_SIGNED_INT32 : HSA_EXT_IMAGE_CHANNEL_TYPE_UNSIGNED_INT32;
          return true;
        default: return false;
      }
    default: return false;
  }
}

hsa_ext_image_descriptor_t array_image_desc(hipArray_const_t a, const hsa_ext_image_format_t& format) {
  hsa_ext_image_descriptor_t desc{};
  desc.format = format;
  desc.width = a->width;
  const bool layered = (a->type & hipArrayLayered) != 0;
  if (a->depth > 0 && layered) {
    desc.geometry = a->height > 0 ? HSA_EXT_IMAGE_GEOMETRY_2DA : HSA_EXT_IMAGE_GEOMETRY_1DA;
    desc.height = a->height;
    desc.array_size = a->depth;
  } else if (a->depth > 0) {
    desc.geometry = HSA_EXT_IMAGE_GEOMETRY_3D;
    desc.height = a->height;
    desc.depth = a->depth;
  } else if (a->height > 0) {
    desc.geometry = HSA_EXT_IMAGE_GEOMETRY_2D;
    desc.height = a->height;
  } else {
    desc.geometry = HSA_EXT_IMAGE_GEOMETRY_1D;
  }
  return desc;
}

hipError_t create_texture(hipTextureObject_t* out, const hipResourceDesc* res, const hipTextureDesc* tex,
                          const hipResourceViewDesc* view) {
  if (out == nullptr || res == nullptr || tex == nullptr) return hipErrorInvalidValue;
  if (hipError_t e = check_resource(*res, *tex, view); e != hipSuccess) return e;
  const auto dev = device();
  if (!dev) return dev.error();
  clr::SamplerResource sampler;
  if (clr::create_sampler(**dev, sampler_of(*res, *tex), &sampler) != HSA_STATUS_SUCCESS) return hipErrorInvalidValue;
  clr::ImageResource image;
  if (hipError_t e = make_image(**dev, *res, tex->readMode, &image); e != hipSuccess) {
    clr::destroy_sampler(**dev, sampler.handle);
    return e;
  }
  auto* object = allocate_object<__hip_texture>();
  if (object == nullptr) {
    clr::destroy_image(**dev, image.handle);
    clr::destroy_sampler(**dev, sampler.handle);
    return hipErrorOutOfMemory;
  }
  std::memcpy(object->imageSRD, image.srd, sizeof object->imageSRD);
  std::memcpy(object->samplerSRD, sampler.srd, sizeof object->samplerSRD);
  object->image = image.handle;
  object->sampler = sampler.handle;
  object->device = (*dev)->ordinal();
  object->resDesc = *res;
  object->texDesc = *tex;
  object->resViewDesc = view != nullptr ? *view : hipResourceViewDesc{};
  {
    std::lock_guard lock(g_objects_mutex);
    g_textures.insert(object);
  }
  *out = object;
  return hipSuccess;
}

hipError_t destroy_texture(hipTextureObject_t handle) {
  if (handle == nullptr) return hipSuccess;
  {
    std::lock_guard lock(g_objects_mutex);
    if (g_textures.erase(handle) == 0) return hipErrorInvalidValue;
  }
  if (const auto dev = device(handle->device); dev) {
    clr::destroy_image(**dev, handle->image);
    clr::destroy_sampler(**dev, handle->sampler);
  }
  return release(handle, true, "texture object");
}

namespace detail {

// tex1Dfetch: element x of a linear texture; outside the texture every byte is 0, as an
// out-of-bounds buffer load gives. Normalized-float reads of 8- and 16-bit integer
// channels give floats in [0, 1] ([-1, 1] signed); 32-bit and float channels are as stored.
void texture_fetch_1d(hipTextureObject_t handle, int x, void* out, size_t size) {
  std::memset(out, 0, size);
  const __hip_texture* t = find_texture(handle);
  if (t == nullptr || t->resDesc.resType != hipResourceTypeLinear) return;
  const hipChannelFormatDesc& d = t->resDesc.res.linear.desc;
  const size_t element = channel_bytes(d);
  if (x < 0 || static_cast<size_t>(x) >= t->resDesc.res.linear.sizeInBytes / element) return;
  const auto* src = static_cast<const uint8_t*>(t->resDesc.res.linear.devPtr) + static_cast<size_t>(x) * element;
  const unsigned bits = static_cast<unsigned>(d.x);
  const bool integer = d.f == hipChannelFormatKindSigned || d.f == hipChannelFormatKindUnsigned;
  if (t->texDesc.readMode == hipReadModeNormalizedFloat && integer && (bits == 8 || bits == 16)) {
    const unsigned n = std::min<size_t>(channels_of(d), size / sizeof(float));
    for (unsigned c = 0; c < n; ++c) {
      const float v = normalized(src + c * bits / 8, bits, d.f == hipChannelFormatKindSigned);
      std::memcpy(static_cast<char*>(out) + c * sizeof(float), &v, sizeof v);
    }
    return;
  }
  std::memcpy(out, src, std::min(size, element));
}

}  // namespace detail
}  // namespace rocref::hip

hipError_t hipCreateTextureObject(hipTextureObject_t* pTexObject, const hipResourceDesc* pResDesc,
                                  const hipTextureDesc* pTexDesc, const struct hipResourceViewDesc* pResViewDesc) {
  return result(rocref::hip::create_texture(pTexObject, pResDesc, pTexDesc, pResViewDesc));
}

hipError_t hipDestroyTextureObject(hipTextureObject_t textureObject) {
  return result(rocref::hip::destroy_texture(textureObject));
}

hipError_t hipGetTextureObjectResourceDesc(hipResourceDesc* pResDesc, hipTextureObject_t textureObject) {
  const __hip_texture* t = find_texture(textureObject);
  if (pResDesc == nullptr || t == nullptr) return result(hipErrorInvalidValue);
  *pResDesc = t->resDesc;
  return hipSuccess;
}

hipError_t hipGetTextureObjectResourceViewDesc(struct hipResourceViewDesc* pResViewDesc,
                                               hipTextureObject_t textureObject) {
  const __hip_texture* t = find_texture(textureObject);
  if (pResViewDesc == nullptr || t == nullptr) return result(hipErrorInvalidValue);
  *pResViewDesc = t->resViewDesc;
  return hipSuccess;
}

hipError_t hipGetTextureObjectTextureDesc(hipTextureDesc* pTexDesc, hipTextureObject_t textureObject) {
  const __hip_texture* t = find_texture(textureObject);
  if (pTexDesc == nullptr || t == nullptr) return result(hipErrorInvalidValue);
  *pTexDesc = t->texDesc;
  return hipSuccess;
}

hipError_t hipTexObjectCreate(hipTextureObject_t* pTexObject, const HIP_RESOURCE_DESC* pResDesc,
                              const HIP_TEXTURE_DESC* pTexDesc, const HIP_RESOURCE_VIEW_DESC* pResViewDesc) {
  if (pTexObject == nullptr || pResDesc == nullptr || pTexDesc == nullptr) return result(hipErrorInvalidValue);
  const hipResourceDesc res = from_driver(*pResDesc);
  const hipTextureDesc tex = from_driver(*pTexDesc);
  if (pResViewDesc == nullptr) return result(rocref::hip::create_texture(pTexObject, &res, &tex, nullptr));
  const hipResourceViewDesc view = from_driver(*pResViewDesc);
  return result(rocref::hip::create_texture(pTexObject, &res, &tex, &view));
}

hipError_t hipTexObjectDestroy(hipTextureObject_t texObject) { return result(rocref::hip::destroy_texture(texObject)); }

hipError_t hipTexObjectGetResourceDesc(HIP_RESOURCE_DESC* pResDesc, hipTextureObject_t texObject) {
  const __hip_texture* t = find_texture(texObject);
  if (pResDesc == nullptr || t == nullptr) return result(hipErrorInvalidValue);
  *pResDesc = to_driver(t->resDesc);
  return hipSuccess;
}

hipError_t hipTexObjectGetResourceViewDesc(HIP_RESOURCE_VIEW_DESC* pResViewDesc, hipTextureObject_t texObject) {
  const __hip_texture* t = find_texture(texObject);
  if (pResViewDesc == nullptr || t == nullptr) return result(hipErrorInvalidValue);
  *pResViewDesc = to_driver(t->resViewDesc);
  return hipSuccess;
}

hipError_t hipTexObjectGetTextureDesc(HIP_TEXTURE_DESC* pTexDesc, hipTextureObject_t texObject) {
  const __hip_texture* t = find_texture(texObject);
  if (pTexDesc == nullptr || t == nullptr) return result(hipErrorInvalidValue);
  *pTexDesc = to_driver(t->texDesc);
  return hipSuccess;
}

// Surface objects: an array's image descriptor and the resource (HIP-TEX-3).
hipError_t hipCreateSurfaceObject(hipSurfaceObject_t* pSurfObject, const hipResourceDesc* pResDesc) {
  if (pSurfObject == nullptr || pResDesc == nullptr) return result(hipErrorInvalidValue);
  if (pResDesc->resType != hipResourceTypeArray || !rocref::hip::known_array(pResDesc->res.array.array)) {
    return result(hipErrorInvalidValue);
  }
  const auto dev = rocref::hip::device();
  if (!dev) return result(dev.error());
  rocref::clr::ImageResource image;
  if (hipError_t e = make_image(**dev, *pResDesc, hipReadModeElementType, &image); e != hipSuccess) return result(e);
  auto* surface = allocate_object<__hip_surface>();
  if (surface == nullptr) {
    rocref::clr::destroy_image(**dev, image.handle);
    return result(hipErrorOutOfMemory);
  }
  std::memcpy(surface->imageSRD, image.srd, sizeof surface->imageSRD);
  surface->image = image.handle;
  surface->device = (*dev)->ordinal();
  surface->resDesc = *pResDesc;
  {
    std::lock_guard lock(g_objects_mutex);
    g_surfaces.insert(surface);
  }
  *pSurfObject = surface;
  return hipSuccess;
}

hipError_t hipDestroySurfaceObject(hipSurfaceObject_t surfaceObject) {
  if (surfaceObject == nullptr) return hipSuccess;
  {
    std::lock_guard lock(g_objects_mutex);
    if (g_surfaces.erase(surfaceObject) == 0) return result(hipErrorInvalidValue);
  }
  if (const auto dev = rocref::hip::device(surfaceObject->device); dev) {
    rocref::clr::destroy_image(**dev, surfaceObject->image);
  }
  return result(rocref::hip::release(surfaceObject, true, "surface object"));
}
