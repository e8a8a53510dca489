// kfd/kfd_misc.cpp - version, apertures, VM binding, policies, clocks, trap/scratch, XNACK, tiles.
#include <linux/kfd_ioctl.h>
#include <time.h>

#include <algorithm>
#include <cerrno>
#include <vector>

#include "common/model_clock.h"
#include "gpu/isa/tiling.h"
#include "kfd/device_state.h"
#include "kfd/user_copy.h"

namespace rocref::kfd {
namespace {

// kfd_init_apertures_v9: LDS and scratch in the non-canonical hole, GPUVM up to 2^47 - 1,
// which makes the thunk use mmap-based apertures (GPU VA = CPU VA).
kfd_process_device_apertures apertures(const DeviceState& d, uint32_t gpu) {
  kfd_process_device_apertures a{};
  a.lds_base = uint64_t{1} << 48;
  a.lds_limit = a.lds_base + 0xffffffffu;
  a.scratch_base = uint64_t{2} << 48;
  a.scratch_limit = a.scratch_base + 0xffffffffu;
  a.gpuvm_base = 0x4000;  // SVM_USER_BASE: the CWSR TBA/TMA pages and a guard below it
  a.gpuvm_limit = (uint64_t{1} << 47) - 1;
  a.gpu_id = d.gpu_id(gpu);
  return a;
}

}  // namespace

// KFD-IOC-3
int kfd_ioctl_get_version(IoctlCall& c) {
  auto* args = static_cast<kfd_ioctl_get_version_args*>(c.args);
  args->major_version = KFD_IOCTL_MAJOR_VERSION;
  args->minor_version = KFD_IOCTL_MINOR_VERSION;
  return 0;
}

int kfd_ioctl_get_process_apertures(IoctlCall& c) {
  auto* args = static_cast<kfd_ioctl_get_process_apertures_args*>(c.args);
  const uint32_t n = std::min<uint32_t>(c.dev.topology.gpu_count(), NUM_OF_SUPPORTED_GPUS);
  for (uint32_t i = 0; i < n; ++i) args->process_apertures[i] = apertures(c.dev, i);
  args->num_of_nodes = n;
  return 0;
}

int kfd_ioctl_get_process_apertures_new(IoctlCall& c) {
  auto* args = static_cast<kfd_ioctl_get_process_apertures_new_args*>(c.args);
  const uint32_t nodes = c.dev.topology.gpu_count();  // one kfd_process_device per GPU
  if (args->num_of_nodes == 0) {  // a query of the count
    args->num_of_nodes = nodes;
    return 0;
  }
  const uint32_t n = std::min(args->num_of_nodes, nodes);
  std::vector<kfd_process_device_apertures> pa;
  for (uint32_t i = 0; i < n; ++i) pa.push_back(apertures(c.dev, i));
  args->num_of_nodes = n;
  return copy_to_user(args->kfd_process_device_apertures_ptr, pa.data(), n * sizeof(pa[0])) ? -EFAULT : 0;
}

// KFD-PROC-2: the process's VM on a GPU comes from a render node of that GPU it opened; one node,
// one process (KFD-TOPO-8: a render node of another GPU is refused).
int kfd_ioctl_acquire_vm(IoctlCall& c) {
  auto* args = static_cast<kfd_ioctl_acquire_vm_args*>(c.args);
  DeviceState& d = c.dev;
  Process& p = c.p;
  const int gpu = d.gpu_index(args->gpu_id);
  if (gpu < 0) return -EINVAL;
  const int fd = static_cast<int>(args->drm_fd);
  auto it = d.fds.find(fd);
  if (it == d.fds.end() || it->second.kind != FdEntry::Kind::Render) return -EINVAL;
  if (it->second.minor != d.topology.gpu(gpu).drm_render_minor) return -EINVAL;
  ProcessDevice& pd = p.pdd[gpu];
  if (pd.drm_fd >= 0) return pd.drm_fd == fd ? 0 : -EBUSY;
  if (it->second.bound_kfd >= 0 && it->second.bound_kfd != p.fd) return -EINVAL;  // VM in use
  it->second.bound_kfd = p.fd;
  pd.drm_fd = fd;
  return 0;
}

int kfd_ioctl_set_memory_policy(IoctlCall& c) {
  auto* args = static_cast<kfd_ioctl_set_memory_policy_args*>(c.args);
  auto valid = [](uint32_t v) { return v == KFD_IOC_CACHE_POLICY_COHERENT || v == KFD_IOC_CACHE_POLICY_NONCOHERENT; };
  if (!valid(args->default_policy) || !valid(args->alternate_policy)) return -EINVAL;
  const int gpu = c.dev.gpu_index(args->gpu_id);
  if (gpu < 0) return -EINVAL;
  if (c.p.pdd[gpu].drm_fd < 0) return -ESRCH;
  c.p.default_policy = args->default_policy;
  c.p.alternate_policy = args->alternate_policy;
  return 0;
}

// A GPU that is not this process's reads 0 for the GPU counter, as upstream does.
int kfd_ioctl_get_clock_counters(IoctlCall& c) {
  auto* args = static_cast<kfd_ioctl_get_clock_counters_args*>(c.args);
  // common/model_clock.h: the counters the command processor stamps with.
  const uint64_t cpu = cpu_clock_counter();
  args->gpu_clock_counter = c.dev.gpu_index(args->gpu_id) >= 0 ? gpu_ticks_from_cpu_counter(cpu) : 0;
  args->cpu_clock_counter = cpu;
  args->system_clock_counter = model_clock_ns();
  args->system_clock_freq = kModelClockHz;
  return 0;
}

int kfd_ioctl_set_scratch_backing_va(IoctlCall& c) {
  auto* args = static_cast<kfd_ioctl_set_scratch_backing_va_args*>(c.args);
  const int gpu = c.dev.gpu_index(args->gpu_id);
  if (gpu < 0) return -EINVAL;
  if (c.p.pdd[gpu].drm_fd < 0) return -ENODEV;
  c.p.scratch_backing_va = args->va_addr;
  return 0;
}

int kfd_ioctl_set_trap_handler(IoctlCall& c) {
  auto* args = static_cast<kfd_ioctl_set_trap_handler_args*>(c.args);
  const int gpu = c.dev.gpu_index(args->gpu_id);
  if (gpu < 0) return -EINVAL;
  if (c.p.pdd[gpu].drm_fd < 0) return -ESRCH;
  c.p.tba_addr = args->tba_addr;
  c.p.tma_addr = args->tma_addr;
  return 0;
}

// KFD-IOC-4: -1 queries; gfx900 runs with retry faults off, so XNACK cannot be enabled.
int kfd_ioctl_set_xnack_mode(IoctlCall& c) {
  auto* args = static_cast<kfd_ioctl_set_xnack_mode_args*>(c.args);
  if (args->xnack_enabled < 0) {
    args->xnack_enabled = c.p.xnack_enabled ? 1 : 0;
    return 0;
  }
  if (!c.p.queues.empty()) return -EBUSY;
  if (args->xnack_enabled) return -EPERM;
  c.p.xnack_enabled = false;
  return 0;
}

int kfd_ioctl_get_tile_config(IoctlCall& c) {
  auto* args = static_cast<kfd_ioctl_get_tile_config_args*>(c.args);
  if (c.dev.gpu_index(args->gpu_id) < 0) return -EINVAL;
  // gfx9: GB_ADDR_CONFIG of Vega 10 (the value the texture unit addresses tiled images with,
  // ISA-IMG-4); the tile-mode arrays exist but are all zero.
  constexpr uint32_t kTileConfigs = 32, kMacroTileConfigs = 16;
  args->gb_addr_config = gpu::isa::kGbAddrConfig;
  args->num_banks = 0;
  args->num_ranks = 0;
  args->num_tile_configs = std::min(args->num_tile_configs, kTileConfigs);
  args->num_macro_tile_configs = std::min(args->num_macro_tile_configs, kMacroTileConfigs);
  const std::vector<uint32_t> zeros(kTileConfigs, 0);
  if (copy_to_user(args->tile_config_ptr, zeros.data(), args->num_tile_configs * sizeof(uint32_t))) {
    args->num_tile_configs = 0;
    return -EFAULT;
  }
  if (copy_to_user(args->macro_tile_config_ptr, zeros.data(), args->num_macro_tile_configs * sizeof(uint32_t))) {
    args->num_macro_tile_configs = 0;
    return -EFAULT;
  }
  return 0;
}

// The deprecated debugger ioctls (0x0D..0x10) are kept in the table and refuse.
int kfd_ioctl_dbg_deprecated(IoctlCall&) { return -EPERM; }

// Not modeled, answered as the real driver answers in the modeled configuration.
int kfd_ioctl_get_dmabuf_info(IoctlCall&) { return -EINVAL; }  // no dma-buf exporter in the model
int kfd_ioctl_import_dmabuf(IoctlCall& c) {
  auto* args = static_cast<kfd_ioctl_import_dmabuf_args*>(c.args);
  if (c.dev.gpu_index(args->gpu_id) < 0) return -EINVAL;
  return -EBADF;  // dma_buf_get: the descriptor is not a dma-buf
}
int kfd_ioctl_smi_events(IoctlCall& c) {
  auto* args = static_cast<kfd_ioctl_smi_events_args*>(c.args);
  if (c.dev.gpu_index(args->gpuid) < 0) return -EINVAL;
  return -EINVAL;  // SMI event file descriptors are not modeled
}
int kfd_ioctl_criu_op(IoctlCall&) { return -EACCES; }  // needs CAP_CHECKPOINT_RESTORE

}  // namespace rocref::kfd
