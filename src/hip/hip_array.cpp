// hip/hip_array.cpp - arrays as linear device memory with a channel format (HIP-MEM-11).
//
// An array is what hipArray's public fields say: `data`, rows of width elements of the
// channel format's size, height rows (1 for 1D), depth slices, laid out as the HSA image
// extension's linear images are (rows padded to 256 bytes, addrlib's gfx9 linear pitch), so
// textures and surfaces over it are images over the same memory (HIP-TEX-4). Copies to and
// from arrays are strided copies.
#include <mutex>
#include <set>

#include "hip/hip_memory_2d.h"
#include "hip/hip_memory_ops.h"
#include "hip/hip_state.h"

using rocref::clr::MemoryKind;
using rocref::hip::result;
using rocref::hip::Strided;

namespace {

std::mutex g_arrays_mutex;
std::set<const hipArray*> g_arrays;

bool known(hipArray_const_t array) {
  std::lock_guard lock(g_arrays_mutex);
  return array != nullptr && g_arrays.count(array) == 1;
}

size_t format_bytes(hipArray_Format format) {
  switch (format) {
    case HIP_AD_FORMAT_UNSIGNED_INT8: case HIP_AD_FORMAT_SIGNED_INT8: return 1;
    case HIP_AD_FORMAT_UNSIGNED_INT16: case HIP_AD_FORMAT_SIGNED_INT16: case HIP_AD_FORMAT_HALF: return 2;
    case HIP_AD_FORMAT_UNSIGNED_INT32: case HIP_AD_FORMAT_SIGNED_INT32: case HIP_AD_FORMAT_FLOAT: return 4;
    default: return 0;
  }
}

hipArray_Format format_of(const hipChannelFormatDesc& d) {
  const int bits = d.x;
  if (d.f == hipChannelFormatKindFloat) return bits == 16 ? HIP_AD_FORMAT_HALF : HIP_AD_FORMAT_FLOAT;
  if (d.f == hipChannelFormatKindSigned) {
    return bits == 8 ? HIP_AD_FORMAT_SIGNED_INT8 : bits == 16 ? HIP_AD_FORMAT_SIGNED_INT16 : HIP_AD_FORMAT_SIGNED_INT32;
  }
  return bits == 8 ? HIP_AD_FORMAT_UNSIGNED_INT8 : bits == 16 ? HIP_AD_FORMAT_UNSIGNED_INT16 : HIP_AD_FORMAT_UNSIGNED_INT32;
}

hipChannelFormatDesc desc_of(hipArray_Format format, unsigned channels) {
  const int bits = static_cast<int>(format_bytes(format) * 8);
  const hipChannelFormatKind kind = format == HIP_AD_FORMAT_HALF || format == HIP_AD_FORMAT_FLOAT ? hipChannelFormatKindFloat
                                    : (format & 0x08) != 0 ? hipChannelFormatKindSigned
                                                           : hipChannelFormatKindUnsigned;
  return hipChannelFormatDesc{bits, channels > 1 ? bits : 0, channels > 2 ? bits : 0, channels > 3 ? bits : 0, kind};
}

hipError_t create(hipArray** out, const hipChannelFormatDesc& desc, hipArray_Format format, unsigned channels,
                  size_t width, size_t height, size_t depth, unsigned flags, bool driver) {
  if (out == nullptr || width == 0) return hipErrorInvalidValue;
  if (channels != 1 && channels != 2 && channels != 4) return hipErrorInvalidValue;
  if (format_bytes(format) == 0) return hipErrorInvalidValue;
  if (flags & ~(hipArrayLayered | hipArraySurfaceLoadStore | hipArrayCubemap | hipArrayTextureGather)) {
    return hipErrorInvalidValue;
  }
  auto* array = new hipArray{};
  array->desc = desc;
  array->type = flags;
  array->width = static_cast<unsigned>(width);
  array->height = static_cast<unsigned>(height);
  array->depth = static_cast<unsigned>(depth);
  array->Format = format;
  array->NumChannels = channels;
  array->isDrv = driver;
  const size_t bytes = rocref::hip::array_pitch(array) * std::max<size_t>(1, height) * std::max<size_t>(1, depth);
  if (hipError_t e = rocref::hip::allocate(&array->data, bytes, MemoryKind::Device, 0, "hipMallocArray"); e != hipSuccess) {
    delete array;
    return e;
  }
  {
    std::lock_guard lock(g_arrays_mutex);
    g_arrays.insert(array);
  }
  *out = array;
  return hipSuccess;
}

hipError_t destroy(hipArray* array) {
  if (array == nullptr) return hipErrorInvalidValue;
  {
    std::lock_guard lock(g_arrays_mutex);
    if (g_arrays.erase(array) == 0) return hipErrorInvalidHandle;
  }
  const hipError_t e = rocref::hip::release(array->data, false, "hipFreeArray");
  delete array;
  return e;
}

// The array as a strided range starting at element (x, y).
Strided at(hipArray_const_t array, size_t x_bytes, size_t y) {
  const size_t pitch = rocref::hip::array_pitch(array);
  return Strided{static_cast<char*>(array->data) + y * pitch + x_bytes, pitch, 0};
}

hipError_t copy_2d(const Strided& dst, const Strided& src, size_t width, size_t height, hipMemcpyKind kind,
                   hipStream_t stream, bool async) {
  return rocref::hip::copy_3d(dst, src, width, height, 1, kind, stream, async);
}

}  // namespace

