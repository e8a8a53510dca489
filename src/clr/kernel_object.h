// clr/kernel_object.h - kernel objects in GPU-visible memory for registered kernels.
//
// The code-object loader's role: a dispatch packet's kernel_object is the
// address of a kernel descriptor whose code entry holds the KernelCode record
// naming a kernel registered in common/kernel_abi.h. The descriptor declares the
// kernarg segment's size, as a code object's does (the GPU model reads that many
// bytes; AQL-FEN-6). One object per kernel id and kernarg size, made on first use
// and kept for the process.
#pragma once

#include <hsa/hsa.h>

#include <cstdint>

namespace rocref::clr {

// Address of the kernel descriptor for `kernel_id` with `kernarg_size` bytes of
// arguments, or 0 when memory ran out.
uint64_t kernel_object_for(uint64_t kernel_id, uint32_t kernarg_size);

}  // namespace rocref::clr
