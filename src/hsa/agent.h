// hsa/agent.h - one HSA agent: a CPU or GPU node of the KFD topology.
//
// Built from hsaKmtGetNodeProperties / hsaKmtGetNodeMemoryProperties at
// hsa_init (HSA-AGENT-1). The handle is the object's address; the runtime
// validates it against its agent list before any use (HSA-AGENT-2).
#pragma once

#include <hsa/hsa.h>
#include <hsa/hsa_ext_amd.h>
#include <hsakmt.h>

#include <algorithm>
#include <atomic>
#include <memory>
#include <string>
#include <vector>

#include "hsa/isa.h"

namespace rocref::hsa {

class MemoryRegion;

// hsa_cache_t: one data cache of an agent, as ROCR lists it (HSA-AGENT-5).
struct Cache {
  std::string name;  // "<agent name> L<level>"
  uint8_t level = 0;
  uint32_t size = 0;  // as the KFD reports it (KiB); ROCR passes it on unchanged
  hsa_cache_t handle() const noexcept { return {reinterpret_cast<uint64_t>(this)}; }
};

class Agent {
 public:
  static constexpr uint32_t kQueueMinSize = 64;        // packets; ROCR's minimum
  static constexpr uint32_t kQueueMaxSize = 131072;    // packets; ROCR's maximum (0x20000)
  static constexpr uint32_t kQueuesMax = 128;

  Agent(uint32_t node_id, const HsaNodeProperties& properties, hsa_device_type_t type);
  ~Agent();

  hsa_agent_t handle() const noexcept { return {reinterpret_cast<uint64_t>(this)}; }
  hsa_device_type_t type() const noexcept { return type_; }
  bool is_gpu() const noexcept { return type_ == HSA_DEVICE_TYPE_GPU; }
  uint32_t node_id() const noexcept { return node_id_; }
  const HsaNodeProperties& properties() const noexcept { return properties_; }
  const std::string& name() const noexcept { return name_; }
  // HSA-ISA-1: a GPU's instruction set (its processor in the process's XNACK mode); nullptr for a CPU.
  const Isa* isa() const noexcept { return isa_; }
  uint32_t compute_unit_count() const noexcept;
  // A GPU's VRAM bank (the node's memory properties, which Runtime::open reads once).
  void set_vram_bank(const HsaMemoryProperties& bank) noexcept {
    memory_width_ = bank.Width;
    memory_clock_mhz_ = bank.MemoryClockMax;
  }

  // HSA_AMD_AGENT_INFO_HDP_FLUSH: the MMIO_REMAP bank's page (HSA_HEAPTYPE_MMIO_REMAP).
  void set_hdp_flush_page(uint64_t page) noexcept {
    hdp_flush_.HDP_MEM_FLUSH_CNTL = reinterpret_cast<uint32_t*>(page);
    hdp_flush_.HDP_REG_FLUSH_CNTL = hdp_flush_.HDP_MEM_FLUSH_CNTL + 1;
  }

  // Regions this agent owns (its memory banks; for the CPU: system and kernarg).
  void add_region(std::unique_ptr<MemoryRegion> region);
  const std::vector<std::unique_ptr<MemoryRegion>>& owned_regions() const noexcept { return owned_; }
  // hsa_agent_iterate_regions: own regions plus, for a GPU, the host regions it can
  // use (ROCR lists the system and kernarg regions there, where samples look for them).
  void add_visible_region(MemoryRegion* region) { visible_.push_back(region); }
  const std::vector<MemoryRegion*>& visible_regions() const noexcept { return visible_; }

  // hsa_agent_iterate_caches: the node's data caches (a GPU's: those of its compute units).
  const std::vector<std::unique_ptr<Cache>>& caches() const noexcept { return caches_; }

  // HSA-AGENT-6: hsa_amd_coherency_get_type/_set_type. A GPU starts as ROCR's base-profile
  // agent does (non-coherent); the model's gfx9 has no APE1 aperture to program, so setting
  // only records the type, as ROCR does for every GPU but Kaveri.
  hsa_amd_coherency_type_t coherency_type() const noexcept { return coherency_.load(std::memory_order_relaxed); }
  void set_coherency_type(hsa_amd_coherency_type_t type) noexcept { coherency_.store(type, std::memory_order_relaxed); }

  // hsa_agent_get_info; HSA_STATUS_ERROR_INVALID_ARGUMENT for an unknown attribute.
  hsa_status_t get_info(uint32_t attribute, void* value) const;

 private:
  uint32_t node_id_;
  HsaNodeProperties properties_;
  hsa_device_type_t type_;
  std::string name_;
  const Isa* isa_ = nullptr;
  uint32_t cache_bytes_[4] = {};  // L1..L4, bytes
  uint32_t memory_width_ = 0;     // a GPU's VRAM bank: bus width in bits
  uint32_t memory_clock_mhz_ = 0;  // and its maximum clock
  hsa_amd_hdp_flush_t hdp_flush_{};
  std::vector<std::unique_ptr<Cache>> caches_;
  std::atomic<hsa_amd_coherency_type_t> coherency_{HSA_AMD_COHERENCY_TYPE_NONCOHERENT};
  std::vector<std::unique_ptr<MemoryRegion>> owned_;
  std::vector<MemoryRegion*> visible_;
};

}  // namespace rocref::hsa
