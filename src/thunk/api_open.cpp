// thunk/api_open.cpp - hsaKmtOpenKFD / hsaKmtCloseKFD / hsaKmtGetVersion: the process context.
#include "thunk/hsakmt_api.h"  // first: exports the hsaKmt* declarations
#include <linux/kfd_ioctl.h>

#include <vector>

#include "thunk/api_guard.h"
#include "thunk/memory.h"
#include "thunk/process.h"
#include "common/trace.h"

namespace rocref::thunk {
namespace {

int kfd_ioctl(Process& p, unsigned long request, void* args) { return p.transport->ioctl(p.kfd_fd, request, args); }

void teardown_locked(Process& p) {
  for (auto& [id, q] : p.queues) {
    kfd_ioctl_destroy_queue_args args{};
    args.queue_id = q->queue_id;
    kfd_ioctl(p, AMDKFD_IOC_DESTROY_QUEUE, &args);
  }
  p.queues.clear();
  for (HsaEvent* e : p.events) {
    kfd_ioctl_destroy_event_args args{};
    args.event_id = e->EventId;
    kfd_ioctl(p, AMDKFD_IOC_DESTROY_EVENT, &args);
    delete e;
  }
  p.events.clear();
  for (auto& [node, g] : p.gpus) free_scratch_locked(p, g);
  std::vector<uintptr_t> addresses;
  for (const auto& [addr, a] : p.allocations) addresses.push_back(addr);
  for (uintptr_t addr : addresses) {
    auto it = p.allocations.find(addr);
    if (it == p.allocations.end()) continue;
    it->second.registrations = 1;
    unmap_locked(p, it->second);
    if (free_locked(p, it->second) != HSAKMT_STATUS_SUCCESS) forget_locked(p, it->second);
  }
  for (auto& [node, g] : p.gpus)
    if (g.render_fd >= 0) p.transport->close(g.render_fd);
  if (p.kfd_fd >= 0) p.transport->close(p.kfd_fd);  // the driver drops what is left with the process
  p.gpus.clear();
  p.all_gpu_ids.clear();
  p.allocations.clear();
  p.events_page = nullptr;
  p.kfd_fd = -1;
  p.topology = Topology{};
  p.snapshot_acquired = false;
  p.transport = nullptr;
}

// fmm_init_process_apertures: apertures, render nodes, ACQUIRE_VM, memory policy, MMIO page.
HSAKMT_STATUS init_gpus_locked(Process& p) {
  std::vector<kfd_process_device_apertures> apertures;
  for (uint32_t n = 0; n < p.topology.nodes.size(); ++n)
    if (p.topology.nodes[n].gpu_id != 0) {
      GpuNode g;
      g.node_id = n;
      g.gpu_id = p.topology.nodes[n].gpu_id;
      p.gpus.emplace(n, g);
      p.all_gpu_ids.push_back(g.gpu_id);
    }
  if (p.gpus.empty()) return HSAKMT_STATUS_SUCCESS;
  apertures.resize(p.gpus.size());
  kfd_ioctl_get_process_apertures_new_args args{};
  args.kfd_process_device_apertures_ptr = reinterpret_cast<uintptr_t>(apertures.data());
  args.num_of_nodes = static_cast<uint32_t>(apertures.size());
  if (kfd_ioctl(p, AMDKFD_IOC_GET_PROCESS_APERTURES_NEW, &args) != 0) return HSAKMT_STATUS_ERROR;
  for (uint32_t i = 0; i < args.num_of_nodes && i < apertures.size(); ++i) {
    const auto node = p.node_of_gpu_id(apertures[i].gpu_id);
    if (node) p.gpus[*node].apertures = apertures[i];
  }
  for (auto& [node, g] : p.gpus) {
    // MEM-VA-1: only mmap-based apertures (GPU VA == CPU VA) are supported.
    if (g.apertures.gpu_id != g.gpu_id || g.apertures.gpuvm_limit < kMmapApertureMinLimit)
      return HSAKMT_STATUS_ERROR;
    const int fd = p.transport->open_render(static_cast<uint32_t>(p.topology.nodes[node].props.DrmRenderMinor));
    if (fd < 0) return HSAKMT_STATUS_ERROR;
    g.render_fd = fd;
    kfd_ioctl_acquire_vm_args vm{};
    vm.drm_fd = static_cast<uint32_t>(fd);
    vm.gpu_id = g.gpu_id;
    if (kfd_ioctl(p, AMDKFD_IOC_ACQUIRE_VM, &vm) != 0) return HSAKMT_STATUS_ERROR;
    kfd_ioctl_set_memory_policy_args policy{};
    policy.gpu_id = g.gpu_id;
    policy.default_policy = KFD_IOC_CACHE_POLICY_NONCOHERENT;
    policy.alternate_policy = KFD_IOC_CACHE_POLICY_COHERENT;
    policy.alternate_aperture_base = g.apertures.gpuvm_base;
    policy.alternate_aperture_size = g.apertures.gpuvm_limit - g.apertures.gpuvm_base + 1;
    if (kfd_ioctl(p, AMDKFD_IOC_SET_MEMORY_POLICY, &policy) != 0) return HSAKMT_STATUS_ERROR;
  }
  for (auto& [node, g] : p.gpus) map_mmio_page_locked(p, g);  // optional in libhsakmt too
  return HSAKMT_STATUS_SUCCESS;
}

}  // namespace
}  // namespace rocref::thunk

