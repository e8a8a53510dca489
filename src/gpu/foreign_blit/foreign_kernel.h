// gpu/foreign_blit/foreign_kernel.h - what the packet processor calls for a kernel that is not a rocref kernel.
//
// The hook between the AQL packet processor and the blit emulation: when the
// descriptor's code is not a rocref KernelCode record, the processor hands the
// dispatch packet here. A recognised ROCR or ROCclr blit kernel is emulated with
// its real kernarg layout (BLIT-*); anything else comes back NotRecognised with a
// diagnostic naming the kernel object and its first code dwords, and the
// processor puts the queue in error (never a hang, never a silent completion).
#pragma once

#include <hsa/hsa.h>

#include "gpu/foreign_blit/blit_result.h"
#include "gpu/foreign_blit/rocr_kernels.h"
#include "gpu/memory_access.h"

namespace rocref::gpu::foreign_blit {

// Recognition only, no side effects (the processor calls it at launch): Completed with `kernel`
// set when the code is a blit kernel, else NotRecognised with the diagnostic.
ForeignResult recognise_foreign_kernel(const hsa_kernel_dispatch_packet_t& packet, MemoryAccess& memory);
// Recognises and runs the kernel (the processor calls it at completion).
ForeignResult run_foreign_kernel(const hsa_kernel_dispatch_packet_t& packet, MemoryAccess& memory);

}  // namespace rocref::gpu::foreign_blit
