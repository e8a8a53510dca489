// kfd/drm_render.cpp - DRM_IOCTL_VERSION and DRM_IOCTL_AMDGPU_INFO on a render node (KFD-DRM-1).
#include "kfd/drm_render.h"

#include <libdrm/amdgpu_drm.h>
#include <libdrm/drm.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <string_view>

#include "gpu/isa/tiling.h"
#include "kfd/user_copy.h"

namespace rocref::kfd {
namespace {

// drm_copy_field: at most the user's length is copied; the length becomes the string's.
int copy_field(uint64_t user_buf, __kernel_size_t* len, std::string_view value) {
  const size_t n = std::min<size_t>(value.size(), *len);
  *len = value.size();
  if (n != 0 && user_buf != 0 && copy_to_user(user_buf, value.data(), n) != 0) return -EFAULT;
  return 0;
}

int version(uint64_t user_arg) {
  drm_version v{};
  if (copy_from_user(&v, user_arg, sizeof v) != 0) return -EFAULT;
  v.version_major = kAmdgpuKmsMajor;
  v.version_minor = kAmdgpuKmsMinor;
  v.version_patchlevel = 0;
  if (int r = copy_field(reinterpret_cast<uintptr_t>(v.name), &v.name_len, "amdgpu")) return r;
  if (int r = copy_field(reinterpret_cast<uintptr_t>(v.date), &v.date_len, "20150101")) return r;
  if (int r = copy_field(reinterpret_cast<uintptr_t>(v.desc), &v.desc_len, "AMD GPU")) return r;
  return copy_to_user(user_arg, &v, sizeof v) != 0 ? -EFAULT : 0;
}

// amdgpu_info_ioctl's DEV_INFO for a Vega10 board: the counts come from the modelled GPU, the
// rest are gfx9/Vega10 constants of amdgpu (gfx_v9_0.c, gmc_v9_0.c).
drm_amdgpu_info_device device_info(const GpuDescription& gpu) {
  drm_amdgpu_info_device d{};
  d.device_id = gpu.device_id;
  d.chip_rev = gpu.pci_revision;
  d.external_rev = gpu.pci_revision + 0x01;  // Vega10's external_rev_id = rev_id + 1
  d.pci_rev = gpu.pci_revision;
  d.family = AMDGPU_FAMILY_AI;
  const uint32_t engines = std::max(1u, gpu.array_count);
  d.num_shader_engines = engines;
  d.num_shader_arrays_per_engine = 1;
  d.gpu_counter_freq = 2700;                                          // the 27 MHz reference clock, in 10 kHz units
  d.max_engine_clock = uint64_t{gpu.max_engine_clk_fcompute} * 1000;  // kHz
  d.max_memory_clock = 945000;                                        // HBM2 at 945 MHz
  d.cu_active_number = gpu.cu_count;
  const uint32_t per_engine = gpu.cu_count / engines;
  const uint32_t cu_mask = per_engine >= 32 ? 0xffffffffu : (1u << per_engine) - 1;
  for (uint32_t se = 0; se < std::min(engines, 4u); ++se) {
    d.cu_bitmap[se][0] = cu_mask;
    d.cu_ao_bitmap[se][0] = cu_mask;  // a dGPU's CUs are all always-on
  }
  d.cu_ao_mask = (cu_mask & 0xffff) | ((cu_mask & 0xffff) << 16);
  d.num_rb_pipes = 4 * engines;
  d.enabled_rb_pipes_mask = d.num_rb_pipes >= 32 ? 0xffffffffu : (1u << d.num_rb_pipes) - 1;
  d.num_hw_gfx_contexts = 8;
  d.virtual_address_offset = 2ull << 20;          // AMDGPU_VA_RESERVED_SIZE
  d.virtual_address_max = 0x0000800000000000ull;  // AMDGPU_GMC_HOLE_START: 48-bit VM
  d.virtual_address_alignment = 4096;
  d.pte_fragment_size = 2u << 20;
  d.gart_page_size = 4096;
  d.ce_ram_size = 0x8000;
  d.vram_type = AMDGPU_VRAM_TYPE_HBM;
  d.vram_bit_width = 2048;
  d.wave_front_size = gpu.wave_front_size;
  d.num_shader_visible_vgprs = 256;
  d.num_cu_per_sh = per_engine;
  d.num_tcc_blocks = 16;
  d.gs_vgt_table_depth = 32;
  d.gs_prim_buffer_depth = 1792;
  d.max_gs_waves_per_vgt = 32;
  d.high_va_offset = 0xffff800000000000ull;  // AMDGPU_GMC_HOLE_END
  d.high_va_max = 0xffff800000000000ull | (1ull << 48);
  return d;
}

// amdgpu_info_ioctl's answer: at most the caller's return_size bytes of the value.
int copy_out(const drm_amdgpu_info& in, const void* value, size_t size) {
  return copy_to_user(in.return_pointer, value, std::min<size_t>(in.return_size, size)) != 0 ? -EFAULT : 0;
}

int info(const GpuDescription& gpu, uint64_t user_arg) {
  drm_amdgpu_info in{};
  if (copy_from_user(&in, user_arg, sizeof in) != 0) return -EFAULT;
  if (in.return_size == 0 || in.return_pointer == 0) return -EINVAL;
  switch (in.query) {
    case AMDGPU_INFO_ACCEL_WORKING: {  // the GPU initialized and accepts work
      const uint32_t working = 1;
      return copy_out(in, &working, sizeof working);
    }
    case AMDGPU_INFO_DEV_INFO: {
      const drm_amdgpu_info_device d = device_info(gpu);
      return copy_out(in, &d, sizeof d);
    }
    case AMDGPU_INFO_READ_MMR_REG: {
      const uint32_t se = (in.read_mmr_reg.instance >> AMDGPU_INFO_MMR_SE_INDEX_SHIFT) & AMDGPU_INFO_MMR_SE_INDEX_MASK;
      const uint32_t sh = (in.read_mmr_reg.instance >> AMDGPU_INFO_MMR_SH_INDEX_SHIFT) & AMDGPU_INFO_MMR_SH_INDEX_MASK;
      if ((se != AMDGPU_INFO_MMR_SE_INDEX_MASK && se >= 8) || (sh != AMDGPU_INFO_MMR_SH_INDEX_MASK && sh >= 2))
        return -EINVAL;
      if (in.read_mmr_reg.count > 128) return -EINVAL;
      uint32_t regs[128];
      for (uint32_t i = 0; i < in.read_mmr_reg.count; ++i) {
        if (in.read_mmr_reg.dword_offset + i != kGbAddrConfigReg) return -EFAULT;  // not an allowed register
        regs[i] = gpu::isa::kGbAddrConfig;
      }
      return copy_out(in, regs, in.read_mmr_reg.count * sizeof(uint32_t));
    }
    default: return -EINVAL;
  }
}

}  // namespace

int drm_render_ioctl(const GpuDescription& gpu, unsigned long request, void* arg) {
  const uint64_t user_arg = reinterpret_cast<uintptr_t>(arg);
  if (request == DRM_IOCTL_VERSION) return version(user_arg);
  if (request == DRM_IOCTL_AMDGPU_INFO) return info(gpu, user_arg);
  return -EINVAL;  // amdgpu's other DRM ioctls (command submission, GEM, ...) are not modeled
}

}  // namespace rocref::kfd
