// clr/device.h - the GPU the command layer drives: its HSA agents, pools and limits.
//
// ROCclr's roc::Device role: one per GPU agent, in the order HSA lists them,
// each made on first use and kept for the process (choosing the current one is
// HIP's job). Opens the HSA runtime on first use and finds, for its GPU agent,
// the CPU agent and the three pools every command needs:
// coarse-grained device memory (hipMalloc), fine-grained system memory
// (hipHostMalloc, staging) and the kernarg pool; and the completion signals
// every stream and event shares (signal_pool.h).
#pragma once

#include <hsa/hsa.h>
#include <hsa/hsa_ext_amd.h>

#include <cstddef>
#include <cstdint>
#include <mutex>
#include <string>
#include <vector>

#include "clr/signal_pool.h"

namespace rocref::clr {

struct DeviceInfo {
  std::string name;          // marketing name of the agent
  std::string isa_name;      // e.g. gfx900
  uint32_t compute_units = 0;
  uint32_t wavefront_size = 64;
  uint32_t max_workgroup_size = 1024;
  uint16_t max_workgroup_dim[3] = {1024, 1024, 1024};
  uint32_t max_grid_dim[3] = {UINT32_MAX, UINT32_MAX, UINT32_MAX};
  uint32_t max_clock_mhz = 0;
  uint32_t group_segment_size = 65536;  // LDS per work-group
  uint64_t device_memory = 0;           // size of the device pool
  uint32_t bdf_id = 0;
  uint32_t gfx_major = 9, gfx_minor = 0;
};

class Device {
 public:
  // Device `ordinal` (0: the first GPU agent), opening HSA on first call; nullptr
  // when HSA, that GPU agent or its pools are missing.
  static Device* get(int ordinal = 0);
  // The number of GPU agents (0 when HSA did not open).
  static int count();
  // Every GPU agent, in ordinal order: memory every device may touch is mapped into all.
  static const std::vector<hsa_agent_t>& gpu_agents();
  // The HSA status of the first open (HSA_STATUS_SUCCESS when get() succeeded).
  static hsa_status_t open_status();

  int ordinal() const { return ordinal_; }
  // Peer access (HIP-PEER-2): `peer`'s GPU may reach this device's memory. Maps
  // every device allocation of this device made so far and each one made later
  // into the peer's VM. forbid_peer stops mapping later ones (existing mappings stay).
  hsa_status_t allow_peer(const Device& peer);
  void forbid_peer(const Device& peer);
  bool peer_allowed(const Device& peer) const;
  // The agents a new device allocation of this device is made accessible to.
  std::vector<hsa_agent_t> access_agents() const;

  hsa_agent_t gpu() const { return gpu_; }
  hsa_agent_t cpu() const { return cpu_; }
  hsa_amd_memory_pool_t device_pool() const { return device_pool_; }
  hsa_amd_memory_pool_t host_pool() const { return host_pool_; }
  hsa_amd_memory_pool_t kernarg_pool() const { return kernarg_pool_; }
  const DeviceInfo& info() const { return info_; }
  SignalPool& signal_pool() { return signal_pool_; }

 private:
  explicit Device(int ordinal) : ordinal_(ordinal) {}
  hsa_status_t open(hsa_agent_t gpu, hsa_agent_t cpu);

  int ordinal_ = 0;
  mutable std::mutex peers_mutex_;
  std::vector<hsa_agent_t> peers_;

  hsa_agent_t gpu_{};
  hsa_agent_t cpu_{};
  hsa_amd_memory_pool_t device_pool_{};
  hsa_amd_memory_pool_t host_pool_{};
  hsa_amd_memory_pool_t kernarg_pool_{};
  DeviceInfo info_;
  SignalPool signal_pool_;
};

}  // namespace rocref::clr
