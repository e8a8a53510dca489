// hsa/isa.h - instruction set architectures: hsa_isa_t handles, names and attributes (HSA-ISA-1..3).
//
// As ROCR 5.2.3: the runtime knows every AMDGPU processor it supports, each in every
// combination of its target features (sramecc, xnack: any, off '-', on '+'), whether or not
// an agent of it is present; hsa_isa_from_name resolves any of them. A handle is the address of
// an entry of one table built once, so one ISA has one handle, and a handle that is no entry is
// refused before it is read. A GPU agent has one ISA: its processor with the agent's xnack mode;
// a CPU agent has none.
#pragma once

#include <hsa/hsa.h>

#include <cstdint>
#include <string>
#include <string_view>

namespace rocref::hsa {

enum class TargetFeature : uint8_t { Unsupported, Any, Off, On };

struct Isa {
  std::string_view processor;  // "gfx900"
  TargetFeature sramecc = TargetFeature::Unsupported;
  TargetFeature xnack = TargetFeature::Unsupported;
  uint32_t wavefront_size = 64;
  std::string full_name;  // "amdgcn-amd-amdhsa--gfx900:xnack-"
};

// The entry `isa` names, or nullptr (no handle the runtime gave out).
const Isa* isa_of(hsa_isa_t isa) noexcept;
hsa_isa_t isa_handle(const Isa& isa) noexcept;
// An ISA has one wavefront (its wavefront_size): the handle is that member's address.
hsa_wavefront_t wavefront_handle(const Isa& isa) noexcept;
const Isa* isa_of_wavefront(hsa_wavefront_t wavefront) noexcept;
// HSA-ISA-1: the ISA of a full name ("amdgcn-amd-amdhsa--" processor, then ":sramecc±" and
// ":xnack±" in that order, each only where the processor has the feature), or nullptr.
const Isa* isa_by_name(std::string_view name) noexcept;
// A GPU agent's ISA: its processor, sramecc as the processor allows it (any), xnack as asked.
const Isa* agent_isa(std::string_view processor, bool xnack_on) noexcept;

// HSA-ISA-2: hsa_isa_get_info_alt's answer (and hsa_isa_get_info's for call convention 0).
hsa_status_t isa_get_info(const Isa& isa, hsa_isa_info_t attribute, void* value) noexcept;
// HSA-ISA-3: whether code built for `code` runs on an agent of `agent`: the same processor, and
// each feature either unspecified (any) in the code or equal.
bool isa_compatible(const Isa& code, const Isa& agent) noexcept;

}  // namespace rocref::hsa
