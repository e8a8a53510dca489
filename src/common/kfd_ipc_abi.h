// common/kfd_ipc_abi.h - the IPC ioctls libhsakmt 5.2.3 adds to its own copy of kfd_ioctl.h.
//
// linux-libc-dev's linux/kfd_ioctl.h (upstream 1.11) lacks them: they are ROCm's out-of-tree
// numbers 0x80/0x81 (ROCT-Thunk-Interface rocm-5.2.3 include/linux/kfd_ioctl.h, served by
// amdkfd's kfd_ipc.c in ROCK-Kernel-Driver). Layouts written from that header's field list:
// a 128-bit share handle the driver makes at export and looks up at import.
#pragma once

#include <linux/ioctl.h>

#include <cstddef>
#include <cstdint>

namespace rocref::kfd_abi {

struct kfd_ioctl_ipc_export_handle_args {
  uint64_t handle;           // to KFD: the buffer's handle (gpu_id << 32 | idr)
  uint32_t share_handle[4];  // from KFD
  uint32_t gpu_id;           // to KFD
  uint32_t flags;            // to KFD: libhsakmt passes its HsaMemFlags word, kept with the export
};

struct kfd_ioctl_ipc_import_handle_args {
  uint64_t handle;           // from KFD: the importer's new buffer
  uint64_t va_addr;          // to KFD: where the importer wants it in its GPUVM
  uint64_t mmap_offset;      // from KFD: the render-node offset that maps the buffer for the CPU
  uint32_t share_handle[4];  // to KFD
  uint32_t gpu_id;           // to KFD: the device the buffer lives on
  uint32_t flags;            // from KFD: the exporter's flags word
};

static_assert(sizeof(kfd_ioctl_ipc_export_handle_args) == 32, "IPC_EXPORT_HANDLE layout");
static_assert(offsetof(kfd_ioctl_ipc_export_handle_args, gpu_id) == 24, "IPC_EXPORT_HANDLE layout");
static_assert(sizeof(kfd_ioctl_ipc_import_handle_args) == 48, "IPC_IMPORT_HANDLE layout");
static_assert(offsetof(kfd_ioctl_ipc_import_handle_args, share_handle) == 24, "IPC_IMPORT_HANDLE layout");
static_assert(offsetof(kfd_ioctl_ipc_import_handle_args, flags) == 44, "IPC_IMPORT_HANDLE layout");

inline constexpr unsigned long kIocIpcImportHandle = _IOWR('K', 0x80, kfd_ioctl_ipc_import_handle_args);
inline constexpr unsigned long kIocIpcExportHandle = _IOWR('K', 0x81, kfd_ioctl_ipc_export_handle_args);
inline constexpr unsigned kCommandStart2 = 0x80;  // AMDKFD_COMMAND_START_2
inline constexpr unsigned kCommandEnd2 = 0x85;    // AMDKFD_COMMAND_END_2

}  // namespace rocref::kfd_abi
