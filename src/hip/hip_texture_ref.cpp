// hip/hip_texture_ref.cpp - texture references: their sampling state and binding (HIP-TEX-2).
//
// A textureReference is program memory the runtime reads and writes in place,
// as hipamd 5.2.3 does. Binding makes a texture object from the reference's
// state and the resource and keeps it in `textureObject` (the previous one is
// destroyed first); the runtime forms accept only a reference that is a
// variable of the program (the symbol API's rule, HIP-SYM-1), else
// hipErrorInvalidSymbol. hipcc's kernels read the reference's device variable (its
// textureObject field names the descriptors, HIP-TEX-4): every bind and unbind copies the
// reference there, as hipamd does; host-compiled kernels read the variable itself.
#include <algorithm>
#include <optional>

#include "hip/hip_memory_ops.h"
#include "hip/hip_state.h"
#include "hip/hip_symbol.h"
#include "hip/hip_texture.h"

using rocref::hip::result;

namespace {

// hipamd's hip::getTextureDesc(textureReference*).
hipTextureDesc texture_desc(const textureReference& r) {
  hipTextureDesc t{};
  for (int i = 0; i < 3; ++i) t.addressMode[i] = r.addressMode[i];
  t.filterMode = r.filterMode;
  t.readMode = r.readMode;
  t.sRGB = r.sRGB;
  t.normalizedCoords = r.normalized;
  t.maxAnisotropy = r.maxAnisotropy;
  t.mipmapFilterMode = r.mipmapFilterMode;
  t.mipmapLevelBias = r.mipmapLevelBias;
  t.minMipmapLevelClamp = r.minMipmapLevelClamp;
  t.maxMipmapLevelClamp = r.maxMipmapLevelClamp;
  return t;
}

// The view of a whole array in a channel format (hipamd's getResourceViewFormat / getResourceViewDesc).
hipResourceViewDesc array_view(hipArray_const_t array, const hipChannelFormatDesc& d) {
  const unsigned channels = (d.x > 0) + (d.y > 0) + (d.z > 0) + (d.w > 0);
  const unsigned column = channels <= 1 ? 0 : channels == 2 ? 1 : 2;
  unsigned base = 0;
  if (d.f == hipChannelFormatKindFloat) {
    base = d.x == 16 ? hipResViewFormatHalf1 : hipResViewFormatFloat1;
  } else if (d.f == hipChannelFormatKindSigned || d.f == hipChannelFormatKindUnsigned) {
    const bool s = d.f == hipChannelFormatKindSigned;
    base = d.x == 8    ? (s ? hipResViewFormatSignedChar1 : hipResViewFormatUnsignedChar1)
           : d.x == 16 ? (s ? hipResViewFormatSignedShort1 : hipResViewFormatUnsignedShort1)
                       : (s ? hipResViewFormatSignedInt1 : hipResViewFormatUnsignedInt1);
  }
  hipResourceViewDesc v{};
  v.format = base == 0 ? hipResViewFormatNone : static_cast<hipResourceViewFormat>(base + column);
  v.width = array->width;
  v.height = array->height;
  v.depth = array->depth;
  return v;
}

}  // namespace

namespace rocref::hip {

hipError_t publish_texture_reference(const textureReference* texref) {
  const std::optional<Symbol> symbol = find_symbol(texref);
  if (!symbol || symbol->device == nullptr || symbol->device == texref) return hipSuccess;
  return copy(symbol->device, texref, std::min(symbol->size, sizeof(textureReference)), hipMemcpyHostToDevice, nullptr,
              false);
}

}  // namespace rocref::hip

