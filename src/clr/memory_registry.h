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

namespace rocref::clr {

enum class MemoryKind : uint8_t { Device, Host, Managed };

struct Allocation {
  void* base = nullptr;
  size_t size = 0;
  MemoryKind kind = MemoryKind::Device;
};

class MemoryRegistry {
 public:
  static MemoryRegistry& instance();

  void add(const Allocation& allocation);
  // Removes the allocation that starts exactly at base; nullopt if none does.
  std::optional<Allocation> remove(const void* base);
  // The allocation containing [address, address + size), if any.
  std::optional<Allocation> find(const void* address, size_t size = 1) const;

 private:
  mutable std::mutex mutex_;
  std::map<uintptr_t, Allocation> by_base_;
};

}  // namespace rocref::clr
