// thunk/memory.h - buffer objects: VA reservation, ALLOC/FREE, CPU mmap, GPU map/unmap.
//
// Mirrors libhsakmt 5.2.3's fmm with mmap-based apertures: every buffer's GPU VA
// is a host VA reserved with an anonymous PROT_NONE mmap, then replaced by the
// buffer's mapping (MAP_FIXED), so GPU VA == CPU VA (MEM-VA-1).
#pragma once

#include <hsakmt.h>

#include <cstdint>
#include <vector>

#include "thunk/process.h"

namespace rocref::thunk {

// A page-aligned host VA range of `size` bytes, aligned to `align`; nullptr on failure.
void* reserve_va(uint64_t size, uint64_t align);

// hsaKmtAllocMemory after argument checks: VRAM, GTT or userptr (paged host) memory.
HSAKMT_STATUS allocate_locked(Process& p, uint32_t node, uint64_t size, HsaMemFlags flags, void** out);
// The process's doorbell page of `gpu` (ALLOC(DOORBELL) + mmap of /dev/kfd), at the first queue.
HSAKMT_STATUS map_doorbell_page_locked(Process& p, GpuNode& gpu, uint64_t mmap_offset);
// The MMIO_REMAP page (HDP flush) of `gpu`, mapped at open.
HSAKMT_STATUS map_mmio_page_locked(Process& p, GpuNode& gpu);
// A userptr buffer over caller memory (hsaKmtRegisterMemory*), or one more registration.
HSAKMT_STATUS register_locked(Process& p, void* address, uint64_t size, std::vector<uint32_t> gpu_ids,
                              bool coarse_grain);
// MAP_MEMORY_TO_GPU on `gpu_ids`, or on the registered GPUs, or on every GPU.
HSAKMT_STATUS map_locked(Process& p, Allocation& a, const std::vector<uint32_t>& gpu_ids);
// UNMAP_MEMORY_FROM_GPU from every GPU it is mapped on; unmapped memory is a success (as libhsakmt).
HSAKMT_STATUS unmap_locked(Process& p, Allocation& a);
// Drops one registration or FREE_MEMORY_OF_GPU, then gives back the VA. `a` is gone on success.
HSAKMT_STATUS free_locked(Process& p, Allocation& a);
// At close, for a buffer whose FREE the driver refused (the events page it still uses: -EPERM):
// closing /dev/kfd frees the buffer, so its CPU mapping and VA go now (THUNK-OPEN-1). `a` is gone.
void forget_locked(Process& p, Allocation& a);

// fmm_share_memory: IPC_EXPORT_HANDLE of the buffer starting at `address`, the thunk's handle
// filled (share handle, aperture, size in pages, exporting gpu_id).
HSAKMT_STATUS share_locked(Process& p, void* address, uint64_t size, HsaSharedMemoryHandle* out);
// fmm_register_shared_memory: VA reserved, IPC_IMPORT_HANDLE there, the buffer mmapped through
// the render node; registered on `gpu_ids` (none: every GPU) for the next MapMemoryToGPU.
HSAKMT_STATUS import_locked(Process& p, const HsaSharedMemoryHandle& handle, std::vector<uint32_t> gpu_ids,
                            void** address, uint64_t* size);

// Scratch (libhsakmt's fmm_allocate_scratch): a 64 KiB-aligned reserved range whose base is
// programmed with SET_SCRATCH_BACKING_VA; VRAM appears in it only where it is mapped.
HSAKMT_STATUS allocate_scratch_locked(Process& p, GpuNode& gpu, uint64_t size, void** out);
GpuNode* scratch_owner(Process& p, const void* address);
HSAKMT_STATUS map_scratch_locked(Process& p, GpuNode& gpu, void* address, uint64_t size);
HSAKMT_STATUS unmap_scratch_locked(Process& p, GpuNode& gpu, void* address);
void free_scratch_locked(Process& p, GpuNode& gpu);

}  // namespace rocref::thunk
