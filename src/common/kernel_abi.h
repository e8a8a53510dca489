// common/kernel_abi.h - the contract between host-compiled kernels and the GPU model.
//
// On hardware this is the ISA and the code-object ABI. Here a kernel is a host
// function; its "code" in GPU memory is a KernelCode record (magic + id) that
// the kernel descriptor's kernel_code_entry_byte_offset (offset 16, as in the
// real kernel descriptor) points at. The GPU model reads the record through
// GPUVM, looks the id up in this registry, and runs the function once per
// work-item with the work-item's context set. Unknown ids are a queue error.
//
// One table and one current work-item per process, however many shared
// objects carry a copy of this code: under the /dev/kfd interposer the GPU
// model runs in librocref_preload.so while a runtime registers its kernels
// from libhsa-runtime64.so.1. Each copy asks the dynamic linker for the first
// exported table (kernel_abi.cpp) and uses that one.
#pragma once

#include <hsa/hsa.h>

#include <cstddef>
#include <cstdint>
#include <string>

namespace rocref::kernel_abi {

struct Dim3 {
  uint32_t x = 1, y = 1, z = 1;
};

// What a work-item can see: the values hardware puts in its registers.
// How a model kernel (the copy and fill kernels) reaches the memory its arguments name: through
// its dispatch's GPUVM, as every engine does. translate gives the host pointer of
// [va, va + size) or nullptr for a GPU page fault, which the executor has recorded: the dispatch
// ends in a memory aperture violation, and the work-item should stop touching memory.
struct DeviceMemory {
  void* context = nullptr;
  void* (*translate)(void* context, uint64_t va, uint64_t size, bool write) noexcept = nullptr;
};

struct WorkItemContext {
  Dim3 work_item_id;          // threadIdx
  Dim3 work_group_id;         // blockIdx
  Dim3 work_group_size;       // blockDim
  Dim3 grid_groups;           // gridDim (work-groups per dimension)
  void* group_segment = nullptr;   // __shared__ memory of this work-group
  uint32_t group_segment_size = 0;
  const void* kernarg = nullptr;
  const hsa_kernel_dispatch_packet_t* packet = nullptr;
  DeviceMemory memory;  // the dispatch's GPUVM (no translate: outside a dispatch, every access faults)
};

// The work-item currently running on this host thread (set by the GPU model).
const WorkItemContext& current() noexcept;
void set_current(const WorkItemContext* context) noexcept;

// The current work-item's host pointer for the GPU range [va, va + size), or nullptr (a page fault).
void* device_pointer(uint64_t va, uint64_t size, bool write) noexcept;

// __syncthreads(): provided by whichever executor runs the work-group.
using BarrierHook = void (*)();
void set_barrier_hook(BarrierHook hook) noexcept;
void work_group_barrier();

using KernelEntry = void (*)(const void* kernarg);

inline constexpr uint64_t kKernelCodeMagic = 0x4c4e524b46455243ull;  // "CREFKRNL"

// The bytes a kernel descriptor's entry points at.
struct KernelCode {
  uint64_t magic = kKernelCodeMagic;
  uint64_t id = 0;
};

// Kernel descriptor fields rocref uses, at their real offsets (64 bytes in all).
struct KernelDescriptor {
  uint32_t group_segment_fixed_size = 0;    // 0
  uint32_t private_segment_fixed_size = 0;  // 4
  uint32_t kernarg_size = 0;                // 8
  uint8_t reserved0[4] = {};
  int64_t kernel_code_entry_byte_offset = 0;  // 16
  uint8_t reserved1[40] = {};
};
static_assert(sizeof(KernelDescriptor) == 64);
static_assert(offsetof(KernelDescriptor, kernel_code_entry_byte_offset) == 16);

// The code-object loader's role: a process-wide table of known kernels.
uint64_t register_kernel(std::string name, KernelEntry entry);
// The model's own kernels (the copy and fill kernels) have fixed ids at and above this base, the
// same in every process, so a dispatch a process builds names the same kernel in the shared
// model's daemon, which registers them too. Registering a fixed id again keeps the first entry.
inline constexpr uint64_t kFixedKernelIdBase = uint64_t{1} << 62;
uint64_t register_fixed_kernel(uint64_t id, std::string name, KernelEntry entry);
struct RegisteredKernel {
  std::string name;
  KernelEntry entry = nullptr;
};
// nullptr for an unknown id.
const RegisteredKernel* find_kernel(uint64_t id) noexcept;

}  // namespace rocref::kernel_abi
