// clr/device.h - the GPU the command layer drives: its HSA agents, pools and limits.
//
// ROCclr's roc::Device role. Opens the HSA runtime on first use and finds the
// first GPU agent, the CPU agent, and the three pools every command needs:
// coarse-grained device memory (hipMalloc), fine-grained system memory
// (hipHostMalloc, staging) and the kernarg pool; and the completion signals
// every stream and event shares (signal_pool.h).
#pragma once

#include <hsa/hsa.h>
#include <hsa/hsa_ext_amd.h>

#include <cstddef>
#include <cstdint>
#include <string>

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
  // The device, opening HSA on first call; nullptr when HSA or a GPU agent is missing.
  static Device* get();
  // The HSA status of the first open (HSA_STATUS_SUCCESS when get() succeeded).
  static hsa_status_t open_status();

  hsa_agent_t gpu() const { return gpu_; }
  hsa_agent_t cpu() const { return cpu_; }
  hsa_amd_memory_pool_t device_pool() const { return device_pool_; }
  hsa_amd_memory_pool_t host_pool() const { return host_pool_; }
  hsa_amd_memory_pool_t kernarg_pool() const { return kernarg_pool_; }
  const DeviceInfo& info() const { return info_; }
  SignalPool& signal_pool() { return signal_pool_; }

 private:
  Device() = default;
  hsa_status_t open();

  hsa_agent_t gpu_{};
  hsa_agent_t cpu_{};
  hsa_amd_memory_pool_t device_pool_{};
  hsa_amd_memory_pool_t host_pool_{};
  hsa_amd_memory_pool_t kernarg_pool_{};
  DeviceInfo info_;
  SignalPool signal_pool_;
};

}  // namespace rocref::clr
