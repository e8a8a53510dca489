// gpu/foreign_blit/rocclr_emulation.h - what ROCclr's linear blit kernels compute, from their kernargs and grid.
//
// Each work-item of these kernels takes id = global offset + its flat index in
// x (get_global_id(0)) and acts only while id < size; y and z repeat the same
// stores. The emulation computes the union of what the acting work-items move
// as one range per side, translates it whole (a miss is a GPU page fault and
// moves nothing) and then moves it (BLIT-ARG-2, BLIT-COPY-2/3, BLIT-FILL-2).
#pragma once

#include <hsa/hsa.h>

#include <cstdint>
#include <optional>

#include "gpu/foreign_blit/blit_result.h"
#include "gpu/memory_access.h"

namespace rocref::gpu::foreign_blit {

// The ids that act, [lo, hi): global_offset + k for k < grid_size_x, below size.
// No value when the ids wrap past 2^64 (no ROCclr dispatch sets a global offset).
struct ActiveIds {
  uint64_t lo = 0, hi = 0;
};
std::optional<ActiveIds> active_ids(uint64_t global_offset, uint32_t grid_size_x, uint64_t size) noexcept;

// Runs the ROCclr kernel `k` (one of kRocclrKernels) for `packet`.
ForeignResult run_rocclr_kernel(BlitKernel k, const hsa_kernel_dispatch_packet_t& packet, MemoryAccess& memory);

}  // namespace rocref::gpu::foreign_blit
