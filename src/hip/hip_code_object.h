// hip/hip_code_object.h - reading gfx code objects: clang offload bundles and AMDGPU ELF files.
//
// What registration needs before the device is open (the code object is loaded
// later, clr/program.h): which kernels and globals a code object defines, each
// kernel's group segment, and each global's initial bytes. Every read is bounds-checked: malformed input
// yields false, never a crash (spec/hip.md HIP-MOD-1).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace rocref::hip {

struct CodeObjectKernel {
  std::string name;
  uint32_t group_segment = 0;  // kernel descriptor's group_segment_fixed_size
};

struct CodeObjectGlobal {
  std::string name;
  size_t size = 0;
  std::vector<uint8_t> init;  // initial bytes (zeros for .bss)
};

struct CodeObject {
  std::vector<CodeObjectKernel> kernels;
  std::vector<CodeObjectGlobal> globals;
};

inline constexpr char kBundleMagic[] = "__CLANG_OFFLOAD_BUNDLE__";

bool is_bundle(const void* data, size_t size);
bool is_elf(const void* data, size_t size);
// The size of an ELF image from its headers (the end of its section header table), or 0.
size_t elf_size(const void* data);
// The bytes of the bundle entry whose target names `isa` (e.g. gfx900); the entry's target in *target.
// `size` may be 0 when unknown (fat binaries): entries are then trusted to lie inside memory.
bool bundle_entry(const void* bundle, size_t size, const std::string& isa, std::vector<uint8_t>* out,
                  std::string* target);
// Kernels and globals of an AMDGPU ELF code object.
bool parse_code_object(const uint8_t* image, size_t size, CodeObject* out);

}  // namespace rocref::hip
