// thunk/memory.cpp - buffer objects: VA reservation, ALLOC/FREE, CPU mmap, GPU map/unmap.
#include "thunk/memory.h"

#include <sys/mman.h>

#include <cerrno>
#include <cstring>

#include "common/kfd_ipc_abi.h"

namespace rocref::thunk {
namespace {

constexpr uint64_t kMaxVaAlign = uint64_t{2} << 20;  // libhsakmt aligns big buffers up to 2 MiB
constexpr uint64_t kScratchAlign = uint64_t{64} << 10;  // SH_HIDDEN_PRIVATE_BASE is in 64 KiB units

uint64_t align_up(uint64_t v, uint64_t a) { return (v + a - 1) & ~(a - 1); }

// libhsakmt's fmm_translate_hsa_to_ioc_flags.
uint32_t ioc_flags_from(HsaMemFlags f) {
  uint32_t ioc = KFD_IOC_ALLOC_MEM_FLAGS_EXECUTABLE;  // ROCr cannot ask for page permissions
  if (f.ui32.AQLQueueMemory) ioc |= KFD_IOC_ALLOC_MEM_FLAGS_AQL_QUEUE_MEM | KFD_IOC_ALLOC_MEM_FLAGS_UNCACHED;
  if (!f.ui32.ReadOnly) ioc |= KFD_IOC_ALLOC_MEM_FLAGS_WRITABLE;
  if (!f.ui32.CoarseGrain) ioc |= KFD_IOC_ALLOC_MEM_FLAGS_COHERENT;
  if (f.ui32.Uncached) ioc |= KFD_IOC_ALLOC_MEM_FLAGS_UNCACHED;
  return ioc;
}

void release_va(Process& p, void* address, uint64_t size, bool device_mapping) {
  if (device_mapping && p.transport->munmap(address, size) == 0) return;
  ::munmap(address, size);
}

bool device_mapped(const Allocation& a) { return a.kind != MemKind::Userptr; }

// ALLOC_MEMORY_OF_GPU; returns the errno-style result of the ioctl.
int alloc_bo(Process& p, uint32_t gpu_id, void* va, uint64_t size, uint32_t flags, uint64_t* mmap_offset,
             uint64_t* handle) {
  kfd_ioctl_alloc_memory_of_gpu_args args{};
  args.va_addr = reinterpret_cast<uintptr_t>(va);
  args.size = size;
  args.gpu_id = gpu_id;
  args.flags = flags;
  args.mmap_offset = *mmap_offset;
  const int rc = p.transport->ioctl(p.kfd_fd, AMDKFD_IOC_ALLOC_MEMORY_OF_GPU, &args);
  if (rc == 0) {
    *handle = args.handle;
    *mmap_offset = args.mmap_offset;
  }
  return rc;
}

void free_bo(Process& p, uint64_t handle) {
  kfd_ioctl_free_memory_of_gpu_args args{};
  args.handle = handle;
  p.transport->ioctl(p.kfd_fd, AMDKFD_IOC_FREE_MEMORY_OF_GPU, &args);
}

// Maps a device buffer over the reserved VA; false (and the reservation dropped) on failure.
bool mmap_fixed(Process& p, void* va, uint64_t size, int prot, int flags, int fd, uint64_t offset) {
  void* got = p.transport->mmap(va, size, prot, flags | MAP_FIXED, fd, static_cast<off_t>(offset)).value_or(nullptr);
  if (got == va) return true;
  if (got) release_va(p, got, size, true);
  return false;
}

Allocation& record(Process& p, void* va, uint64_t size, uint64_t handle, uint32_t node, MemKind kind) {
  Allocation a;
  a.address = va;
  a.size = size;
  a.handle = handle;
  a.node = node;
  a.kind = kind;
  auto [it, inserted] = p.allocations.insert_or_assign(reinterpret_cast<uintptr_t>(va), std::move(a));
  return it->second;
}

const GpuNode* first_gpu(const Process& p) { return p.gpus.empty() ? nullptr : &p.gpus.begin()->second; }

// fmm_allocate_host_gpu: paged memory is anonymous host memory under a USERPTR buffer,
// non-paged memory a GTT buffer mapped through the render node.
HSAKMT_STATUS allocate_host(Process& p, uint32_t node, uint64_t size, HsaMemFlags flags, void** out) {
  const GpuNode* gpu = first_gpu(p);
  if (!gpu || flags.ui32.FixedAddress) return HSAKMT_STATUS_ERROR;  // mmap apertures take no fixed VA
  void* va = reserve_va(size, kPageSize);
  if (!va) return HSAKMT_STATUS_ERROR;
  uint32_t ioc = ioc_flags_from(flags);
  uint64_t handle = 0;
  if (!flags.ui32.NonPaged) {
    if (::mmap(va, size, PROT_READ | PROT_WRITE, MAP_ANONYMOUS | MAP_PRIVATE | MAP_FIXED, -1, 0) == MAP_FAILED) {
      ::munmap(va, size);
      return HSAKMT_STATUS_ERROR;
    }
    uint64_t userptr = reinterpret_cast<uintptr_t>(va);  // USERPTR: the CPU address goes in mmap_offset
    if (alloc_bo(p, gpu->gpu_id, va, size, ioc | KFD_IOC_ALLOC_MEM_FLAGS_USERPTR, &userptr, &handle) != 0) {
      ::munmap(va, size);
      return HSAKMT_STATUS_ERROR;
    }
    record(p, va, size, handle, node, MemKind::Userptr).flags = flags;
    *out = va;
    return HSAKMT_STATUS_SUCCESS;
  }
  uint64_t offset = 0;
  if (alloc_bo(p, gpu->gpu_id, va, size, ioc | KFD_IOC_ALLOC_MEM_FLAGS_GTT, &offset, &handle) != 0) {
    ::munmap(va, size);
    return HSAKMT_STATUS_ERROR;
  }
  if (flags.ui32.HostAccess &&
      !mmap_fixed(p, va, size, PROT_READ | PROT_WRITE, MAP_SHARED, gpu->render_fd, offset)) {
    free_bo(p, handle);
    ::munmap(va, size);
    return HSAKMT_STATUS_ERROR;
  }
  record(p, va, size, handle, node, MemKind::Gtt).flags = flags;
  *out = va;
  return HSAKMT_STATUS_SUCCESS;
}

// fmm_allocate_device: VRAM, CPU-visible (PUBLIC) only with HostAccess.
HSAKMT_STATUS allocate_device(Process& p, uint32_t node, const GpuNode& gpu, uint64_t size, HsaMemFlags flags,
                              void** out) {
  if (flags.ui32.FixedAddress) return HSAKMT_STATUS_NO_MEMORY;
  void* va = reserve_va(size, kPageSize);
  if (!va) return HSAKMT_STATUS_NO_MEMORY;
  uint32_t ioc = KFD_IOC_ALLOC_MEM_FLAGS_VRAM | ioc_flags_from(flags);
  if (flags.ui32.HostAccess) ioc |= KFD_IOC_ALLOC_MEM_FLAGS_PUBLIC;
  uint64_t offset = 0, handle = 0;
  if (alloc_bo(p, gpu.gpu_id, va, size, ioc, &offset, &handle) != 0) {
    ::munmap(va, size);
    return HSAKMT_STATUS_NO_MEMORY;
  }
  const bool host = flags.ui32.HostAccess;
  if (!mmap_fixed(p, va, size, host ? PROT_READ | PROT_WRITE : PROT_NONE, host ? MAP_SHARED : MAP_PRIVATE,
                  gpu.render_fd, offset)) {
    free_bo(p, handle);
    ::munmap(va, size);
    return HSAKMT_STATUS_NO_MEMORY;
  }
  record(p, va, size, handle, node, MemKind::Vram).flags = flags;
  *out = va;
  return HSAKMT_STATUS_SUCCESS;
}

// Puts a PROT_NONE reservation back over [address, address + size) after a buffer left it.
void re_reserve(void* address, uint64_t size) {
  ::mmap(address, size, PROT_NONE, MAP_ANONYMOUS | MAP_NORESERVE | MAP_PRIVATE | MAP_FIXED, -1, 0);
}

}  // namespace

HSAKMT_STATUS allocate_scratch_locked(Process& p, GpuNode& gpu, uint64_t size, void** out) {
  if (gpu.scratch_base) return HSAKMT_STATUS_NO_MEMORY;  // one scratch backing per GPU
  const uint64_t aligned = align_up(size, kScratchAlign);
  void* va = reserve_va(aligned, kScratchAlign);
  if (!va) return HSAKMT_STATUS_NO_MEMORY;
  kfd_ioctl_set_scratch_backing_va_args args{};
  args.gpu_id = gpu.gpu_id;
  args.va_addr = reinterpret_cast<uintptr_t>(va) >> 16;
  if (p.transport->ioctl(p.kfd_fd, AMDKFD_IOC_SET_SCRATCH_BACKING_VA, &args) != 0) {
    ::munmap(va, aligned);
    return HSAKMT_STATUS_NO_MEMORY;
  }
  gpu.scratch_base = va;
  gpu.scratch_size = aligned;
  *out = va;
  return HSAKMT_STATUS_SUCCESS;
}

GpuNode* scratch_owner(Process& p, const void* address) {
  const auto a = reinterpret_cast<uintptr_t>(address);
  for (auto& [node, g] : p.gpus) {
    const auto base = reinterpret_cast<uintptr_t>(g.scratch_base);
    if (g.scratch_base && a >= base && a < base + g.scratch_size) return &g;
  }
  return nullptr;
}

// libhsakmt's _fmm_map_to_gpu_scratch: a VRAM buffer at exactly that place, CPU-inaccessible.
HSAKMT_STATUS map_scratch_locked(Process& p, GpuNode& gpu, void* address, uint64_t size) {
  const auto a = reinterpret_cast<uintptr_t>(address);
  const auto base = reinterpret_cast<uintptr_t>(gpu.scratch_base);
  if ((a & (kPageSize - 1)) || size == 0 || size > gpu.scratch_size) return HSAKMT_STATUS_ERROR;
  size = align_up(size, kPageSize);
  if (a + size > base + gpu.scratch_size) return HSAKMT_STATUS_ERROR;
  if (gpu.scratch_objects.count(a)) return HSAKMT_STATUS_ERROR;
  uint64_t offset = 0, handle = 0;
  const uint32_t ioc = KFD_IOC_ALLOC_MEM_FLAGS_VRAM | KFD_IOC_ALLOC_MEM_FLAGS_WRITABLE;
  if (alloc_bo(p, gpu.gpu_id, address, size, ioc, &offset, &handle) != 0) return HSAKMT_STATUS_ERROR;
  if (!mmap_fixed(p, address, size, PROT_NONE, MAP_PRIVATE, gpu.render_fd, offset)) {
    free_bo(p, handle);
    re_reserve(address, size);
    return HSAKMT_STATUS_ERROR;
  }
  Allocation obj;
  obj.address = address;
  obj.size = size;
  obj.handle = handle;
  obj.node = gpu.node_id;
  kfd_ioctl_map_memory_to_gpu_args args{};
  args.handle = handle;
  args.device_ids_array_ptr = reinterpret_cast<uintptr_t>(&gpu.gpu_id);
  args.n_devices = 1;
  if (p.transport->ioctl(p.kfd_fd, AMDKFD_IOC_MAP_MEMORY_TO_GPU, &args) != 0) {
    free_bo(p, handle);
    release_va(p, address, size, true);
    re_reserve(address, size);
    return HSAKMT_STATUS_ERROR;
  }
  obj.mapped_gpus = {gpu.gpu_id};
  gpu.scratch_objects.emplace(a, std::move(obj));
  return HSAKMT_STATUS_SUCCESS;
}

HSAKMT_STATUS unmap_scratch_locked(Process& p, GpuNode& gpu, void* address) {
  const auto it = gpu.scratch_objects.find(reinterpret_cast<uintptr_t>(address));
  if (it == gpu.scratch_objects.end()) return HSAKMT_STATUS_ERROR;
  Allocation& obj = it->second;
  kfd_ioctl_unmap_memory_from_gpu_args args{};
  args.handle = obj.handle;
  args.device_ids_array_ptr = reinterpret_cast<uintptr_t>(&gpu.gpu_id);
  args.n_devices = 1;
  if (p.transport->ioctl(p.kfd_fd, AMDKFD_IOC_UNMAP_MEMORY_FROM_GPU, &args) != 0) return HSAKMT_STATUS_ERROR;
  free_bo(p, obj.handle);
  release_va(p, obj.address, obj.size, true);
  re_reserve(obj.address, obj.size);  // the range stays part of the scratch backing
  gpu.scratch_objects.erase(it);
  return HSAKMT_STATUS_SUCCESS;
}

void free_scratch_locked(Process& p, GpuNode& gpu) {
  while (!gpu.scratch_objects.empty()) {
    const auto it = gpu.scratch_objects.begin();
    if (unmap_scratch_locked(p, gpu, it->second.address) != HSAKMT_STATUS_SUCCESS) {
      free_bo(p, it->second.handle);
      gpu.scratch_objects.erase(it);
    }
  }
  if (gpu.scratch_base) ::munmap(gpu.scratch_base, gpu.scratch_size);
  gpu.scratch_base = nullptr;
  gpu.scratch_size = 0;
}

void* reserve_va(uint64_t size, uint64_t align) {
  if (size == 0 || size > kMaxUserVa) return nullptr;  // no user VA that large: also keeps the padding from wrapping
  while (align < kMaxVaAlign && size >= (align << 1)) align <<= 1;
  const uint64_t padded = size + align - kPageSize;
  void* raw = ::mmap(nullptr, padded, PROT_NONE, MAP_ANONYMOUS | MAP_NORESERVE | MAP_PRIVATE, -1, 0);
  if (raw == MAP_FAILED) return nullptr;
  const uint64_t start = reinterpret_cast<uintptr_t>(raw);
  const uint64_t aligned = align_up(start, align);
  if (aligned > start) ::munmap(raw, aligned - start);
  const uint64_t end = start + padded;
  if (end > aligned + size) ::munmap(reinterpret_cast<void*>(aligned + size), end - aligned - size);
  return reinterpret_cast<void*>(aligned);
}

HSAKMT_STATUS allocate_locked(Process& p, uint32_t node, uint64_t size, HsaMemFlags flags, void** out) {
  const GpuNode* gpu = p.gpu(node);
  if (!gpu || !flags.ui32.NonPaged) return allocate_host(p, node, size, flags, out);
  return allocate_device(p, node, *gpu, size, flags, out);
}

HSAKMT_STATUS map_doorbell_page_locked(Process& p, GpuNode& gpu, uint64_t mmap_offset) {
  if (gpu.doorbell_page) return HSAKMT_STATUS_SUCCESS;
  void* va = reserve_va(kDoorbellPageBytes, kPageSize);
  if (!va) return HSAKMT_STATUS_ERROR;
  uint64_t unused = 0, handle = 0;
  const uint32_t ioc = KFD_IOC_ALLOC_MEM_FLAGS_DOORBELL | KFD_IOC_ALLOC_MEM_FLAGS_WRITABLE |
                       KFD_IOC_ALLOC_MEM_FLAGS_COHERENT;
  if (alloc_bo(p, gpu.gpu_id, va, kDoorbellPageBytes, ioc, &unused, &handle) != 0) {
    ::munmap(va, kDoorbellPageBytes);
    return HSAKMT_STATUS_ERROR;
  }
  if (!mmap_fixed(p, va, kDoorbellPageBytes, PROT_READ | PROT_WRITE, MAP_SHARED, p.kfd_fd, mmap_offset)) {
    free_bo(p, handle);
    ::munmap(va, kDoorbellPageBytes);
    return HSAKMT_STATUS_ERROR;
  }
  Allocation& a = record(p, va, kDoorbellPageBytes, handle, gpu.node_id, MemKind::Doorbell);
  if (map_locked(p, a, {}) != HSAKMT_STATUS_SUCCESS) {
    free_locked(p, a);
    return HSAKMT_STATUS_ERROR;
  }
  gpu.doorbell_page = va;
  return HSAKMT_STATUS_SUCCESS;
}

HSAKMT_STATUS map_mmio_page_locked(Process& p, GpuNode& gpu) {
  void* va = reserve_va(kPageSize, kPageSize);
  if (!va) return HSAKMT_STATUS_ERROR;
  uint64_t offset = 0, handle = 0;
  const uint32_t ioc = KFD_IOC_ALLOC_MEM_FLAGS_MMIO_REMAP | KFD_IOC_ALLOC_MEM_FLAGS_WRITABLE |
                       KFD_IOC_ALLOC_MEM_FLAGS_COHERENT;
  if (alloc_bo(p, gpu.gpu_id, va, kPageSize, ioc, &offset, &handle) != 0) {
    ::munmap(va, kPageSize);
    return HSAKMT_STATUS_ERROR;
  }
  if (!mmap_fixed(p, va, kPageSize, PROT_READ | PROT_WRITE, MAP_SHARED, p.kfd_fd, offset)) {
    free_bo(p, handle);
    ::munmap(va, kPageSize);
    return HSAKMT_STATUS_ERROR;
  }
  Allocation& a = record(p, va, kPageSize, handle, gpu.node_id, MemKind::MmioRemap);
  if (map_locked(p, a, {gpu.gpu_id}) != HSAKMT_STATUS_SUCCESS) {
    free_locked(p, a);
    return HSAKMT_STATUS_ERROR;
  }
  gpu.mmio_page = va;
  return HSAKMT_STATUS_SUCCESS;
}

HSAKMT_STATUS register_locked(Process& p, void* address, uint64_t size, std::vector<uint32_t> gpu_ids,
                              bool coarse_grain) {
  const uint64_t addr = reinterpret_cast<uintptr_t>(address);
  if (size > kMaxUserVa || addr > kMaxUserVa - size) return HSAKMT_STATUS_INVALID_PARAMETER;  // past user VA
  if (Allocation* a = p.find_allocation(address)) {
    // libhsakmt: registering again is allowed, changing the nodes is not.
    if (!a->registered_gpus.empty() && !gpu_ids.empty() && a->registered_gpus != gpu_ids)
      return HSAKMT_STATUS_MEMORY_ALREADY_REGISTERED;
    if (a->from_register) ++a->registrations;
    if (a->registered_gpus.empty()) a->registered_gpus = std::move(gpu_ids);
    return HSAKMT_STATUS_SUCCESS;
  }
  const GpuNode* gpu = first_gpu(p);
  if (!gpu) return HSAKMT_STATUS_ERROR;
  const uint64_t start = reinterpret_cast<uintptr_t>(address) & ~(kPageSize - 1);
  const uint64_t length = align_up(reinterpret_cast<uintptr_t>(address) + size, kPageSize) - start;
  // GPU VA == CPU VA here too (libhsakmt reserves a second VA for a userptr).
  uint64_t userptr = start, handle = 0;
  const uint32_t ioc = KFD_IOC_ALLOC_MEM_FLAGS_USERPTR | KFD_IOC_ALLOC_MEM_FLAGS_WRITABLE |
                       KFD_IOC_ALLOC_MEM_FLAGS_EXECUTABLE | (coarse_grain ? 0 : KFD_IOC_ALLOC_MEM_FLAGS_COHERENT);
  if (alloc_bo(p, gpu->gpu_id, reinterpret_cast<void*>(start), length, ioc, &userptr, &handle) != 0)
    return HSAKMT_STATUS_ERROR;
  Allocation& a = record(p, reinterpret_cast<void*>(start), length, handle, gpu->node_id, MemKind::Userptr);
  a.from_register = true;
  a.registrations = 1;
  a.registered_gpus = std::move(gpu_ids);
  a.user_address = address;
  a.user_size = size;
  a.flags.ui32.CoarseGrain = coarse_grain ? 1 : 0;
  return HSAKMT_STATUS_SUCCESS;
}

HSAKMT_STATUS map_locked(Process& p, Allocation& a, const std::vector<uint32_t>& gpu_ids) {
  if (a.kind == MemKind::Userptr && a.map_count > 0) {  // userptr nodes cannot change: count it
    ++a.map_count;
    return HSAKMT_STATUS_SUCCESS;
  }
  std::vector<uint32_t> ids = !gpu_ids.empty() ? gpu_ids : !a.registered_gpus.empty() ? a.registered_gpus
                                                                                      : p.all_gpu_ids;
  if (ids.empty()) return HSAKMT_STATUS_ERROR;
  kfd_ioctl_map_memory_to_gpu_args args{};
  args.handle = a.handle;
  args.device_ids_array_ptr = reinterpret_cast<uintptr_t>(ids.data());
  args.n_devices = static_cast<uint32_t>(ids.size());
  if (p.transport->ioctl(p.kfd_fd, AMDKFD_IOC_MAP_MEMORY_TO_GPU, &args) != 0) return HSAKMT_STATUS_ERROR;
  for (uint32_t id : ids) {
    bool seen = false;
    for (uint32_t m : a.mapped_gpus) seen |= m == id;
    if (!seen) a.mapped_gpus.push_back(id);
  }
  a.map_count = 1;
  return HSAKMT_STATUS_SUCCESS;
}

HSAKMT_STATUS unmap_locked(Process& p, Allocation& a) {
  if (a.kind == MemKind::Userptr && a.map_count > 1) {
    --a.map_count;
    return HSAKMT_STATUS_SUCCESS;
  }
  if (a.mapped_gpus.empty()) return HSAKMT_STATUS_SUCCESS;  // libhsakmt: "currently we return success"
  kfd_ioctl_unmap_memory_from_gpu_args args{};
  args.handle = a.handle;
  args.device_ids_array_ptr = reinterpret_cast<uintptr_t>(a.mapped_gpus.data());
  args.n_devices = static_cast<uint32_t>(a.mapped_gpus.size());
  if (p.transport->ioctl(p.kfd_fd, AMDKFD_IOC_UNMAP_MEMORY_FROM_GPU, &args) != 0) return HSAKMT_STATUS_ERROR;
  a.mapped_gpus.clear();
  a.map_count = 0;
  return HSAKMT_STATUS_SUCCESS;
}

HSAKMT_STATUS free_locked(Process& p, Allocation& a) {
  if (a.from_register && a.registrations > 1) {
    --a.registrations;
    return HSAKMT_STATUS_SUCCESS;
  }
  kfd_ioctl_free_memory_of_gpu_args args{};
  args.handle = a.handle;
  if (p.transport->ioctl(p.kfd_fd, AMDKFD_IOC_FREE_MEMORY_OF_GPU, &args) != 0) return HSAKMT_STATUS_ERROR;
  // Caller memory under a registered userptr stays the caller's.
  if (!a.from_register) release_va(p, a.address, a.size, device_mapped(a));
  p.allocations.erase(reinterpret_cast<uintptr_t>(a.address));
  return HSAKMT_STATUS_SUCCESS;
}

namespace {

// libhsakmt 5.2.3's HsaSharedMemoryStruct, what the 32 bytes of HsaSharedMemoryHandle hold
// (fmm.c): the driver's share handle, the aperture the buffer was in, its size in pages and
// the exporting GPU. ROCR 5.2.3 marks fragments in SizeInPages (word 6).
struct SharedMemoryStruct {
  uint32_t share_handle[4];
  uint32_t aperture_type;  // HSA_APERTURE: 1 DGPU (coarse grain), 2 DGPU_ALT (fine grain)
  uint32_t aperture_index;
  uint32_t size_in_pages;
  uint32_t export_gpu_id;
};
static_assert(sizeof(SharedMemoryStruct) == sizeof(HsaSharedMemoryHandle), "libhsakmt's shared handle layout");
constexpr uint32_t kApertureDgpu = 1, kApertureDgpuAlt = 2;

}  // namespace

HSAKMT_STATUS share_locked(Process& p, void* address, uint64_t size, HsaSharedMemoryHandle* out) {
  if (size >= (uint64_t{1} << (32 + 12))) return HSAKMT_STATUS_INVALID_PARAMETER;  // SizeInPages is 32 bits
  auto it = p.allocations.find(reinterpret_cast<uintptr_t>(address));
  if (it == p.allocations.end()) return HSAKMT_STATUS_INVALID_PARAMETER;  // the start of a buffer only
  Allocation& a = it->second;
  uint32_t gpu_id = 0;
  if (const HSAKMT_STATUS st = p.validate_node(a.node, &gpu_id); st != HSAKMT_STATUS_SUCCESS) return st;
  if (gpu_id == 0) {  // system memory: the GPU it was allocated through (fmm_allocate_host_gpu's first)
    if (p.gpus.empty()) return HSAKMT_STATUS_ERROR;
    gpu_id = p.gpus.begin()->second.gpu_id;
  }
  kfd_abi::kfd_ioctl_ipc_export_handle_args args{};
  args.handle = a.handle;
  args.gpu_id = gpu_id;
  args.flags = a.flags.Value;
  if (p.transport->ioctl(p.kfd_fd, kfd_abi::kIocIpcExportHandle, &args) != 0) return HSAKMT_STATUS_ERROR;
  SharedMemoryStruct h{};
  std::memcpy(h.share_handle, args.share_handle, sizeof(h.share_handle));
  h.aperture_type = a.flags.ui32.CoarseGrain ? kApertureDgpu : kApertureDgpuAlt;
  h.size_in_pages = static_cast<uint32_t>(size >> 12);  // the caller's size, as libhsakmt
  h.export_gpu_id = gpu_id;
  std::memcpy(out, &h, sizeof(h));
  return HSAKMT_STATUS_SUCCESS;
}

HSAKMT_STATUS import_locked(Process& p, const HsaSharedMemoryHandle& handle, std::vector<uint32_t> gpu_ids,
                            void** address, uint64_t* size) {
  SharedMemoryStruct h{};
  std::memcpy(&h, &handle, sizeof(h));
  const uint64_t bytes = uint64_t{h.size_in_pages} << 12;
  void* va = bytes ? reserve_va(bytes, kPageSize) : nullptr;
  if (!va) return HSAKMT_STATUS_NO_MEMORY;
  kfd_abi::kfd_ioctl_ipc_import_handle_args args{};
  std::memcpy(args.share_handle, h.share_handle, sizeof(args.share_handle));
  args.gpu_id = h.export_gpu_id;
  args.va_addr = reinterpret_cast<uintptr_t>(va);
  if (p.transport->ioctl(p.kfd_fd, kfd_abi::kIocIpcImportHandle, &args) != 0) {
    ::munmap(va, bytes);  // (libhsakmt 5.2.3 keeps the reservation here: a leak, not behaviour)
    return HSAKMT_STATUS_ERROR;
  }
  uint32_t node = 0;
  if (args.mmap_offset) {
    const std::optional<uint32_t> n = p.node_of_gpu_id(h.export_gpu_id);
    const GpuNode* gpu = n ? p.gpu(*n) : nullptr;
    if (!gpu || !mmap_fixed(p, va, bytes, PROT_READ | PROT_WRITE, MAP_SHARED, gpu->render_fd, args.mmap_offset)) {
      free_bo(p, args.handle);
      ::munmap(va, bytes);
      return HSAKMT_STATUS_ERROR;
    }
    node = *n;
  }
  Allocation& a = record(p, va, bytes, args.handle, node, MemKind::Vram);
  a.flags.Value = args.flags;  // the exporter's flags, as the driver kept them
  a.imported = true;
  a.registered_gpus = std::move(gpu_ids);
  *address = va;
  *size = bytes;
  return HSAKMT_STATUS_SUCCESS;
}

void forget_locked(Process& p, Allocation& a) {
  if (!a.from_register) release_va(p, a.address, a.size, device_mapped(a));
  p.allocations.erase(reinterpret_cast<uintptr_t>(a.address));
}

}  // namespace rocref::thunk