namespace {

bool is_program_variable(const void* texref) { return texref != nullptr && rocref::hip::find_symbol(texref).has_value(); }

// Replaces the reference's texture object with one for `res`.
hipError_t bind(const textureReference* texref, const hipResourceDesc& res, const hipResourceViewDesc* view) {
  auto* ref = const_cast<textureReference*>(texref);
  if (hipError_t e = rocref::hip::destroy_texture(ref->textureObject); e != hipSuccess) return e;
  ref->textureObject = nullptr;
  const hipTextureDesc tex = texture_desc(*ref);
  if (hipError_t e = rocref::hip::create_texture(&ref->textureObject, &res, &tex, view); e != hipSuccess) return e;
  return rocref::hip::publish_texture_reference(ref);
}

// hipamd's ihipGetTextureAlignmentOffset: a misaligned pointer needs somewhere to report its offset.
hipError_t alignment_offset(size_t* offset, const void* ptr, size_t* out) {
  const size_t o = rocref::hip::texture_alignment_offset(ptr);
  if (o != 0 && offset == nullptr) return hipErrorInvalidValue;
  if (offset != nullptr) *offset = o;
  *out = o;
  return hipSuccess;
}

hipError_t bind_linear(size_t* offset, const textureReference* texref, const void* devPtr,
                       const hipChannelFormatDesc* desc, size_t size) {
  if (!is_program_variable(texref)) return hipErrorInvalidSymbol;
  if (devPtr == nullptr || desc == nullptr) return hipErrorInvalidValue;
  size_t o = 0;
  if (hipError_t e = alignment_offset(offset, devPtr, &o); e != hipSuccess) return e;
  hipResourceDesc res{};
  res.resType = hipResourceTypeLinear;
  res.res.linear.devPtr = static_cast<char*>(const_cast<void*>(devPtr)) - o;
  res.res.linear.desc = *desc;
  res.res.linear.sizeInBytes = size;
  return bind(texref, res, nullptr);
}

hipError_t bind_2d(size_t* offset, const textureReference* texref, const void* devPtr,
                   const hipChannelFormatDesc* desc, size_t width, size_t height, size_t pitch) {
  if (!is_program_variable(texref)) return hipErrorInvalidSymbol;
  if (devPtr == nullptr || desc == nullptr) return hipErrorInvalidValue;
  size_t o = 0;
  if (hipError_t e = alignment_offset(offset, devPtr, &o); e != hipSuccess) return e;
  hipResourceDesc res{};
  res.resType = hipResourceTypePitch2D;
  res.res.pitch2D.devPtr = static_cast<char*>(const_cast<void*>(devPtr)) - o;
  res.res.pitch2D.desc = *desc;
  res.res.pitch2D.width = width;
  res.res.pitch2D.height = height;
  res.res.pitch2D.pitchInBytes = pitch;
  return bind(texref, res, nullptr);
}

}  // namespace

hipError_t hipBindTexture(size_t* offset, const textureReference* tex, const void* devPtr,
                          const hipChannelFormatDesc* desc, size_t size) {
  return result(bind_linear(offset, tex, devPtr, desc, size));
}

hipError_t hipBindTexture2D(size_t* offset, const textureReference* tex, const void* devPtr,
                            const hipChannelFormatDesc* desc, size_t width, size_t height, size_t pitch) {
  return result(bind_2d(offset, tex, devPtr, desc, width, height, pitch));
}

hipError_t hipBindTextureToArray(const textureReference* tex, hipArray_const_t array, const hipChannelFormatDesc* desc) {
  if (!is_program_variable(tex)) return result(hipErrorInvalidSymbol);
  if (array == nullptr || desc == nullptr) return result(hipErrorInvalidValue);
  hipResourceDesc res{};
  res.resType = hipResourceTypeArray;
  res.res.array.array = const_cast<hipArray_t>(array);
  const hipResourceViewDesc view = array_view(array, *desc);
  return result(bind(tex, res, &view));
}

hipError_t hipUnbindTexture(const textureReference* tex) {
  if (tex == nullptr) return result(hipErrorInvalidValue);
  auto* ref = const_cast<textureReference*>(tex);
  if (hipError_t e = rocref::hip::destroy_texture(ref->textureObject); e != hipSuccess) return result(e);
  ref->textureObject = nullptr;
  return result(rocref::hip::publish_texture_reference(ref));
}

hipError_t hipGetTextureReference(const textureReference** texref, const void* symbol) {
  if (texref == nullptr) return result(hipErrorInvalidValue);
  *texref = static_cast<const textureReference*>(symbol);
  return hipSuccess;
}

hipError_t hipGetTextureAlignmentOffset(size_t* offset, const textureReference* texref) {
  if (offset == nullptr || texref == nullptr) return result(hipErrorInvalidValue);
  // A bind starts the texture at the pointer it was given less the offset it reported.
  *offset = 0;
  return hipSuccess;
}

hipError_t hipTexRefGetAddress(hipDeviceptr_t* dev_ptr, const textureReference* texRef) {
  if (dev_ptr == nullptr || texRef == nullptr) return result(hipErrorInvalidValue);
  hipResourceDesc res{};
  if (hipError_t e = hipGetTextureObjectResourceDesc(&res, texRef->textureObject); e != hipSuccess) return e;
  switch (res.resType) {
    case hipResourceTypeLinear: *dev_ptr = res.res.linear.devPtr; return hipSuccess;
    case hipResourceTypePitch2D: *dev_ptr = res.res.pitch2D.devPtr; return hipSuccess;
    default: return result(hipErrorInvalidValue);  // bound to an array: no device address
  }
}

// Sampling state: read and written in place (hipamd 5.2.3's checks).
hipError_t hipTexRefSetAddressMode(textureReference* texRef, int dim, enum hipTextureAddressMode am) {
  if (texRef == nullptr || dim < 0 || dim > 2) return result(hipErrorInvalidValue);
  texRef->addressMode[dim] = am;
  return hipSuccess;
}

hipError_t hipTexRefGetAddressMode(enum hipTextureAddressMode* pam, const textureReference* texRef, int dim) {
  // HIP 5.2.3 reads back the first two dimensions only.
  if (pam == nullptr || texRef == nullptr || (dim != 0 && dim != 1)) return result(hipErrorInvalidValue);
  *pam = texRef->addressMode[dim];
  return hipSuccess;
}

