// gpu/memory_access.h - how GPU-model engines reach memory: always through translation.
//
// The packet processor and SDMA never dereference a guest address directly;
// they ask a MemoryAccess for a host pointer to [va, va + size) with the access
// they need. GPUVM implements it with per-VMID page tables (an unmapped or
// read-only page is a GPU page fault reported to the KFD model); FlatMemory is
// the identity used when the engines run without a KFD (unit tests, benchmarks).
#pragma once

#include <cstddef>
#include <cstdint>

namespace rocref::gpu {

enum class Access : uint8_t { Read = 1, Write = 2, ReadWrite = 3, Execute = 4 };

class MemoryAccess {
 public:
  virtual ~MemoryAccess() = default;
  // Host pointer for the whole range, or nullptr after reporting a fault.
  // GPU VA equals host VA in rocref, but callers must use the returned pointer.
  virtual void* translate(uint64_t va, size_t size, Access access) noexcept = 0;

  template <typename T>
  T* as(uint64_t va, Access access) noexcept {
    return static_cast<T*>(translate(va, sizeof(T), access));
  }
};

// Identity translation over the host address space; rejects only null and wrap-around.
class FlatMemory final : public MemoryAccess {
 public:
  void* translate(uint64_t va, size_t size, Access) noexcept override {
    if (va == 0 || va + size < va) return nullptr;
    return reinterpret_cast<void*>(static_cast<uintptr_t>(va));
  }
};

}  // namespace rocref::gpu