namespace rocref::hip {
size_t array_element_bytes(hipArray_const_t array) { return format_bytes(array->Format) * array->NumChannels; }
size_t array_pitch(hipArray_const_t array) {
  constexpr size_t kLinearPitchAlignment = 256;
  return (array->width * array_element_bytes(array) + kLinearPitchAlignment - 1) / kLinearPitchAlignment *
         kLinearPitchAlignment;
}
bool known_array(hipArray_const_t array) { return known(array); }
hipChannelFormatDesc array_channel_desc(hipArray_Format format, unsigned channels) { return desc_of(format, channels); }
hipArray_Format array_format(const hipChannelFormatDesc& desc) { return format_of(desc); }
}  // namespace rocref::hip

hipError_t hipMallocArray(hipArray** array, const hipChannelFormatDesc* desc, size_t width, size_t height,
                          unsigned int flags) {
  if (desc == nullptr) return result(hipErrorInvalidValue);
  const unsigned channels = (desc->x > 0) + (desc->y > 0) + (desc->z > 0) + (desc->w > 0);
  return result(create(array, *desc, format_of(*desc), channels, width, height, 0, flags, false));
}

hipError_t hipMalloc3DArray(hipArray** array, const struct hipChannelFormatDesc* desc, struct hipExtent extent,
                            unsigned int flags) {
  if (desc == nullptr) return result(hipErrorInvalidValue);
  const unsigned channels = (desc->x > 0) + (desc->y > 0) + (desc->z > 0) + (desc->w > 0);
  return result(create(array, *desc, format_of(*desc), channels, extent.width, extent.height, extent.depth, flags, false));
}

hipError_t hipArrayCreate(hipArray** pHandle, const HIP_ARRAY_DESCRIPTOR* d) {
  if (d == nullptr) return result(hipErrorInvalidValue);
  return result(create(pHandle, desc_of(d->Format, d->NumChannels), d->Format, d->NumChannels, d->Width, d->Height, 0,
                       0, true));
}

hipError_t hipArray3DCreate(hipArray** array, const HIP_ARRAY3D_DESCRIPTOR* d) {
  if (d == nullptr) return result(hipErrorInvalidValue);
  return result(create(array, desc_of(d->Format, d->NumChannels), d->Format, d->NumChannels, d->Width, d->Height,
                       d->Depth, d->Flags, true));
}

hipError_t hipFreeArray(hipArray* array) { return result(destroy(array)); }
hipError_t hipArrayDestroy(hipArray* array) { return result(destroy(array)); }

hipChannelFormatDesc hipCreateChannelDesc(int x, int y, int z, int w, hipChannelFormatKind f) {
  return hipChannelFormatDesc{x, y, z, w, f};
}

hipError_t hipGetChannelDesc(hipChannelFormatDesc* desc, hipArray_const_t array) {
  if (desc == nullptr || !known(array)) return result(hipErrorInvalidValue);
  *desc = array->desc;
  return hipSuccess;
}

hipError_t hipMemcpy2DToArray(hipArray* dst, size_t wOffset, size_t hOffset, const void* src, size_t spitch,
                              size_t width, size_t height, hipMemcpyKind kind) {
  if (!known(dst)) return result(hipErrorInvalidValue);
  return result(copy_2d(at(dst, wOffset, hOffset), {const_cast<void*>(src), spitch, 0}, width, height, kind, nullptr,
                        false));
}

hipError_t hipMemcpy2DToArrayAsync(hipArray* dst, size_t wOffset, size_t hOffset, const void* src, size_t spitch,
                                   size_t width, size_t height, hipMemcpyKind kind, hipStream_t stream) {
  if (!known(dst)) return result(hipErrorInvalidValue);
  return result(copy_2d(at(dst, wOffset, hOffset), {const_cast<void*>(src), spitch, 0}, width, height, kind, stream,
                        true));
}

hipError_t hipMemcpy2DFromArray(void* dst, size_t dpitch, hipArray_const_t src, size_t wOffset, size_t hOffset,
                                size_t width, size_t height, hipMemcpyKind kind) {
  if (!known(src)) return result(hipErrorInvalidValue);
  return result(copy_2d({dst, dpitch, 0}, at(src, wOffset, hOffset), width, height, kind, nullptr, false));
}

hipError_t hipMemcpy2DFromArrayAsync(void* dst, size_t dpitch, hipArray_const_t src, size_t wOffset, size_t hOffset,
                                     size_t width, size_t height, hipMemcpyKind kind, hipStream_t stream) {
  if (!known(src)) return result(hipErrorInvalidValue);
  return result(copy_2d({dst, dpitch, 0}, at(src, wOffset, hOffset), width, height, kind, stream, true));
}

// The 1D forms: `count` bytes from the element at (wOffset bytes, hOffset rows) on, across rows.
hipError_t hipMemcpyToArray(hipArray* dst, size_t wOffset, size_t hOffset, const void* src, size_t count,
                            hipMemcpyKind kind) {
  if (!known(dst)) return result(hipErrorInvalidValue);
  return result(rocref::hip::copy(at(dst, wOffset, hOffset).ptr, src, count, kind, nullptr, false));
}

hipError_t hipMemcpyFromArray(void* dst, hipArray_const_t srcArray, size_t wOffset, size_t hOffset, size_t count,
                              hipMemcpyKind kind) {
  if (!known(srcArray)) return result(hipErrorInvalidValue);
  return result(rocref::hip::copy(dst, at(srcArray, wOffset, hOffset).ptr, count, kind, nullptr, false));
}

hipError_t hipMemcpyHtoA(hipArray* dstArray, size_t dstOffset, const void* srcHost, size_t count) {
  return hipMemcpyToArray(dstArray, dstOffset, 0, srcHost, count, hipMemcpyHostToDevice);
}

hipError_t hipMemcpyAtoH(void* dst, hipArray* srcArray, size_t srcOffset, size_t count) {
  return hipMemcpyFromArray(dst, srcArray, srcOffset, 0, count, hipMemcpyDeviceToHost);
}
