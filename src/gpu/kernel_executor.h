// gpu/kernel_executor.h - finds a dispatch's kernel and runs its grid.
//
// A dispatch's kernel_object is the GPU address of a kernel_abi::KernelDescriptor;
// at kernel_object + kernel_code_entry_byte_offset lies a kernel_abi::KernelCode
// record whose id names a registered host function. Everything is read through
// MemoryAccess. The grid runs work-group by work-group; each work-group gets
// zeroed group-segment memory and its work-items run as fibers, so
// __syncthreads and shared memory behave as on the hardware. Work-items reach
// the dispatch's memory through kernel_abi::device_pointer (VM-XLATE-4); a
// fault there ends the dispatch as a memory aperture violation.
#pragma once

#include <hsa/hsa.h>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "common/kernel_abi.h"
#include "gpu/memory_access.h"
#include "gpu/packet_checks.h"
#include "gpu/work_group_fibers.h"

namespace rocref::gpu {

struct ResolvedKernel {
  const kernel_abi::RegisteredKernel* kernel = nullptr;
  uint32_t group_fixed_bytes = 0;  // descriptor's group_segment_fixed_size
  const void* kernarg = nullptr;   // host pointer of kernarg_address (nullptr when 0)
  uint32_t kernarg_bytes = 0;      // descriptor's kernarg_size (0: not declared)
  MemoryAccess* memory = nullptr;  // the queue's GPUVM: what the kernel's own accesses go through
};

// The registered kernel resolve_kernel found last, by the id its code record names. The table
// only grows and never changes an entry (kernel_abi.h), so the answer for an id stays right and
// its lock is taken once per kernel instead of once per dispatch. The descriptor and the code
// record are still read through translation at every dispatch.
struct KernelLookup {
  uint64_t id = 0;
  const kernel_abi::RegisteredKernel* kernel = nullptr;
};

// AQL-ERR-1: an untranslatable descriptor, code record or kernarg segment is
// HSA_STATUS_ERROR_MEMORY_APERTURE_VIOLATION; a code record that names no
// registered kernel is HSA_STATUS_ERROR_INVALID_PACKET_FORMAT naming the object.
std::optional<PacketFault> resolve_kernel(const hsa_kernel_dispatch_packet_t& packet, MemoryAccess& memory,
                                          ResolvedKernel* out, KernelLookup* lookup = nullptr);

class KernelExecutor {
 public:
  // Runs every work-item of the grid. A work-item that throws ends the
  // dispatch with HSA_STATUS_ERROR_EXCEPTION (the rest of its work-group still
  // runs; later work-groups do not).
  std::optional<PacketFault> run(const hsa_kernel_dispatch_packet_t& packet, const ResolvedKernel& kernel);

  uint64_t work_groups_run() const noexcept { return work_groups_; }

 private:
  // kernel_abi::DeviceMemory's translate over the dispatch's MemoryAccess; the first fault is kept.
  struct KernelMemory {
    MemoryAccess* memory = nullptr;
    std::optional<uint64_t> fault_va;
  };
  static void* translate_for_kernel(void* context, uint64_t va, uint64_t size, bool write) noexcept;
  // The work-items of one work-group, `count` of them, each `base` with its own id.
  std::span<const kernel_abi::WorkItemContext> work_items(kernel_abi::WorkItemContext& base,
                                                          const kernel_abi::Dim3& count);

  WorkGroupFibers fibers_;
  KernelMemory kernel_memory_;
  std::vector<kernel_abi::WorkItemContext> items_;
  std::vector<std::max_align_t> group_;
  uint64_t work_groups_ = 0;
};

}  // namespace rocref::gpu
