// gpu/isa/kernel_descriptor.h - the AMDHSA kernel descriptor (code object v3/v4) a dispatch's kernel_object names.
//
// Layout and bit fields from LLVM's llvm/Support/AMDHSAKernelDescriptor.h and
// docs/AMDGPUUsage.rst ("Kernel Descriptor"): 64 bytes, 64-byte aligned, code at
// kernel_object + kernel_code_entry_byte_offset (256-byte aligned). Read through
// the GPU's translation, never dereferenced directly (ISA-DISP-1).
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

#include "gpu/memory_access.h"

namespace rocref::gpu::isa {

struct KernelDescriptor {
  uint32_t group_segment_fixed_size;
  uint32_t private_segment_fixed_size;
  uint32_t kernarg_size;
  uint8_t reserved0[4];
  int64_t kernel_code_entry_byte_offset;
  uint8_t reserved1[20];
  uint32_t compute_pgm_rsrc3;  // gfx90a/gfx10+ only; zero on gfx900
  uint32_t compute_pgm_rsrc1;
  uint32_t compute_pgm_rsrc2;
  uint16_t kernel_code_properties;
  uint8_t reserved2[6];
};
static_assert(sizeof(KernelDescriptor) == 64);
static_assert(offsetof(KernelDescriptor, kernel_code_entry_byte_offset) == 16);
static_assert(offsetof(KernelDescriptor, compute_pgm_rsrc3) == 44);
static_assert(offsetof(KernelDescriptor, compute_pgm_rsrc1) == 48);
static_assert(offsetof(KernelDescriptor, compute_pgm_rsrc2) == 52);
static_assert(offsetof(KernelDescriptor, kernel_code_properties) == 56);

// kernel_code_properties bits (AMDHSAKernelDescriptor.h KERNEL_CODE_PROPERTY_*), in user-SGPR order.
enum KernelCodeProperty : uint16_t {
  kEnablePrivateSegmentBuffer = 1u << 0,  // 4 SGPRs
  kEnableDispatchPtr = 1u << 1,           // 2
  kEnableQueuePtr = 1u << 2,              // 2
  kEnableKernargSegmentPtr = 1u << 3,     // 2
  kEnableDispatchId = 1u << 4,            // 2
  kEnableFlatScratchInit = 1u << 5,       // 2
  kEnablePrivateSegmentSize = 1u << 6,    // 1
  kReservedProperties0 = 0x7u << 7,
  kEnableWavefrontSize32 = 1u << 10,      // gfx10+: a gfx900 descriptor must not set it
  kUsesDynamicStack = 1u << 11,
  kReservedProperties1 = 0xfu << 12,
};

// The fields of compute_pgm_rsrc1/2 the wave setup needs.
struct DescriptorFields {
  uint32_t vgprs = 0;           // (GRANULATED_WORKITEM_VGPR_COUNT + 1) * 4
  uint32_t sgprs = 0;           // (GRANULATED_WAVEFRONT_SGPR_COUNT + 1) * 16 (gfx9)
  uint32_t user_sgpr_count = 0;  // rsrc2 USER_SGPR_COUNT
  bool private_segment_wave_offset = false;  // rsrc2 bit 0 (SCRATCH_EN)
  bool workgroup_id[3] = {};     // rsrc2 bits 7..9
  bool workgroup_info = false;   // rsrc2 bit 10
  uint32_t workitem_id_dims = 1;  // rsrc2 ENABLE_VGPR_WORKITEM_ID + 1: v0..v(n-1)
};

DescriptorFields decode_fields(const KernelDescriptor& kd) noexcept;

struct DescriptorRead {
  std::optional<KernelDescriptor> descriptor;  // set when valid
  uint64_t code_va = 0;
  bool fault = false;  // the descriptor or its first code dword did not translate
  std::string why;     // when not valid: which check failed
};

// ISA-DISP-1: reads and checks the descriptor at `va`: 64-byte aligned, reserved
// fields zero, not rsrc1, rsrc2 and properties all zero, wave64 (no WAVEFRONT_SIZE32), rsrc3 zero (gfx900 has none), entry
// 256-byte aligned and translatable for execution.
DescriptorRead read_kernel_descriptor(uint64_t va, MemoryAccess& memory);

}  // namespace rocref::gpu::isa
