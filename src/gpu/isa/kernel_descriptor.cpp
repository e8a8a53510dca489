// gpu/isa/kernel_descriptor.cpp - reads and checks an AMDHSA kernel descriptor through GPU translation.
#include "gpu/isa/kernel_descriptor.h"

#include <cstring>

namespace rocref::gpu::isa {
namespace {

uint32_t bits(uint32_t word, unsigned lo, unsigned width) { return (word >> lo) & ((1u << width) - 1); }

bool all_zero(const uint8_t* p, size_t n) {
  for (size_t i = 0; i < n; ++i) {
    if (p[i] != 0) return false;
  }
  return true;
}

}  // namespace

DescriptorFields decode_fields(const KernelDescriptor& kd) noexcept {
  DescriptorFields f;
  f.vgprs = (bits(kd.compute_pgm_rsrc1, 0, 6) + 1) * 4;
  f.sgprs = (bits(kd.compute_pgm_rsrc1, 6, 4) + 1) * 16;
  f.user_sgpr_count = bits(kd.compute_pgm_rsrc2, 1, 5);
  f.private_segment_wave_offset = bits(kd.compute_pgm_rsrc2, 0, 1) != 0;
  for (unsigned d = 0; d < 3; ++d) f.workgroup_id[d] = bits(kd.compute_pgm_rsrc2, 7 + d, 1) != 0;
  f.workgroup_info = bits(kd.compute_pgm_rsrc2, 10, 1) != 0;
  f.workitem_id_dims = bits(kd.compute_pgm_rsrc2, 11, 2) + 1;
  return f;
}

DescriptorRead read_kernel_descriptor(uint64_t va, MemoryAccess& memory) {
  DescriptorRead r;
  if (va == 0 || va % 64 != 0) {
    r.why = "kernel object is not 64-byte aligned";
    return r;
  }
  const void* p = memory.translate(va, sizeof(KernelDescriptor), Access::Read);
  if (p == nullptr) {
    r.fault = true;
    r.why = "kernel descriptor not mapped";
    return r;
  }
  KernelDescriptor kd;
  std::memcpy(&kd, p, sizeof kd);
  if (!all_zero(kd.reserved0, sizeof kd.reserved0) || !all_zero(kd.reserved1, sizeof kd.reserved1) ||
      !all_zero(kd.reserved2, sizeof kd.reserved2) ||
      (kd.kernel_code_properties & (kReservedProperties0 | kReservedProperties1)) != 0) {
    r.why = "reserved descriptor fields are not zero";
    return r;
  }
  // Every LLVM-built gfx9 kernel sets its float modes in rsrc1 (DX10_CLAMP, IEEE_MODE, denorm
  // modes); a descriptor with rsrc1, rsrc2 and the properties all zero (rocref's own kernel
  // language, a zeroed object) describes no machine code.
  if (kd.compute_pgm_rsrc1 == 0 && kd.compute_pgm_rsrc2 == 0 && kd.kernel_code_properties == 0) {
    r.why = "descriptor sets no compute_pgm_rsrc fields: not a code object kernel";
    return r;
  }
  if ((kd.kernel_code_properties & kEnableWavefrontSize32) != 0 || kd.compute_pgm_rsrc3 != 0) {
    r.why = "descriptor is not for a wave64 gfx9 target";
    return r;
  }
  const uint64_t entry = va + static_cast<uint64_t>(kd.kernel_code_entry_byte_offset);
  if (entry % 256 != 0 || kd.kernel_code_entry_byte_offset == 0) {
    r.why = "kernel code entry is not 256-byte aligned";
    return r;
  }
  if (decode_fields(kd).user_sgpr_count > 16) {
    r.why = "more than 16 user SGPRs";
    return r;
  }
  r.code_va = entry;
  if (memory.translate(r.code_va, 4, Access::Read) == nullptr) {
    r.fault = true;
    r.why = "kernel code not mapped";
    return r;
  }
  r.descriptor = kd;
  return r;
}

}  // namespace rocref::gpu::isa