using rocref::thunk::Process;

extern "C" {

HSAKMT_STATUS HSAKMTAPI hsaKmtOpenKFD(void) {
  ROCREF_TRACE_SPAN(rocref::trace::Layer::Thunk, "hsaKmtOpenKFD", "");
  Process& p = rocref::thunk::process();
  std::lock_guard<std::mutex> lock(p.mutex);
  if (p.open_count > 0) {  // OPEN-1: refcounted; later opens share the process
    ++p.open_count;
    return HSAKMT_STATUS_KERNEL_ALREADY_OPENED;
  }
  p.transport = &rocref::thunk::active_transport();
  p.kfd_fd = p.transport->open_kfd();
  if (p.kfd_fd < 0) {
    p.kfd_fd = -1;
    p.transport = nullptr;
    return HSAKMT_STATUS_KERNEL_IO_CHANNEL_NOT_OPENED;
  }
  kfd_ioctl_get_version_args version{};
  HSAKMT_STATUS st = HSAKMT_STATUS_SUCCESS;
  if (rocref::thunk::kfd_ioctl(p, AMDKFD_IOC_GET_VERSION, &version) != 0)
    st = HSAKMT_STATUS_ERROR;
  else if (version.major_version != KFD_IOCTL_MAJOR_VERSION)  // OPEN-2
    st = HSAKMT_STATUS_DRIVER_MISMATCH;
  if (st == HSAKMT_STATUS_SUCCESS) st = rocref::thunk::read_topology(*p.transport, &p.topology);
  if (st == HSAKMT_STATUS_SUCCESS) st = rocref::thunk::init_gpus_locked(p);
  if (st != HSAKMT_STATUS_SUCCESS) {
    rocref::thunk::teardown_locked(p);
    return st;
  }
  p.version.KernelInterfaceMajorVersion = version.major_version;
  p.version.KernelInterfaceMinorVersion = version.minor_version;
  p.open_count = 1;
  return HSAKMT_STATUS_SUCCESS;
}

HSAKMT_STATUS HSAKMTAPI hsaKmtCloseKFD(void) {
  ROCREF_THUNK_LOCK_OPEN(p);
  if (--p.open_count == 0) rocref::thunk::teardown_locked(p);
  return HSAKMT_STATUS_SUCCESS;
}

HSAKMT_STATUS HSAKMTAPI hsaKmtGetVersion(HsaVersionInfo* VersionInfo) {
  ROCREF_THUNK_LOCK_OPEN(p);
  if (!VersionInfo) return HSAKMT_STATUS_INVALID_PARAMETER;
  *VersionInfo = p.version;
  return HSAKMT_STATUS_SUCCESS;
}

}  // extern "C"
