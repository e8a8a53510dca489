// hip/hip_memory_2d.h - strided (pitched, 2D, 3D, array) copies and fills shared by the memory entry points.
#pragma once

#include <cstddef>

#include "hip/hip_runtime.h"

namespace rocref::hip {

// As ROCclr's image pitch alignment: hipMallocPitch rounds each row up to it.
inline constexpr size_t kPitchAlignment = 256;

struct Strided {
  void* ptr;     // the first byte of the first row
  size_t pitch;  // bytes from one row to the next
  size_t slice;  // bytes from one 2D slice to the next (unused when depth is 1)
};

hipError_t copy_3d(const Strided& dst, const Strided& src, size_t width, size_t height, size_t depth,
                   hipMemcpyKind kind, hipStream_t stream, bool async);
hipError_t fill_3d(const Strided& dst, int value, size_t width, size_t height, size_t depth, hipStream_t stream,
                   bool async);
size_t pitch_for(size_t width);

// Arrays (hip_array.cpp): linear memory, rows of width * element bytes.
size_t array_element_bytes(hipArray_const_t array);
size_t array_pitch(hipArray_const_t array);
// A live array this runtime made (texture and surface objects check their resource with it).
bool known_array(hipArray_const_t array);
// The driver API's format and channel count as a channel format, and back.
hipChannelFormatDesc array_channel_desc(hipArray_Format format, unsigned channels);
hipArray_Format array_format(const hipChannelFormatDesc& desc);

}  // namespace rocref::hip
