// clr/memory.h - memory objects: allocation, pinning and release through the device's pools.
//
// ROCclr's amd::Memory / roc::Memory role: every allocation the runtime hands
// out is made here (hsa_amd_memory_pool_allocate on the pool its kind needs,
// made accessible to the GPU and the CPU) and recorded in the MemoryRegistry,
// so copies, fills and pointer queries find it by address.
#pragma once

#include <hsa/hsa.h>

#include <cstddef>
#include <optional>

#include "clr/memory_registry.h"

namespace rocref::clr {

class Device;

// Allocates `size` (> 0) bytes of `kind` (Device, Host or Managed) memory.
// HSA_STATUS_ERROR_OUT_OF_RESOURCES when the pool cannot hold it.
hsa_status_t create_memory(Device& device, MemoryKind kind, size_t size, unsigned flags, size_t pitch, void** base);
// Pins program-owned host memory [base, base + size) (kind Registered): locked through HSA
// (hsa_amd_memory_lock) for every GPU agent, so kernels reach it at the agent pointer the lock
// gives (Allocation::agent_base). HSA_STATUS_ERROR_INVALID_ARGUMENT when any of it is already
// known to the registry; the lock's status when it fails (nothing is registered).
// Pin::No records the range only (HIP's planted HostRegisterNotPinned bug).
enum class Pin : bool { No, Yes };
hsa_status_t register_host_memory(void* base, size_t size, unsigned flags, Pin pin = Pin::Yes);
// Releases the allocation that starts at `base`; its record, or nullopt when
// `base` starts none (then nothing changes).
std::optional<Allocation> release_memory(void* base);
// Bytes of device `device`'s memory allocated and not yet released.
size_t device_bytes_in_use(int device);

}  // namespace rocref::clr
