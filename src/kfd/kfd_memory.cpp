// kfd/kfd_memory.cpp - ALLOC/FREE_MEMORY_OF_GPU and MAP/UNMAP_MEMORY_TO/FROM_GPU.
//
// Buffer objects are VRAM-arena ranges, GTT-pool ranges, the user's own pages
// (USERPTR), the process doorbell page or the MMIO remap page. Mapping writes
// PTEs from the buffer's GPU VA to the host pages backing it (GPU VA equals
// host VA, so the CPU's render-node mapping and the GPU see the same pages).
#include <linux/kfd_ioctl.h>

#include <cerrno>
#include <vector>

#include "common/trace_checks.h"
#include "kfd/device_state.h"
#include "kfd/kfd_mutant.h"
#include "kfd/user_copy.h"

namespace rocref::kfd {
namespace {

constexpr uint64_t kPage = 4096;
constexpr uint64_t kGpuvmLimit = uint64_t{1} << 47;  // user VA: canonical lower half

// `gpu`: the GPU whose VM gets the PTEs. Another GPU's VRAM is reached through its PCIe BAR,
// so a peer mapping is a system (snooped bus) address to the mapping GPU (KFD-MEM-12).
uint64_t pte_flags_for(const BufferObject& bo, uint32_t gpu) {
  using namespace gpu::vm;
  uint64_t f = kPteReadable;
  if (bo.flags & KFD_IOC_ALLOC_MEM_FLAGS_WRITABLE) f |= kPteWriteable;
  if (bo.flags & KFD_IOC_ALLOC_MEM_FLAGS_EXECUTABLE) f |= kPteExecutable;
  if (bo.kind != BoKind::Vram || bo.gpu != gpu) f |= kPteSystem;
  // GPU-GRAIN-1: amdkfd's get_pte_flags for gfx900: COHERENT maps MTYPE_UC (not cached in the
  // L2: fine grain), anything else MTYPE_NC (cached: coarse grain).
  const bool coherent = (bo.flags & KFD_IOC_ALLOC_MEM_FLAGS_COHERENT) != 0;
  f |= coherent != kfd_mutant_active(KfdMutant::CoherentMappedNc) ? kPteMtypeUc : kPteMtypeNc;
  // The doorbell and MMIO pages are written by the CP (write-pointer polling, HDP flush).
  if (bo.kind == BoKind::Doorbell || bo.kind == BoKind::MmioRemap) f |= kPteWriteable;
  return f;
}

// A pin of another process's pages (the shared model): its view keeps the pages, whatever that
// process does with its own mapping; the daemon cannot ask that address space (README.md).
bool foreign_range_present(uint64_t, uint64_t) noexcept { return true; }

BufferObject* find_bo(DeviceState& d, Process& p, uint64_t handle) {
  const int gpu = d.gpu_index(handle_gpu_id(handle));
  if (gpu < 0) return nullptr;
  auto it = p.bos.find(handle_idr(handle));
  return it == p.bos.end() || it->second.gpu != static_cast<uint32_t>(gpu) ? nullptr : &it->second;
}

}  // namespace

// KFD-MEM-1..3
int kfd_ioctl_alloc_memory_of_gpu(IoctlCall& c) {
  auto* args = static_cast<kfd_ioctl_alloc_memory_of_gpu_args*>(c.args);
  DeviceState& d = c.dev;
  Process& p = c.p;
  ROCREF_CHECKED("KFD-MEM-2");
  if (args->size == 0) return -EINVAL;
  const int gpu = d.gpu_index(args->gpu_id);  // KFD-TOPO-8: kfd_device_by_id
  if (gpu < 0) return -EINVAL;
  if (p.pdd[gpu].drm_fd < 0) return -ENODEV;  // kfd_bind_process_to_device: no VM acquired
  if ((args->va_addr & (kPage - 1)) != 0) return -EINVAL;
  const uint64_t size = (args->size + kPage - 1) & ~(kPage - 1);
  if (size < args->size || args->va_addr >= kGpuvmLimit || size > kGpuvmLimit - args->va_addr) return -EINVAL;

  BufferObject bo;
  bo.gpu = kfd_mutant_active(KfdMutant::AllocIgnoresGpuId) ? 0 : static_cast<uint32_t>(gpu);
  bo.flags = args->flags;
  bo.va = args->va_addr;
  bo.size = size;
  const uint32_t f = args->flags;
  // amdkfd's order of precedence among the memory-type flags.
  if (f & KFD_IOC_ALLOC_MEM_FLAGS_VRAM) {
    bo.kind = BoKind::Vram;
  } else if (f & KFD_IOC_ALLOC_MEM_FLAGS_GTT) {
    bo.kind = BoKind::Gtt;
  } else if (f & KFD_IOC_ALLOC_MEM_FLAGS_USERPTR) {
    bo.kind = BoKind::Userptr;
  } else if (f & KFD_IOC_ALLOC_MEM_FLAGS_DOORBELL) {
    bo.kind = BoKind::Doorbell;
  } else if (f & KFD_IOC_ALLOC_MEM_FLAGS_MMIO_REMAP) {
    bo.kind = BoKind::MmioRemap;
  } else {
    return -EINVAL;
  }

  if (bo.kind == BoKind::Doorbell && args->size != kDoorbellProcessSlice) return -EINVAL;
  if (bo.kind == BoKind::MmioRemap && args->size != kPage) return -EINVAL;
  if (bo.kind == BoKind::Userptr && (args->mmap_offset & (kPage - 1)) != 0) return -EINVAL;
  // KFD-MEM-11: charged before anything is made (amdgpu_amdkfd_reserve_mem_limit), given back if
  // making it fails.
  bo.charge = MemLimit::charge_for(size, f);
  if (const int err = d.reserve_locked(bo.gpu, bo.charge)) return err;
  const auto fail = [&](int err) {
    d.unreserve_locked(bo.gpu, bo.charge);
    return err;
  };

  switch (bo.kind) {
    case BoKind::Vram:
    case BoKind::Gtt: {
      HostArena& pool = bo.kind == BoKind::Vram ? d.gpus[bo.gpu]->vram : d.gtt;
      const auto off = pool.allocate(size);
      if (!off) return fail(-ENOMEM);
      bo.arena_offset = *off;
      bo.host = pool.at(*off);
      bo.mmap_offset = d.next_bo_offset;
      d.next_bo_offset += size;
      break;
    }
    case BoKind::Userptr: {
      // KFD-MEM-3: the user's pages back the buffer; they must exist now (get_user_pages).
      // KFD-MEM-10: the GPU sees a pinned view of them, never the user's mapping itself.
      const uint64_t user = args->mmap_offset;
      std::unique_ptr<UserptrPin> pin;
      const bool writable = (f & KFD_IOC_ALLOC_MEM_FLAGS_WRITABLE) != 0 &&
                            !kfd_mutant_active(KfdMutant::UserptrWriteUnchecked);
      if (const int err = pin_user_pages(user, size, writable, &pin)) return fail(err);
      bo.pin = std::move(pin);
      bo.host = bo.pin->host();
      bo.mmap_offset = user;
      break;
    }
    case BoKind::Doorbell:
      bo.host = p.pdd[gpu].doorbells->at(0);
      bo.mmap_offset = kMmapTypeDoorbell | mmap_gpu_id(args->gpu_id);
      break;
    case BoKind::MmioRemap:
      bo.host = d.gpus[gpu]->mmio.at(0);
      bo.mmap_offset = kMmapTypeMmio | mmap_gpu_id(args->gpu_id);
      break;
  }
  bo.idr = p.next_idr++;
  args->handle = make_handle(args->gpu_id, bo.idr);
  args->mmap_offset = bo.mmap_offset;
  p.bos.emplace(bo.idr, bo);
  return 0;
}

// KFD-MEM-4
int kfd_ioctl_free_memory_of_gpu(IoctlCall& c) {
  auto* args = static_cast<kfd_ioctl_free_memory_of_gpu_args*>(c.args);
  DeviceState& d = c.dev;
  Process& p = c.p;
  BufferObject* bo = find_bo(d, p, args->handle);
  if (!bo) return -EINVAL;
  if (p.signal_page_from_user && p.signal_slots == reinterpret_cast<uint64_t*>(bo->host)) return -EPERM;
  if (bo->mapped()) return -EBUSY;  // amdgpu: "BO VA ... is still mapped"
  d.release_bo_memory_locked(*bo);
  // KFD-MEM-10: an engine may still hold a pointer into the pinned view that it translated
  // before the unmap; the running time slices end before the view goes away.
  if (bo->pin) d.quiesce_engines();
  p.bos.erase(bo->idr);
  return 0;
}

namespace {

// The shared shape of MAP and UNMAP: device-id array from n_success on, n_success advanced per
// device; op gets the GPU index of each id (KFD-MEM-12: one buffer, several GPUs' VMs).
template <typename Args, typename Op>
int for_each_device(IoctlCall& c, Args* args, Op op) {
  DeviceState& d = c.dev;
  Process& p = c.p;
  if (args->n_devices == 0 || args->n_success > args->n_devices) return -EINVAL;
  if (args->n_devices > 4096) return -EINVAL;
  std::vector<uint32_t> ids(args->n_devices);
  if (copy_from_user(ids.data(), args->device_ids_array_ptr, ids.size() * sizeof(uint32_t)) != 0) return -EFAULT;
  BufferObject* bo = find_bo(d, p, args->handle);
  if (!bo) return -EINVAL;
  for (uint32_t i = args->n_success; i < args->n_devices; ++i) {
    const int gpu = d.gpu_index(ids[i]);
    if (gpu < 0) return -EINVAL;  // kfd_process_device_data_by_id: no such device
    if (p.pdd[gpu].drm_fd < 0) return -ENODEV;
    if (const int err = op(*bo, static_cast<uint32_t>(gpu))) return err;
    args->n_success = i + 1;
  }
  return 0;
}

}  // namespace

// KFD-MEM-5
int kfd_ioctl_map_memory_to_gpu(IoctlCall& c) {
  auto* args = static_cast<kfd_ioctl_map_memory_to_gpu_args*>(c.args);
  Process& p = c.p;
  return for_each_device(c, args, [&p](BufferObject& bo, uint32_t gpu) {
    const uint32_t bit = 1u << gpu;
    if (bo.mapped_on & bit) return 0;  // already in this VM: nothing to do
    // Planted bug: a peer's map request reports success but leaves that GPU's VM untouched.
    if (gpu != bo.gpu && kfd_mutant_active(KfdMutant::PeerMapSkipped)) return 0;
    gpu::vm::GpuVm& vm = *p.pdd[gpu].vm;
    const uint64_t host = reinterpret_cast<uintptr_t>(bo.host);
    const uint64_t flags = pte_flags_for(bo, gpu);
    const int err = bo.pin ? vm.map_userptr(bo.va, host, bo.size, flags, bo.pin->user(),
                                            bo.pin->foreign() ? &foreign_range_present : &user_range_present)
                           : vm.map(bo.va, host, bo.size, flags);
    if (err) return err;  // overlapping VA or out of range: -EINVAL, nothing mapped
    bo.mapped_on |= bit;
    return 0;
  });
}

// KFD-MEM-6: unmap, then flush the VMID's TLB (kfd_flush_tlb) so no stale translation survives.
int kfd_ioctl_unmap_memory_from_gpu(IoctlCall& c) {
  auto* args = static_cast<kfd_ioctl_unmap_memory_from_gpu_args*>(c.args);
  Process& p = c.p;
  return for_each_device(c, args, [&p](BufferObject& bo, uint32_t gpu) {
    const uint32_t bit = 1u << gpu;
    if (!(bo.mapped_on & bit)) return -EINVAL;
    gpu::vm::GpuVm& vm = *p.pdd[gpu].vm;
    const int err = vm.unmap(bo.va, bo.size);
    if (err) return err;
    vm.invalidate_tlb_range(bo.va, bo.size);
    bo.mapped_on &= ~bit;
    return 0;
  });
}

int kfd_ioctl_get_available_memory(IoctlCall& c) {
  auto* args = static_cast<kfd_ioctl_get_available_memory_args*>(c.args);
  const int gpu = c.dev.gpu_index(args->gpu_id);
  if (gpu < 0) return -EINVAL;
  args->available = c.dev.gpus[gpu]->vram_limit.available_vram();  // KFD-MEM-9, KFD-MEM-11
  return 0;
}

}  // namespace rocref::kfd
