// clr/memory_registry.h - every allocation the command layer made, by address.
//
// ROCclr's amd::MemObjMap role: hipFree, hipMemcpy(Default) and hipMemset need
// to know whether an address lies inside device, host or managed memory.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <mutex>
#include <optional>
#include <vector>

namespace rocref::clr {

// Registered: host memory the program owns and the command layer pins (hipHostRegister).
// DeviceFineGrained: device memory coherent with the host (hipExtMallocWithFlags), from the system pool.
enum class MemoryKind : uint8_t { Device, Host, Managed, Registered, DeviceFineGrained };

struct Allocation {
  void* base = nullptr;
  size_t size = 0;
  MemoryKind kind = MemoryKind::Device;
  unsigned flags = 0;      // the API's allocation flags (hipHostMalloc*, hipHostRegister*)
  size_t pitch = 0;        // row pitch of a pitched allocation, else 0
  int device = 0;          // ordinal of the device whose pool made it (clr::Device)
  void* agent_base = nullptr;  // Registered: where the GPUs reach `base` (hsa_amd_memory_lock's agent pointer);
                               // null when not pinned
};

class MemoryRegistry {
 public:
  static MemoryRegistry& instance();

  void add(const Allocation& allocation);
  // Removes the allocation that starts exactly at base; nullopt if none does.
  std::optional<Allocation> remove(const void* base);
  // The allocation containing [address, address + size), if any.
  std::optional<Allocation> find(const void* address, size_t size = 1) const;
  // True when any byte of [address, address + size) lies in a recorded allocation.
  bool overlaps(const void* address, size_t size) const;
  // Every recorded allocation (a copy: peer access maps the ones of a device).
  std::vector<Allocation> all() const;

 private:
  mutable std::mutex mutex_;
  std::map<uintptr_t, Allocation> by_base_;
};

}  // namespace rocref::clr
