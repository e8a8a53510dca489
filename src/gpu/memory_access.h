// gpu/memory_access.h - how GPU-model engines reach memory: always through translation.
//
// The packet processor and SDMA never dereference a guest address directly;
// they ask a MemoryAccess for a host pointer to [va, va + size) with the access
// they need. GPUVM implements it with per-VMID page tables (an unmapped or
// read-only page is a GPU page fault reported to the KFD model); FlatMemory is
// the identity used when the engines run without a KFD (unit tests, benchmarks).
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>

namespace rocref::gpu {

enum class Access : uint8_t { Read = 1, Write = 2, ReadWrite = 3, Execute = 4 };

// GPU-GRAIN-1 (spec/adversarial-gpu.md): how the agent's L2 treats a page, from the gfx9 MTYPE
// its mapping carries. Fine (MTYPE_UC): uncached, coherent with the host and other agents.
// Coarse (MTYPE_NC): cached in the agent's write-back L2; coherent only at fence scopes.
enum class Grain : uint8_t { Fine, Coarse };

class MemoryAccess;
// Called when [va, va + size) of `memory` stops being mapped (and with the whole space when a
// MemoryAccess dies): a GPU cache drops its lines there before the memory can be reused.
using UnmapListener = void (*)(const MemoryAccess* memory, uint64_t va, uint64_t size) noexcept;
inline std::atomic<UnmapListener> g_unmap_listener{nullptr};

class MemoryAccess {
 public:
  virtual ~MemoryAccess() { unmapped(0, ~uint64_t{0}); }
  // Host pointer for the whole range, or nullptr after reporting a fault.
  // GPU VA equals host VA in rocref, but callers must use the returned pointer.
  virtual void* translate(uint64_t va, size_t size, Access access) noexcept = 0;

  template <typename T>
  T* as(uint64_t va, Access access) noexcept {
    return static_cast<T*>(translate(va, sizeof(T), access));
  }

  // The grain of the (mapped) page of va; asked only by the adversarial GPU's L2.
  virtual Grain grain(uint64_t) noexcept { return Grain::Fine; }

 protected:
  void unmapped(uint64_t va, uint64_t size) const noexcept {
    if (UnmapListener f = g_unmap_listener.load(std::memory_order_acquire)) f(this, va, size);
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
