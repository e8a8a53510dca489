// kfd/device_state.h - the driver model's state: descriptors, processes, memory pools, scheduler.
//
// One lock (mu) guards everything the ioctl handlers touch; WAIT_EVENTS sleeps
// on event_cv under it. Lock order: mu -> HwScheduler's lock -> GpuVm's lock.
// Engines never take mu: they post to the IH ring, drained by drain_interrupts().
#pragma once

#include <condition_variable>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <vector>

#include "gpu/engine_scheduler.h"
#include "kfd/host_arena.h"
#include "kfd/hw_scheduler.h"
#include "kfd/interrupt_ring.h"
#include "kfd/kfd_process.h"
#include "kfd/mem_limit.h"
#include "kfd/topology.h"

namespace rocref::kfd {

struct FdEntry {
  enum class Kind : uint8_t { Kfd, Render } kind = Kind::Kfd;
  uint32_t minor = 0;
  int bound_kfd = -1;  // render node: the /dev/kfd descriptor whose ACQUIRE_VM took its VM
};

struct CpuMapping {
  size_t length = 0;
  // KFD-DB-3: the doorbell page is handed out at the driver's own address (not a second
  // mapping), so the engines and the producers use one address for the doorbell; the
  // page then outlives the process until the last munmap.
  std::shared_ptr<HostArena> shared_page;
  int refs = 1;
};

// One GPU of the machine (amdgpu_device's share of the model): its memory, MMIO page, VRAM
// budget and hardware queues. Each runs its own engines (KFD-TOPO-8).
struct GpuState {
  explicit GpuState(const GpuDescription& g);
  HostArena vram;
  HostArena mmio;        // the HDP flush page behind MMIO_REMAP
  MemLimit vram_limit;   // KFD-MEM-11: this device's VRAM budget (its vram part only)
  HwScheduler hws;       // compute queues: pipes x slots, max_proc_per_quantum processes at once
  HwScheduler sdma_hws;  // SDMA queues: engines x queues per engine, scheduled apart from compute
};

struct DeviceState {
  // gpu_count GPU nodes (1 to kMaxGpus).
  explicit DeviceState(uint32_t gpu_count = 1);
  ~DeviceState();

  Topology topology;
  std::vector<std::unique_ptr<GpuState>> gpus;  // by index: node 1 + index
  HostArena gtt;
  MemLimit mem_limit;  // KFD-MEM-11: system and TTM budgets (guarded by mu); VRAM per GpuState
  InterruptRing ih;
  std::vector<IhEntry> ih_batch;  // drain_interrupts_locked's list, kept for its buffer
  gpu::EngineScheduler engines;   // runs each GPU's hws and sdma_hws run_slice() as engines on its thread
  std::once_flag engines_started;

  std::mutex mu;
  std::condition_variable event_cv;
  std::map<int, FdEntry> fds;
  std::map<int, std::unique_ptr<Process>> processes;  // by /dev/kfd descriptor
  std::map<uintptr_t, CpuMapping> cpu_mappings;      // model mmaps, for munmap / owns_mapping
  int next_fd = 0;
  uint32_t next_pasid = 0x8000;
  uint64_t next_bo_offset = uint64_t{1} << 32;      // DRM fake offsets for render-node mmaps
  // KFD-IPC-1: amdkfd's kfd_ipc_handles: every exported buffer of the device, by share handle.
  std::map<ShareHandle, std::shared_ptr<IpcObject>> ipc_handles;

  uint32_t gpu_id(uint32_t index = 0) const noexcept { return topology.gpu(index).gpu_id; }
  // The index of the GPU with this gpu_id, or -1 (kfd_device_by_id returning NULL).
  int gpu_index(uint32_t gpu_id) const noexcept {
    const auto i = topology.gpu_index(gpu_id);
    return i ? static_cast<int>(*i) : -1;
  }
  // KFD-MEM-11: charges system and TTM globally and VRAM to the owning GPU; all or nothing.
  int reserve_locked(uint32_t gpu, const MemCharge& c);
  void unreserve_locked(uint32_t gpu, const MemCharge& c);
  Process* process_by_pasid(uint32_t pasid);
  uint32_t allocate_vmid() const;

  // Starts the engine thread; called without mu (the engine's round takes mu to drain interrupts).
  void start_engines();

