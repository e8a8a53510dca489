// hip/hip_memory_2d.cpp - pitched allocations, 2D/3D copies and fills (HIP-MEM-10).
//
// A strided copy or fill is one command per row (one for the whole range when
// rows are contiguous), all on the same stream, so it keeps the stream's order
// and a synchronous call returns after its last row.
#include <algorithm>

#include "hip/hip_memory_2d.h"
#include "hip/hip_memory_ops.h"
#include "hip/hip_mutant.h"
#include "hip/hip_state.h"

using rocref::clr::MemoryKind;
using rocref::hip::result;

namespace rocref::hip {

hipError_t copy_3d(const Strided& dst, const Strided& src, size_t width, size_t height, size_t depth,
                   hipMemcpyKind kind, hipStream_t stream, bool async) {
  if (width == 0 || height == 0 || depth == 0) return hipSuccess;
  if (dst.ptr == nullptr || src.ptr == nullptr) return hipErrorInvalidValue;
  if (width > dst.pitch || width > src.pitch) return hipErrorInvalidPitchValue;
  const bool contiguous = dst.pitch == width && src.pitch == width &&
                          (depth == 1 || (dst.slice == width * height && src.slice == width * height));
  if (contiguous || hip_mutant_active(HipMutant::PitchIgnored)) {
    return copy(dst.ptr, src.ptr, width * height * depth, kind, stream, async);
  }
  for (size_t z = 0; z < depth; ++z) {
    for (size_t y = 0; y < height; ++y) {
      auto* d = static_cast<char*>(dst.ptr) + z * dst.slice + y * dst.pitch;
      const auto* s = static_cast<const char*>(src.ptr) + z * src.slice + y * src.pitch;
      // Every row but the last may run ahead; the last one is synchronous when the call is.
      const bool last = z + 1 == depth && y + 1 == height;
      if (hipError_t e = copy(d, s, width, kind, stream, async || !last); e != hipSuccess) return e;
    }
  }
  return hipSuccess;
}

hipError_t fill_3d(const Strided& dst, int value, size_t width, size_t height, size_t depth, hipStream_t stream,
                   bool async) {
  if (width == 0 || height == 0 || depth == 0) return hipSuccess;
  if (dst.ptr == nullptr) return hipErrorInvalidValue;
  if (width > dst.pitch) return hipErrorInvalidPitchValue;
  const auto byte = static_cast<uint8_t>(value);
  if (dst.pitch == width && (depth == 1 || dst.slice == width * height)) {
    return fill(dst.ptr, byte, 1, width * height * depth, stream, async);
  }
  for (size_t z = 0; z < depth; ++z) {
    for (size_t y = 0; y < height; ++y) {
      const bool last = z + 1 == depth && y + 1 == height;
      auto* d = static_cast<char*>(dst.ptr) + z * dst.slice + y * dst.pitch;
      if (hipError_t e = fill(d, byte, 1, width, stream, async || !last); e != hipSuccess) return e;
    }
  }
  return hipSuccess;
}

size_t pitch_for(size_t width) { return (width + kPitchAlignment - 1) / kPitchAlignment * kPitchAlignment; }

}  // namespace rocref::hip

using rocref::hip::Strided;

