// common/code_object_metadata.h - the AMDGPU code object's kernel metadata (NT_AMDGPU_METADATA).
//
// Code object v3/v4 (Debian's hipcc 5.2.3 writes v4) carries one note, owner "AMDGPU",
// type NT_AMDGPU_METADATA (32), whose descriptor is a msgpack map: amdhsa.kernels[] with
// each kernel's .name, .symbol, segment sizes and .args (.offset, .size, .value_kind).
// The HSA loader reads it for the symbols' kernarg size and alignment (ROCR's role), the
// command layer for the argument layout (ROCclr's role). Malformed input gives false.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace rocref::code_object {

inline constexpr uint32_t kNoteAmdgpuMetadata = 32;  // NT_AMDGPU_METADATA

struct KernelArg {
  uint32_t offset = 0;
  uint32_t size = 0;
  std::string value_kind;  // by_value, global_buffer, hidden_global_offset_x, hidden_none, ...
};

struct KernelMetadata {
  std::string name;    // .name
  std::string symbol;  // .symbol: the descriptor's ELF symbol, "<name>.kd"
  uint32_t kernarg_segment_size = 0;
  uint32_t kernarg_segment_align = 16;
  uint32_t group_segment_fixed_size = 0;
  uint32_t private_segment_fixed_size = 0;
  uint32_t max_flat_workgroup_size = 0;  // 0: not stated
  std::vector<KernelArg> args;
};

// The kernels of the metadata note of an ELF image; false when the note is missing or malformed.
bool read_kernel_metadata(const uint8_t* image, size_t size, std::vector<KernelMetadata>* kernels);
// The same from the msgpack bytes of the note's descriptor.
bool parse_metadata_msgpack(const uint8_t* bytes, size_t size, std::vector<KernelMetadata>* kernels);

}  // namespace rocref::code_object