hipError_t hipTexRefSetFilterMode(textureReference* texRef, enum hipTextureFilterMode fm) {
  if (texRef == nullptr) return result(hipErrorInvalidValue);
  texRef->filterMode = fm;
  return hipSuccess;
}

hipError_t hipTexRefGetFilterMode(enum hipTextureFilterMode* pfm, const textureReference* texRef) {
  if (pfm == nullptr || texRef == nullptr) return result(hipErrorInvalidValue);
  *pfm = texRef->filterMode;
  return hipSuccess;
}

hipError_t hipTexRefSetFlags(textureReference* texRef, unsigned int Flags) {
  if (texRef == nullptr) return result(hipErrorInvalidValue);
  texRef->readMode = (Flags & HIP_TRSF_READ_AS_INTEGER) != 0 ? hipReadModeElementType : hipReadModeNormalizedFloat;
  texRef->normalized = (Flags & HIP_TRSF_NORMALIZED_COORDINATES) != 0;
  texRef->sRGB = (Flags & HIP_TRSF_SRGB) != 0;
  return hipSuccess;
}

hipError_t hipTexRefGetFlags(unsigned int* pFlags, const textureReference* texRef) {
  if (pFlags == nullptr || texRef == nullptr) return result(hipErrorInvalidValue);
  *pFlags = (texRef->readMode == hipReadModeElementType ? HIP_TRSF_READ_AS_INTEGER : 0u) |
            (texRef->normalized == 1 ? HIP_TRSF_NORMALIZED_COORDINATES : 0u) | (texRef->sRGB == 1 ? HIP_TRSF_SRGB : 0u);
  return hipSuccess;
}

hipError_t hipTexRefSetFormat(textureReference* texRef, hipArray_Format fmt, int NumPackedComponents) {
  if (texRef == nullptr) return result(hipErrorInvalidValue);
  texRef->format = fmt;
  texRef->numChannels = NumPackedComponents;
  return hipSuccess;
}

hipError_t hipTexRefGetFormat(hipArray_Format* pFormat, int* pNumChannels, const textureReference* texRef) {
  if (pFormat == nullptr || pNumChannels == nullptr || texRef == nullptr) return result(hipErrorInvalidValue);
  *pFormat = texRef->format;
  *pNumChannels = texRef->numChannels;
  return hipSuccess;
}

hipError_t hipTexRefSetMaxAnisotropy(textureReference* texRef, unsigned int maxAniso) {
  if (texRef == nullptr) return result(hipErrorInvalidValue);
  texRef->maxAnisotropy = maxAniso;
  return hipSuccess;
}

hipError_t hipTexRefGetMaxAnisotropy(int* pmaxAnsio, const textureReference* texRef) {
  if (pmaxAnsio == nullptr || texRef == nullptr) return result(hipErrorInvalidValue);
  *pmaxAnsio = static_cast<int>(texRef->maxAnisotropy);
  return hipSuccess;
}

hipError_t hipTexRefSetMipmapFilterMode(textureReference* texRef, enum hipTextureFilterMode fm) {
  if (texRef == nullptr) return result(hipErrorInvalidValue);
  texRef->mipmapFilterMode = fm;
  return hipSuccess;
}

hipError_t hipTexRefGetMipmapFilterMode(enum hipTextureFilterMode* pfm, const textureReference* texRef) {
  if (pfm == nullptr || texRef == nullptr) return result(hipErrorInvalidValue);
  *pfm = texRef->mipmapFilterMode;
  return hipSuccess;
}

hipError_t hipTexRefSetMipmapLevelBias(textureReference* texRef, float bias) {
  if (texRef == nullptr) return result(hipErrorInvalidValue);
  texRef->mipmapLevelBias = bias;
  return hipSuccess;
}

hipError_t hipTexRefGetMipmapLevelBias(float* pbias, const textureReference* texRef) {
  if (pbias == nullptr || texRef == nullptr) return result(hipErrorInvalidValue);
  *pbias = texRef->mipmapLevelBias;
  return hipSuccess;
}

hipError_t hipTexRefSetMipmapLevelClamp(textureReference* texRef, float minMipMapLevelClamp, float maxMipMapLevelClamp) {
  if (texRef == nullptr) return result(hipErrorInvalidValue);
  texRef->minMipmapLevelClamp = minMipMapLevelClamp;
  texRef->maxMipmapLevelClamp = maxMipMapLevelClamp;
  return hipSuccess;
}

hipError_t hipTexRefGetMipmapLevelClamp(float* pminMipmapLevelClamp, float* pmaxMipmapLevelClamp,
                                        const textureReference* texRef) {
  if (pminMipmapLevelClamp == nullptr || pmaxMipmapLevelClamp == nullptr || texRef == nullptr) {
    return result(hipErrorInvalidValue);
  }
  *pminMipmapLevelClamp = texRef->minMipmapLevelClamp;
  *pmaxMipmapLevelClamp = texRef->maxMipmapLevelClamp;
  return hipSuccess;
}