namespace {

hipError_t malloc_pitch(void** ptr, size_t* pitch, size_t width, size_t height, size_t depth) {
  if (ptr == nullptr || pitch == nullptr) return hipErrorInvalidValue;
  const size_t p = rocref::hip::pitch_for(width);
  if (width == 0 || height == 0 || depth == 0) {
    *ptr = nullptr;
    *pitch = p;
    return hipSuccess;
  }
  if (height > SIZE_MAX / p || depth > SIZE_MAX / (p * height)) return hipErrorOutOfMemory;
  *pitch = p;
  return rocref::hip::allocate(ptr, p * height * depth, MemoryKind::Device, 0, "hipMallocPitch");
}

hipError_t copy_2d_params(const hip_Memcpy2D* c, hipStream_t stream, bool async) {
  if (c == nullptr) return hipErrorInvalidValue;
  auto base = [](hipMemoryType type, const void* host, const void* device, hipArray* array) -> const void* {
    if (type == hipMemoryTypeArray) return array != nullptr ? array->data : nullptr;
    return type == hipMemoryTypeHost ? host : device;
  };
  const void* src = base(c->srcMemoryType, c->srcHost, c->srcDevice, c->srcArray);
  const void* dst = base(c->dstMemoryType, c->dstHost, c->dstDevice, c->dstArray);
  if (src == nullptr || dst == nullptr) return hipErrorInvalidValue;
  const size_t spitch = c->srcMemoryType == hipMemoryTypeArray ? rocref::hip::array_pitch(c->srcArray) : c->srcPitch;
  const size_t dpitch = c->dstMemoryType == hipMemoryTypeArray ? rocref::hip::array_pitch(c->dstArray) : c->dstPitch;
  const Strided s{const_cast<char*>(static_cast<const char*>(src)) + c->srcY * spitch + c->srcXInBytes, spitch, 0};
  const Strided d{static_cast<char*>(const_cast<void*>(dst)) + c->dstY * dpitch + c->dstXInBytes, dpitch, 0};
  return rocref::hip::copy_3d(d, s, c->WidthInBytes, c->Height, 1, hipMemcpyDefault, stream, async);
}

hipError_t copy_3d_params(const hipMemcpy3DParms* p, hipStream_t stream, bool async) {
  if (p == nullptr) return hipErrorInvalidValue;
  // Either an array or a pitched pointer on each side, never both.
  if ((p->srcArray != nullptr) == (p->srcPtr.ptr != nullptr) || (p->dstArray != nullptr) == (p->dstPtr.ptr != nullptr)) {
    return hipErrorInvalidValue;
  }
  auto side = [](hipArray_t array, const hipPitchedPtr& ptr, const hipPos& pos, size_t* element) {
    *element = array != nullptr ? rocref::hip::array_element_bytes(array) : 1;
    const size_t pitch = array != nullptr ? rocref::hip::array_pitch(array) : ptr.pitch;
    const size_t rows = array != nullptr ? std::max(1u, array->height) : ptr.ysize;
    char* base = static_cast<char*>(array != nullptr ? array->data : ptr.ptr);
    return Strided{base + pos.z * pitch * rows + pos.y * pitch + pos.x * *element, pitch, pitch * rows};
  };
  size_t src_element = 1, dst_element = 1;
  const Strided s = side(p->srcArray, p->srcPtr, p->srcPos, &src_element);
  const Strided d = side(p->dstArray, p->dstPtr, p->dstPos, &dst_element);
  // With an array on either side the extent's width counts elements, else bytes.
  const size_t element = p->srcArray != nullptr ? src_element : dst_element;
  const size_t width = (p->srcArray != nullptr || p->dstArray != nullptr) ? p->extent.width * element : p->extent.width;
  return rocref::hip::copy_3d(d, s, width, p->extent.height, p->extent.depth, p->kind, stream, async);
}

hipError_t copy_drv_3d(const HIP_MEMCPY3D* c, hipStream_t stream, bool async) {
  if (c == nullptr) return hipErrorInvalidValue;
  auto base = [](hipMemoryType type, const void* host, const void* device, hipArray_t array) -> const void* {
    if (type == hipMemoryTypeArray) return array != nullptr ? array->data : nullptr;
    return type == hipMemoryTypeHost ? host : device;
  };
  const void* src = base(c->srcMemoryType, c->srcHost, c->srcDevice, c->srcArray);
  const void* dst = base(c->dstMemoryType, c->dstHost, c->dstDevice, c->dstArray);
  if (src == nullptr || dst == nullptr) return hipErrorInvalidValue;
  const size_t spitch = c->srcMemoryType == hipMemoryTypeArray ? rocref::hip::array_pitch(c->srcArray) : c->srcPitch;
  const size_t dpitch = c->dstMemoryType == hipMemoryTypeArray ? rocref::hip::array_pitch(c->dstArray) : c->dstPitch;
  const size_t sheight = c->srcMemoryType == hipMemoryTypeArray ? std::max(1u, c->srcArray->height) : c->srcHeight;
  const size_t dheight = c->dstMemoryType == hipMemoryTypeArray ? std::max(1u, c->dstArray->height) : c->dstHeight;
  const Strided s{const_cast<char*>(static_cast<const char*>(src)) + size_t{c->srcZ} * spitch * sheight +
                      size_t{c->srcY} * spitch + c->srcXInBytes,
                  spitch, spitch * sheight};
  const Strided d{static_cast<char*>(const_cast<void*>(dst)) + size_t{c->dstZ} * dpitch * dheight +
                      size_t{c->dstY} * dpitch + c->dstXInBytes,
                  dpitch, dpitch * dheight};
  return rocref::hip::copy_3d(d, s, c->WidthInBytes, c->Height, c->Depth, hipMemcpyDefault, stream, async);
}

}  // namespace

