// kfd/kfd_device.h - the KFD driver model's entry points: what /dev/kfd,
// /dev/dri/renderD<minor> and the sysfs topology tree are to user space.
//
// Each open() is a new process context (its own PASID, VMID, GPU VM, doorbell
// page, events and queues), as each open of the real device is. ioctl() takes
// the real request numbers and argument structs of linux/kfd_ioctl.h and
// returns 0 or a negative errno, exactly what amdkfd returns. The thunk's
// in-process transport and the LD_PRELOAD interposer both call these.
#pragma once

#include <sys/types.h>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/expected.h"

namespace rocref::kfd {

class HostArena;
class RemoteKfd;

class KfdDevice {
 public:
  // The modeled machine of this process: one CPU node and configured_gpu_count() gfx9 GPU nodes,
  // or, with ROCREF_KFD_SOCKET set, the shared machine of the daemon listening there (KFD-MP-1):
  // every call then goes to that daemon, and this process holds none of the driver's state.
  static KfdDevice& instance();
  // The socket instance() connects to: ROCREF_KFD_SOCKET, or empty for the in-process model.
  static std::string shared_socket();
  // ROCREF_GPUS (1 to 8; unset or invalid: 1), the machine's GPU count (KFD-TOPO-8).
  static uint32_t configured_gpu_count();
  // A machine of its own with gpu_count GPU nodes (tests); instance() is the process's.
  explicit KfdDevice(uint32_t gpu_count);
  ~KfdDevice();
  KfdDevice(const KfdDevice&) = delete;
  KfdDevice& operator=(const KfdDevice&) = delete;
  uint32_t gpu_count() const;

  // /dev/kfd. Returns a descriptor (>= kFirstFd) or -errno.
  int open_kfd();
  // KFD-PROC-4: the fork handler: the child starts with no KFD processes and engines of its own.
  void reset_after_fork();
  // /dev/dri/renderD<minor>. Returns a descriptor or -errno (-ENOENT for an unknown minor).
  int open_render(uint32_t minor);
  int close(int fd);                                      // 0 or -EBADF
  int ioctl(int fd, unsigned long request, void* arg);    // 0 or -errno
  // mmap of a doorbell page, MMIO page or buffer object: the address, or -errno.
  Expected<void*, int> mmap(void* addr, size_t length, int prot, int flags, int fd, off_t offset);
  int munmap(void* addr, size_t length);                  // 0 or -EINVAL if not a model mapping
  // What mmap of (fd, offset) maps: a memfd and its offset, or (KFD-DB-3, an unplaced doorbell
  // map) the driver's own page `view` of memfd `fd`. `placed`: an address or MAP_FIXED was given.
  // The daemon hands fd to the process, which maps it itself (KFD-MP-1).
  struct MmapSource {
    int fd = -1;
    uint64_t offset = 0;
    bool driver_view = false;
    void* view = nullptr;
    std::shared_ptr<HostArena> view_owner;
  };
  Expected<MmapSource, int> mmap_source(int fd, size_t length, bool placed, off_t offset);
  bool owns_fd(int fd) const;
  // The render minor a descriptor opened, or nullopt (a /dev/kfd descriptor, or none).
  std::optional<uint32_t> render_minor(int fd) const;
  bool owns_mapping(const void* addr) const;
  // The GPUVM page-table entry an open process holds for va (0 when none maps it): what a
  // debugger reads of the page tables (umr), for checks of the PTE bits (GPU-GRAIN-1's MTYPE).
  uint64_t gpuvm_pte(uint64_t va) const;
  // The same in the VMs of GPU `gpu` (index, node gpu + 1) only: which GPUs a buffer is mapped into.
  uint64_t gpuvm_pte(uint64_t va, uint32_t gpu) const;
  // KFD-HWS-6: what amdgpu's memory manager does to a process whose memory it evicts
  // (kgd2kfd_quiesce_mm, then kgd2kfd_resume_mm once the memory is valid again): every queue
  // of the /dev/kfd descriptor's process is evicted, then restored. 0, -EBADF (no such
  // process) or -EINVAL (restore of a process that is not evicted).
  int evict_process_queues(int fd);
  int restore_process_queues(int fd);

  // Topology: file contents under /sys/devices/virtual/kfd/kfd/topology (and /sys/class/kfd), and
  // the modelled CPU's /proc/cpuinfo, /sys/devices/system/cpu and /sys/devices/system/node.
  std::optional<std::string> read_sysfs(std::string_view path) const;
  std::optional<std::vector<std::string>> list_sysfs(std::string_view dir) const;
  std::optional<std::string> link_sysfs(std::string_view path) const;  // a symlink's relative target

  static constexpr int kFirstFd = 1 << 20;  // model descriptors never collide with real ones

 private:
  explicit KfdDevice(RemoteKfd* remote);
  Expected<MmapSource, int> mmap_source_locked(int fd, size_t length, bool placed, off_t offset);
  struct Impl;
  Impl* impl_ = nullptr;
  RemoteKfd* remote_ = nullptr;  // the shared model's client (kfd/kfd_client.h), or null
};

}  // namespace rocref::kfd
