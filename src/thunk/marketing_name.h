// thunk/marketing_name.h - a node's marketing name, found as libhsakmt finds it.
//
// libhsakmt asks libdrm: amdgpu_device_initialize on the node's render node, then
// amdgpu_get_marketing_name, which looks the AMDGPU_INFO_DEV_INFO device id and PCI revision up
// in libdrm's amdgpu.ids. The same here, through the transport (THUNK-TOPO-1): ROCR reports the
// name as the agent's product name, ROCclr as the HIP device's name.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "thunk/transport.h"

namespace rocref::thunk {

// libdrm's table, installed by libdrm-common.
inline constexpr const char* kAmdgpuIdsPath = "/usr/share/libdrm/amdgpu.ids";

// The name amdgpu.ids (its text) gives device_id and revision, as libdrm's parser reads it:
// '#' comments, a version line, then "DEVICE_ID, REVISION, NAME" lines in hexadecimal.
std::optional<std::string> amdgpu_ids_name(std::string_view ids_text, uint32_t device_id, uint32_t revision);
// The text of amdgpu.ids ("" when it is not installed).
std::string read_amdgpu_ids();
// The marketing name of the GPU behind render node `minor`, looked up in `ids_text` (amdgpu.ids),
// or "" (no such node, no answer from the driver, no entry: libhsakmt then leaves it empty too).
std::string marketing_name(Transport& t, uint32_t render_minor, std::string_view ids_text);
// A CPU node's name, as libhsakmt takes it: the "model name" /proc/cpuinfo gives the processor
// whose apicid is the node's first core (else the first processor's), or "".
std::string cpu_model_name(std::string_view cpuinfo, uint32_t first_core_apicid);

}  // namespace rocref::thunk
