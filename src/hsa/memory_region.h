// hsa/memory_region.h - a memory region / AMD memory pool and its allocator.
//
// One object answers both hsa_region_get_info and hsa_amd_memory_pool_get_info
// (ROCR keeps regions and pools as one object too). Kinds, as ROCR 5.2.3 lists
// them: coarse-grained VRAM and the group segment (LDS, not allocatable) of a GPU
// node; fine-grained, kernarg and coarse-grained system memory of the CPU node
// (HSA-MEM-1). Allocation goes through hsaKmtAllocMemory and
// hsaKmtMapMemoryToGPU, so the GPU model reaches the memory through GPUVM.
#pragma once

#include <hsa/hsa.h>
#include <hsa/hsa_ext_amd.h>
#include <hsakmt.h>

#include <cstddef>
#include <cstdint>

namespace rocref::hsa {

class Agent;

class MemoryRegion {
 public:
  enum class Kind { DeviceLocal, Group, System, Kernarg, SystemCoarse };
  static constexpr size_t kGranule = 4096;

  MemoryRegion(Agent& owner, Kind kind, uint64_t size) noexcept : owner_(owner), kind_(kind), size_(size) {}

  uint64_t handle() const noexcept { return reinterpret_cast<uint64_t>(this); }
  Agent& owner() const noexcept { return owner_; }
  Kind kind() const noexcept { return kind_; }
  uint64_t size() const noexcept { return size_; }
  bool is_system() const noexcept {
    return kind_ == Kind::System || kind_ == Kind::Kernarg || kind_ == Kind::SystemCoarse;
  }
  bool allocatable() const noexcept { return kind_ != Kind::Group; }
  // ROCR lets one system-memory allocation be twice the system memory (measured); VRAM its size.
  size_t alloc_max_size() const noexcept { return is_system() ? 2 * size_ : allocatable() ? size_ : 0; }
  uint32_t global_flags() const noexcept;

  // HSA_STATUS_ERROR_INVALID_ARGUMENT for an unknown attribute.
  hsa_status_t get_region_info(uint32_t attribute, void* value) const;
  hsa_status_t get_pool_info(uint32_t attribute, void* value) const;
  // hsa_amd_agent_memory_pool_get_info: how `agent` may reach this pool.
  hsa_status_t get_agent_access_info(const Agent& agent, uint32_t attribute, void* value) const;

  // Thunk-level allocation of `size` bytes (a granule multiple); OUT_OF_RESOURCES on failure.
  hsa_status_t allocate_pages(size_t size, void** ptr) const;
  void free_pages(void* ptr, size_t size) const;

 private:
  HsaMemFlags thunk_flags() const noexcept;

  Agent& owner_;
  Kind kind_;
  uint64_t size_;
};

}  // namespace rocref::hsa
