// tests/conformance/kfd/ipc_abi.h - IPC_IMPORT_HANDLE (0x80) and IPC_EXPORT_HANDLE (0x81) by the raw ABI.
//
// ROCm's out-of-tree ioctls, as libhsakmt 5.2.3 issues them; the layouts are spelled out from
// ROCT-Thunk-Interface rocm-5.2.3 include/linux/kfd_ioctl.h (linux-libc-dev's header lacks them).
#pragma once

#include "kfd_fixture.h"

namespace kfdconf {

struct IpcExportArgs {
  uint64_t handle;
  uint32_t share_handle[4];
  uint32_t gpu_id;
  uint32_t flags;
};
struct IpcImportArgs {
  uint64_t handle;
  uint64_t va_addr;
  uint64_t mmap_offset;
  uint32_t share_handle[4];
  uint32_t gpu_id;
  uint32_t flags;
};
static_assert(sizeof(IpcExportArgs) == 32 && sizeof(IpcImportArgs) == 48, "ROCT 5.2.3 layouts");
inline const unsigned long kImport = _IOWR('K', 0x80, IpcImportArgs);
inline const unsigned long kExport = _IOWR('K', 0x81, IpcExportArgs);

inline int export_handle(const KfdProcess& p, uint64_t handle, IpcExportArgs* out, uint32_t flags = 0x1234,
                         uint32_t gpu_id = 0) {
  *out = IpcExportArgs{};
  out->handle = handle;
  out->gpu_id = gpu_id ? gpu_id : p.gpu_id;
  out->flags = flags;
  return p.io(kExport, out);
}

inline int import_handle(const KfdProcess& p, const uint32_t (&share)[4], uint64_t va, IpcImportArgs* out,
                         uint32_t gpu_id = 0) {
  *out = IpcImportArgs{};
  out->va_addr = va;
  std::memcpy(out->share_handle, share, sizeof(out->share_handle));
  out->gpu_id = gpu_id ? gpu_id : p.gpu_id;
  return p.io(kImport, out);
}

inline void* cpu_map(const KfdProcess& p, uint64_t va, uint64_t size, uint64_t mmap_offset, int* err) {
  return kfdport::mmap(reinterpret_cast<void*>(va), size, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_FIXED, p.render,
                       static_cast<off_t>(mmap_offset), err);
}

}  // namespace kfdconf
