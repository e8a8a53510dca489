// hip/hip_device_props.h - the device values HSA does not report, as ROCclr gives them for gfx9.
#pragma once

#include <cstddef>

#include "hip/hip_runtime.h"

namespace rocref::hip {

inline constexpr int kRegistersPerBlock = 65536;
inline constexpr int kMaxThreadsPerCu = 2560;             // 40 waves of 64
inline constexpr int kClockInstructionRateKhz = 100000;   // the 100 MHz shader clock counter
inline constexpr int kMemoryClockRateKhz = 945000;
inline constexpr int kMemoryBusWidthBits = 2048;
inline constexpr int kL2CacheBytes = 4 * 1024 * 1024;
inline constexpr int kMaxTexture1DLinear = 1 << 27;
inline constexpr int kMaxTexture1D = 16384;
inline constexpr int kMaxTexture2D = 16384;
inline constexpr int kMaxTexture3D = 2048;
// What ROCclr 5.2.3 reports for gfx9 images (hipDeviceProp_t::maxTexture3D): width and height, depth.
inline constexpr int kMaxTexture3DExtent = 16384;
inline constexpr int kMaxTexture3DDepth = 8192;
inline constexpr size_t kMaxPitch = size_t{1} << 31;
inline constexpr size_t kTextureAlignment = 256;
inline constexpr size_t kTexturePitchAlignment = 256;
inline constexpr int kMaxBlocksPerCu = 32;
// hip::Stream::Priority of HIP 5.2.3: High -1, Normal 0, Low 1.
inline constexpr int kStreamPriorityLeast = 1;
inline constexpr int kStreamPriorityGreatest = -1;

// hipGetDeviceProperties without recording the last error.
hipError_t fill_properties(hipDeviceProp_t* prop, int device);

}  // namespace rocref::hip
