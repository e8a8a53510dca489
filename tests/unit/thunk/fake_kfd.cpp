// tests/unit/thunk/fake_kfd.cpp - a scripted Transport: sysfs files, a minimal KFD, a call log.
#include "fake_kfd.h"

#include <sys/mman.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

namespace rocref::thunk::testing {
namespace {

constexpr const char* kRoot = "/sys/devices/virtual/kfd/kfd/topology";

std::string node(int n, const std::string& rest) { return std::string(kRoot) + "/nodes/" + std::to_string(n) + rest; }

}  // namespace

FakeKfd::FakeKfd() {
  files[std::string(kRoot) + "/generation_id"] = "1\n";
  files[std::string(kRoot) + "/system_properties"] = "platform_oem 0\nplatform_id 0\nplatform_rev 0\n";
  files[node(0, "/gpu_id")] = "0\n";
  files[node(0, "/properties")] =
      "cpu_cores_count 2\nsimd_count 0\nmem_banks_count 1\ncaches_count 0\nio_links_count 1\n"
      "cpu_core_id_base 0\nsimd_id_base 0\nmax_waves_per_simd 0\nvendor_id 0\ndevice_id 0\n"
      "max_engine_clk_ccompute 2000\nlocal_mem_size 0\ndrm_render_minor 0\n";
  files[node(0, "/mem_banks/0/properties")] = "heap_type 0\nsize_in_bytes 8589934592\nflags 0\nwidth 64\nmem_clk_max 2400\n";
  files[node(0, "/io_links/0/properties")] =
      "type 2\nversion_major 0\nversion_minor 0\nnode_from 0\nnode_to 1\nweight 20\nmin_latency 0\n"
      "max_latency 0\nmin_bandwidth 0\nmax_bandwidth 0\nrecommended_transfer_size 0\nflags 1\n";
  files[node(1, "/gpu_id")] = std::to_string(kGpuId) + "\n";
  files[node(1, "/properties")] =
      "cpu_cores_count 0\nsimd_count 256\nmem_banks_count 1\ncaches_count 1\nio_links_count 1\n"
      "p2p_links_count 0\ncpu_core_id_base 0\nsimd_id_base 2147487744\ncapability 671588992\n"
      "debug_prop 0\nmax_waves_per_simd 10\nlds_size_in_kb 64\ngds_size_in_kb 0\nwave_front_size 64\n"
      "array_count 4\nsimd_arrays_per_engine 1\ncu_per_simd_array 16\nsimd_per_cu 4\n"
      "max_slots_scratch_cu 32\nfw_version 440\nvendor_id 4098\ndevice_id 26751\nlocation_id 768\n"
      "domain 0\nmax_engine_clk_fcompute 1600\nmax_engine_clk_ccompute 2000\n"
      "local_mem_size 8589934592\ndrm_render_minor 128\nsdma_fw_version 430\nhive_id 0\n"
      "unique_id 42\nnum_sdma_engines 2\nnum_sdma_xgmi_engines 0\nnum_gws 64\n"
      "num_sdma_queues_per_engine 2\nnum_cp_queues 24\ngfx_target_version 90000\n";
  files[node(1, "/mem_banks/0/properties")] = "heap_type 1\nsize_in_bytes 8589934592\nflags 0\nwidth 2048\nmem_clk_max 945\n";
  files[node(1, "/caches/0/properties")] =
      "processor_id_low 2147487744\nlevel 1\nsize 16\ncache_line_size 64\ncache_lines_per_tag 1\n"
      "association 4\nlatency 1\ntype 5\nsibling_map 1,0,0,1\n";
  files[node(1, "/io_links/0/properties")] =
      "type 2\nversion_major 0\nversion_minor 0\nnode_from 1\nnode_to 0\nweight 20\nmin_latency 0\n"
      "max_latency 0\nmin_bandwidth 0\nmax_bandwidth 0\nrecommended_transfer_size 0\nflags 1\n";
}

size_t FakeKfd::count(unsigned nr) const { return std::count(ioctl_log.begin(), ioctl_log.end(), nr); }

int FakeKfd::open_kfd() {
  if (fail_open) return -ENOENT;
  ++open_fds;
  return kKfdFd;
}

int FakeKfd::open_render(uint32_t minor) {
  if (minor != kRenderMinor) return -ENOENT;
  ++open_fds;
  return kRenderFd;
}

int FakeKfd::close(int fd) {
  if (fd != kKfdFd && fd != kRenderFd) return -EBADF;
  --open_fds;
  return 0;
}

int FakeKfd::ioctl(int fd, unsigned long request, void* arg) {
  const unsigned nr = _IOC_NR(request);
  if (fd == kRenderFd) {  // amdgpu's DRM ioctls (libhsakmt's marketing-name query): not scripted
    render_ioctl_log.push_back(nr);
    return -EINVAL;
  }
  ioctl_log.push_back(nr);
  if (fd != kKfdFd) return -EBADF;
  if (const auto it = fail_ioctl.find(nr); it != fail_ioctl.end()) return it->second;
  switch (request) {
    case AMDKFD_IOC_GET_VERSION: {
      auto* a = static_cast<kfd_ioctl_get_version_args*>(arg);
      a->major_version = major_version;
      a->minor_version = KFD_IOCTL_MINOR_VERSION;
      return 0;
    }
    case AMDKFD_IOC_GET_PROCESS_APERTURES_NEW: {
      auto* a = static_cast<kfd_ioctl_get_process_apertures_new_args*>(arg);
      if (a->num_of_nodes < 1) return -EINVAL;
      auto* ap = reinterpret_cast<kfd_process_device_apertures*>(a->kfd_process_device_apertures_ptr);
      *ap = {};
      ap->gpu_id = kGpuId;
      ap->lds_base = uint64_t{1} << 61;
      ap->lds_limit = ap->lds_base + 0xffffffff;
      ap->scratch_base = uint64_t{2} << 61;
      ap->scratch_limit = ap->scratch_base + 0xffffffff;
      ap->gpuvm_base = 0x1000000;
      ap->gpuvm_limit = (uint64_t{1} << 47) - 1;
      a->num_of_nodes = 1;
      return 0;
    }
    case AMDKFD_IOC_ALLOC_MEMORY_OF_GPU: {
      auto* a = static_cast<kfd_ioctl_alloc_memory_of_gpu_args*>(arg);
      if (a->gpu_id != kGpuId || a->size == 0) return -EINVAL;
      allocs.push_back(*a);
      a->handle = (uint64_t{kGpuId} << 32) | next_handle_++;
      if (!(a->flags & KFD_IOC_ALLOC_MEM_FLAGS_USERPTR)) a->mmap_offset = a->handle << 12;
      live_handles.insert(a->handle);
      return 0;
    }
    case AMDKFD_IOC_FREE_MEMORY_OF_GPU: {
      auto* a = static_cast<kfd_ioctl_free_memory_of_gpu_args*>(arg);
      if (!live_handles.erase(a->handle)) return -EINVAL;
      mapped_handles.erase(a->handle);
      return 0;
    }
    case AMDKFD_IOC_MAP_MEMORY_TO_GPU: {
      auto* a = static_cast<kfd_ioctl_map_memory_to_gpu_args*>(arg);
      if (!live_handles.count(a->handle) || a->n_devices == 0) return -EINVAL;
      mapped_handles.insert(a->handle);
      a->n_success = a->n_devices;
      return 0;
    }
    case AMDKFD_IOC_UNMAP_MEMORY_FROM_GPU: {
      auto* a = static_cast<kfd_ioctl_unmap_memory_from_gpu_args*>(arg);
      if (!mapped_handles.erase(a->handle)) return -EINVAL;
      a->n_success = a->n_devices;
      return 0;
    }
    case AMDKFD_IOC_CREATE_QUEUE: {
      auto* a = static_cast<kfd_ioctl_create_queue_args*>(arg);
      if (a->gpu_id != kGpuId) return -EINVAL;
      a->queue_id = next_queue_++;
      a->doorbell_offset = kDoorbellBase | (uint64_t{kGpuId} << 46) | (a->queue_id * 8);
      live_queues.insert(a->queue_id);
      return 0;
    }
    case AMDKFD_IOC_DESTROY_QUEUE:
      return live_queues.erase(static_cast<kfd_ioctl_destroy_queue_args*>(arg)->queue_id) ? 0 : -EINVAL;
    case AMDKFD_IOC_CREATE_EVENT: {
      auto* a = static_cast<kfd_ioctl_create_event_args*>(arg);
      created_events.push_back(*a);
      a->event_id = next_event_++;
      a->event_slot_index = a->event_id;
      a->event_trigger_data = a->event_id;
      live_events.insert(a->event_id);
      return 0;
    }
    case AMDKFD_IOC_DESTROY_EVENT:
      return live_events.erase(static_cast<kfd_ioctl_destroy_event_args*>(arg)->event_id) ? 0 : -EINVAL;
    case AMDKFD_IOC_SET_EVENT:
      return live_events.count(static_cast<kfd_ioctl_set_event_args*>(arg)->event_id) ? 0 : -EINVAL;
    case AMDKFD_IOC_WAIT_EVENTS: {
      auto* a = static_cast<kfd_ioctl_wait_events_args*>(arg);
      a->wait_result = KFD_IOC_WAIT_RESULT_TIMEOUT;
      return 0;
    }
    case AMDKFD_IOC_ACQUIRE_VM:
    case AMDKFD_IOC_SET_MEMORY_POLICY:
      return 0;
    default:
      return -ENOTTY;
  }
}

Expected<void*, int> FakeKfd::mmap(void* addr, size_t length, int prot, int flags, int fd, off_t offset) {
  mmaps.push_back({addr, length, prot, flags, fd, static_cast<uint64_t>(offset)});
  if (fd != kKfdFd && fd != kRenderFd) return unexpected(-EBADF);
  // Device memory stands in as anonymous memory at the requested place.
  void* p = ::mmap(addr, length, prot, (flags & MAP_FIXED) | MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (p == MAP_FAILED) return unexpected(-errno);
  return p;
}

int FakeKfd::munmap(void* addr, size_t length) { return ::munmap(addr, length) == 0 ? 0 : -errno; }

std::optional<std::string> FakeKfd::read_file(std::string_view path) {
  if (path == std::string(kRoot) + "/generation_id" && generation_reads < generation_sequence.size())
    return generation_sequence[generation_reads++];
  const auto it = files.find(std::string(path));
  if (it == files.end()) return std::nullopt;
  return it->second;
}

std::optional<std::vector<std::string>> FakeKfd::list_dir(std::string_view path) {
  if (path != std::string(kRoot) + "/nodes") return std::nullopt;
  std::set<std::string> names;
  const std::string prefix = std::string(path) + "/";
  for (const auto& [p, text] : files)
    if (p.rfind(prefix, 0) == 0) names.insert(p.substr(prefix.size(), p.find('/', prefix.size()) - prefix.size()));
  return std::vector<std::string>(names.begin(), names.end());
}

}  // namespace rocref::thunk::testing
