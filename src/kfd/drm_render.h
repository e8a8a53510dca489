// kfd/drm_render.h - amdgpu's DRM ioctls on a render node, the part libdrm_amdgpu's
// amdgpu_device_initialize needs (KFD-DRM-1).
//
// libhsakmt names a GPU node through libdrm: amdgpu_device_initialize on the node's render
// descriptor, then amdgpu_get_marketing_name, which looks the device id and PCI revision of
// AMDGPU_INFO_DEV_INFO up in libdrm's amdgpu.ids. ROCR reports that name as the agent's product
// name and ROCclr as the HIP device's name. Answered: DRM_IOCTL_VERSION, and DRM_IOCTL_AMDGPU_INFO
// for ACCEL_WORKING, DEV_INFO and READ_MMR_REG of GB_ADDR_CONFIG (the one register gfx9's
// initialization reads).
// Everything else is -EINVAL, as amdgpu answers an unknown query; other registers are -EFAULT,
// as amdgpu answers a register outside its allowed list.
#pragma once

#include <cstdint>

#include "kfd/topology.h"

namespace rocref::kfd {

// The amdgpu KMS interface version the model's driver reports (Linux 5.18's amdgpu: 3.46.0).
inline constexpr int kAmdgpuKmsMajor = 3;
inline constexpr int kAmdgpuKmsMinor = 46;
// gfx9's GB_ADDR_CONFIG dword offset (its value: gpu::isa::kGbAddrConfig, as GET_TILE_CONFIG's).
inline constexpr uint32_t kGbAddrConfigReg = 0x263e;

// 0 or -errno. `arg` is the user's argument struct (already in this process); the pointers
// inside it are user pointers, written through copy_to_user.
int drm_render_ioctl(const GpuDescription& gpu, unsigned long request, void* arg);

}  // namespace rocref::kfd