  // Handlers run with mu held.
  void drain_interrupts();  // takes mu
  void drain_interrupts_locked();
  void signal_event_locked(Process& p, Event& ev);
  void destroy_event_locked(Process& p, uint32_t id);
  void destroy_queue_locked(Process& p, uint32_t id);
  // KFD-HWS-6: amdkfd's evict_process_queues / restore_process_queues. Eviction counts; the
  // first unmaps every queue of the process (state saved in its MQD) before it returns; only
  // the restore that brings the count back to 0 lets them run again. Restore of a process that
  // is not evicted: -EINVAL (amdkfd's WARN), nothing changes.
  void evict_process_queues_locked(Process& p);
  int restore_process_queues_locked(Process& p);
  void release_process_locked(Process& p);
  // Gives a buffer's memory back (pool range, KFD-MEM-11 charge); the caller drops the object.
  void release_bo_memory_locked(const BufferObject& bo);
  // KFD-IPC-4: true when the buffer's pages belong to an IPC object (released with its last buffer).
  bool release_ipc_reference_locked(const BufferObject& bo);
  // Waits until no time slice runs: no engine holds a pointer translated before this call.
  void quiesce_engines();
};

// ioctl handlers: kfd_ioctl_<verb>_<noun>, as amdkfd names them. Called with mu held and
// the argument struct already copied in; the dispatcher copies it back out.
struct IoctlCall {
  DeviceState& dev;
  Process& p;
  void* args;
  std::unique_lock<std::mutex>& lock;  // held; WAIT_EVENTS sleeps on it
  size_t size = 0;  // bytes at args: the larger of the caller's and the table's size (AMDKFD_IOC_SVM's attrs)
};
using IoctlHandler = int (*)(IoctlCall&);

int kfd_ioctl_get_version(IoctlCall&);
int kfd_ioctl_create_queue(IoctlCall&);
int kfd_ioctl_destroy_queue(IoctlCall&);
int kfd_ioctl_set_memory_policy(IoctlCall&);
int kfd_ioctl_get_clock_counters(IoctlCall&);
int kfd_ioctl_get_process_apertures(IoctlCall&);
int kfd_ioctl_update_queue(IoctlCall&);
int kfd_ioctl_create_event(IoctlCall&);
int kfd_ioctl_destroy_event(IoctlCall&);
int kfd_ioctl_set_event(IoctlCall&);
int kfd_ioctl_reset_event(IoctlCall&);
int kfd_ioctl_wait_events(IoctlCall&);
int kfd_ioctl_dbg_deprecated(IoctlCall&);
int kfd_ioctl_set_scratch_backing_va(IoctlCall&);
int kfd_ioctl_get_tile_config(IoctlCall&);
int kfd_ioctl_set_trap_handler(IoctlCall&);
int kfd_ioctl_get_process_apertures_new(IoctlCall&);
int kfd_ioctl_acquire_vm(IoctlCall&);
int kfd_ioctl_alloc_memory_of_gpu(IoctlCall&);
int kfd_ioctl_free_memory_of_gpu(IoctlCall&);
int kfd_ioctl_map_memory_to_gpu(IoctlCall&);
int kfd_ioctl_unmap_memory_from_gpu(IoctlCall&);
int kfd_ioctl_set_cu_mask(IoctlCall&);
int kfd_ioctl_get_queue_wave_state(IoctlCall&);
int kfd_ioctl_get_dmabuf_info(IoctlCall&);
int kfd_ioctl_import_dmabuf(IoctlCall&);
int kfd_ioctl_alloc_queue_gws(IoctlCall&);
int kfd_ioctl_smi_events(IoctlCall&);
int kfd_ioctl_svm(IoctlCall&);
int kfd_ioctl_set_xnack_mode(IoctlCall&);
int kfd_ioctl_criu_op(IoctlCall&);
int kfd_ioctl_get_available_memory(IoctlCall&);
int kfd_ioctl_ipc_import_handle(IoctlCall&);  // libhsakmt 5.2.3's out-of-tree 0x80 (kfd_ipc.cpp)
int kfd_ioctl_ipc_export_handle(IoctlCall&);  // 0x81

// The dispatcher of kfd_chardev.c: number check, copy in, handler, copy out.
// Called with dev.mu held through `lock`.
int kfd_dispatch_ioctl(DeviceState& dev, Process& p, unsigned long request, void* arg,
                       std::unique_lock<std::mutex>& lock);

}  // namespace rocref::kfd