hipError_t hipMallocPitch(void** ptr, size_t* pitch, size_t width, size_t height) {
  return result(malloc_pitch(ptr, pitch, width, height, 1));
}

hipError_t hipMemAllocPitch(hipDeviceptr_t* dptr, size_t* pitch, size_t widthInBytes, size_t height,
                            unsigned int elementSizeBytes) {
  if (elementSizeBytes != 4 && elementSizeBytes != 8 && elementSizeBytes != 16) return result(hipErrorInvalidValue);
  return result(malloc_pitch(dptr, pitch, widthInBytes, height, 1));
}

hipError_t hipMalloc3D(hipPitchedPtr* pitchedDevPtr, hipExtent extent) {
  if (pitchedDevPtr == nullptr) return result(hipErrorInvalidValue);
  size_t pitch = 0;
  void* ptr = nullptr;
  if (hipError_t e = malloc_pitch(&ptr, &pitch, extent.width, extent.height, extent.depth); e != hipSuccess) {
    return result(e);
  }
  *pitchedDevPtr = hipPitchedPtr{ptr, pitch, extent.width, extent.height};
  return hipSuccess;
}

hipError_t hipMemcpy2D(void* dst, size_t dpitch, const void* src, size_t spitch, size_t width, size_t height,
                       hipMemcpyKind kind) {
  return result(rocref::hip::copy_3d({dst, dpitch, 0}, {const_cast<void*>(src), spitch, 0}, width, height, 1, kind,
                                     nullptr, false));
}

hipError_t hipMemcpy2DAsync(void* dst, size_t dpitch, const void* src, size_t spitch, size_t width, size_t height,
                            hipMemcpyKind kind, hipStream_t stream) {
  return result(rocref::hip::copy_3d({dst, dpitch, 0}, {const_cast<void*>(src), spitch, 0}, width, height, 1, kind,
                                     stream, true));
}

hipError_t hipMemcpyParam2D(const hip_Memcpy2D* pCopy) { return result(copy_2d_params(pCopy, nullptr, false)); }
hipError_t hipMemcpyParam2DAsync(const hip_Memcpy2D* pCopy, hipStream_t stream) {
  return result(copy_2d_params(pCopy, stream, true));
}
hipError_t hipDrvMemcpy2DUnaligned(const hip_Memcpy2D* pCopy) { return result(copy_2d_params(pCopy, nullptr, false)); }

hipError_t hipMemcpy3D(const struct hipMemcpy3DParms* p) { return result(copy_3d_params(p, nullptr, false)); }
hipError_t hipMemcpy3DAsync(const struct hipMemcpy3DParms* p, hipStream_t stream) {
  return result(copy_3d_params(p, stream, true));
}
hipError_t hipDrvMemcpy3D(const HIP_MEMCPY3D* pCopy) { return result(copy_drv_3d(pCopy, nullptr, false)); }
hipError_t hipDrvMemcpy3DAsync(const HIP_MEMCPY3D* pCopy, hipStream_t stream) {
  return result(copy_drv_3d(pCopy, stream, true));
}

hipError_t hipMemset2D(void* dst, size_t pitch, int value, size_t width, size_t height) {
  return result(rocref::hip::fill_3d({dst, pitch, 0}, value, width, height, 1, nullptr, false));
}

hipError_t hipMemset2DAsync(void* dst, size_t pitch, int value, size_t width, size_t height, hipStream_t stream) {
  return result(rocref::hip::fill_3d({dst, pitch, 0}, value, width, height, 1, stream, true));
}

hipError_t hipMemset3D(hipPitchedPtr pitchedDevPtr, int value, hipExtent extent) {
  const Strided d{pitchedDevPtr.ptr, pitchedDevPtr.pitch, pitchedDevPtr.pitch * pitchedDevPtr.ysize};
  return result(rocref::hip::fill_3d(d, value, extent.width, extent.height, extent.depth, nullptr, false));
}

hipError_t hipMemset3DAsync(hipPitchedPtr pitchedDevPtr, int value, hipExtent extent, hipStream_t stream) {
  const Strided d{pitchedDevPtr.ptr, pitchedDevPtr.pitch, pitchedDevPtr.pitch * pitchedDevPtr.ysize};
  return result(rocref::hip::fill_3d(d, value, extent.width, extent.height, extent.depth, stream, true));
}
