// kfd/kfd_ipc.cpp - AMDKFD_IOC_IPC_EXPORT_HANDLE / IPC_IMPORT_HANDLE, as amdkfd's kfd_ipc.c.
//
// libhsakmt 5.2.3's hsaKmtShareMemory and hsaKmtRegisterSharedHandle(ToNodes) issue them
// (ROCm's out-of-tree numbers 0x80/0x81, common/kfd_ipc_abi.h). Export files the buffer's pages
// under a random 128-bit handle in the device-wide table; import, from any process of the
// device, makes a new buffer of that process over the same memfd pages (the same arena offset),
// at the VA it asks for. Nothing is mapped: the importer maps it like any buffer.
#include <sys/random.h>

#include <cerrno>
#include <cstring>

#include "common/kfd_ipc_abi.h"
#include "common/trace_checks.h"
#include "kfd/device_state.h"
#include "kfd/kfd_mutant.h"

namespace rocref::kfd {
namespace {

using kfd_abi::kfd_ioctl_ipc_export_handle_args;
using kfd_abi::kfd_ioctl_ipc_import_handle_args;

constexpr uint64_t kPage = 4096;
constexpr uint64_t kGpuvmLimit = uint64_t{1} << 47;

// kfd_process_device_data_by_id, then kfd_bind_process_to_device: the GPU index, or the error.
int bound_gpu(const DeviceState& d, const Process& p, uint32_t gpu_id, uint32_t* gpu) {
  const int g = d.gpu_index(gpu_id);
  if (g < 0) return -EINVAL;
  if (p.pdd[g].drm_fd < 0) return -ENODEV;  // no VM acquired on that device
  *gpu = static_cast<uint32_t>(g);
  return 0;
}

// get_random_bytes: a handle nobody can guess; redrawn in the (astronomically rare) case it is
// already filed.
ShareHandle new_share_handle(const DeviceState& d) {
  ShareHandle h{};
  do {
    size_t got = 0;
    while (got < sizeof(h)) {
      const ssize_t n = ::getrandom(reinterpret_cast<char*>(h.data()) + got, sizeof(h) - got, 0);
      if (n > 0) got += static_cast<size_t>(n);
    }
  } while (d.ipc_handles.count(h) != 0);
  return h;
}

}  // namespace

// KFD-IPC-1
int kfd_ioctl_ipc_export_handle(IoctlCall& c) {
  auto* args = static_cast<kfd_ioctl_ipc_export_handle_args*>(c.args);
  DeviceState& d = c.dev;
  Process& p = c.p;
  ROCREF_CHECKED("KFD-IPC-1");
  uint32_t gpu = 0;
  if (const int err = bound_gpu(d, p, args->gpu_id, &gpu)) return err;
  auto it = p.bos.find(handle_idr(args->handle));
  // kfd_process_device_find_bo on this device's handles only.
  if (it == p.bos.end() || it->second.gpu != gpu || handle_gpu_id(args->handle) != args->gpu_id) return -EINVAL;
  BufferObject& bo = it->second;
  if (bo.ipc) {  // exported before, or itself an import: the one handle of these pages
    std::memcpy(args->share_handle, bo.ipc->share_handle.data(), sizeof(args->share_handle));
    return 0;
  }
  // amdgpu_gem_prime_export refuses userptr BOs; doorbell and MMIO pages are no GEM memory.
  if (bo.kind == BoKind::Userptr) return -EPERM;
  if (bo.kind != BoKind::Vram && bo.kind != BoKind::Gtt) return -EINVAL;
  auto obj = std::make_shared<IpcObject>();
  obj->share_handle = new_share_handle(d);
  obj->kind = bo.kind;
  obj->gpu = bo.gpu;
  obj->arena_offset = bo.arena_offset;
  obj->size = bo.size;
  obj->flags = bo.flags;
  obj->user_flags = args->flags;
  obj->charge = bo.charge;  // the pages' charge moves to the object with them
  obj->refs = 1;            // the exporter's BO
  bo.charge = MemCharge{};
  bo.ipc = obj;
  d.ipc_handles.emplace(obj->share_handle, obj);
  std::memcpy(args->share_handle, obj->share_handle.data(), sizeof(args->share_handle));
  return 0;
}

// KFD-IPC-2, KFD-IPC-3
int kfd_ioctl_ipc_import_handle(IoctlCall& c) {
  auto* args = static_cast<kfd_ioctl_ipc_import_handle_args*>(c.args);
  DeviceState& d = c.dev;
  Process& p = c.p;
  ROCREF_CHECKED("KFD-IPC-2");
  uint32_t gpu = 0;
  if (const int err = bound_gpu(d, p, args->gpu_id, &gpu)) return err;
  ShareHandle key{};
  std::memcpy(key.data(), args->share_handle, sizeof(key));
  if (kfd_mutant_active(KfdMutant::ShareHandleHalfCompared)) {
    // Planted bug: only the first 64 bits of the handle are compared (amdkfd compares all 128).
    for (auto& [h, o] : d.ipc_handles)
      if (h[0] == key[0] && h[1] == key[1]) key = h;
  }
  const auto found = d.ipc_handles.find(key);
  if (found == d.ipc_handles.end()) return -EINVAL;  // never made, or every buffer over it freed
  const std::shared_ptr<IpcObject> obj = found->second;
  // amdgpu_amdkfd_gpuvm_import_dmabuf: "Can't handle buffers from other devices".
  if (obj->gpu != gpu) return -EINVAL;
  if ((args->va_addr & (kPage - 1)) != 0 || args->va_addr >= kGpuvmLimit || obj->size > kGpuvmLimit - args->va_addr)
    return -EINVAL;

  BufferObject bo;
  bo.gpu = gpu;
  bo.flags = obj->flags;
  bo.kind = obj->kind;
  bo.va = args->va_addr;
  bo.size = obj->size;
  bo.arena_offset = obj->arena_offset;
  HostArena& pool = bo.kind == BoKind::Vram ? d.gpus[gpu]->vram : d.gtt;
  bo.host = pool.at(bo.arena_offset);  // the exporter's pages, not a copy
  bo.mmap_offset = d.next_bo_offset;   // the importer's own GEM object: its own render-node offset
  d.next_bo_offset += bo.size;
  bo.ipc = obj;
  ++obj->refs;
  bo.idr = p.next_idr++;
  args->handle = make_handle(args->gpu_id, bo.idr);
  args->mmap_offset = bo.mmap_offset;
  args->flags = obj->user_flags;
  p.bos.emplace(bo.idr, bo);
  return 0;
}

// KFD-IPC-4: a buffer over exported pages drops its reference; the last one gives the pages,
// their charge and the share handle back (ipc_obj_release).
bool DeviceState::release_ipc_reference_locked(const BufferObject& bo) {
  if (!bo.ipc) return false;
  IpcObject& obj = *bo.ipc;
  if (--obj.refs != 0 && !kfd_mutant_active(KfdMutant::IpcPagesFreedWithExporter)) return true;
  // Planted bug (IpcPagesFreedWithExporter): the first free returns the pages while importers
  // still use them; later frees of the same object must not release them twice.
  if (obj.size == 0) return true;
  HostArena& pool = obj.kind == BoKind::Vram ? gpus[obj.gpu]->vram : gtt;
  pool.release(obj.arena_offset, obj.size);
  unreserve_locked(obj.gpu, obj.charge);
  obj.size = 0;
  ipc_handles.erase(obj.share_handle);
  return true;
}

}  // namespace rocref::kfd
