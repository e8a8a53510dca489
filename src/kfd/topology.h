// kfd/topology.h - the modeled machine and the sysfs topology tree generated from it.
//
// One description (a CPU node and a gfx900-class GPU node) produces every file
// under /sys/devices/virtual/kfd/kfd/topology that libhsakmt reads (FACTS.md),
// with counts that agree with the directories (KFD-TOPO-2: ROCR asserts on
// inconsistencies). Values are decimal integers, one "name value" a line.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace rocref::kfd {

struct GpuDescription {
  uint32_t gpu_id = 0x4c4e;           // what amdkfd derives by hashing the PCI location
  std::string name = "gfx900";
  uint32_t gfx_target_version = 90000;
  uint32_t vendor_id = 0x1002;
  uint32_t device_id = 0x6860;        // Vega 10
  uint32_t location_id = 0x0300;      // PCI 03:00.0
  uint32_t drm_render_minor = 128;
  uint32_t cu_count = 64;
  uint32_t simd_per_cu = 4;
  uint32_t array_count = 4;
  uint32_t cu_per_simd_array = 16;
  uint32_t max_waves_per_simd = 10;
  uint32_t lds_size_in_kb = 64;
  uint32_t wave_front_size = 64;
  uint32_t max_engine_clk_fcompute = 1500;
  uint64_t vram_size = uint64_t{4} << 30;
  uint32_t num_sdma_engines = 2;
  uint32_t num_sdma_queues_per_engine = 2;
  uint32_t hw_pipes = 4;              // the HWS model's hardware queue slots: pipes x slots
  uint32_t hw_slots_per_pipe = 2;
  uint32_t simd_id_base = 0x80001000;
};

class Topology {
 public:
  explicit Topology(GpuDescription gpu);

  const GpuDescription& gpu() const noexcept { return gpu_; }
  uint32_t gpu_node() const noexcept { return 1; }
  uint32_t hw_queue_slots() const noexcept { return gpu_.hw_pipes * gpu_.hw_slots_per_pipe; }

  // Paths may start with /sys/devices/virtual/kfd/kfd/topology or /sys/class/kfd/kfd/topology.
  std::optional<std::string> read(std::string_view path) const;
  std::optional<std::vector<std::string>> list(std::string_view dir) const;

 private:
  static std::optional<std::string> relative(std::string_view path);
  void add(const std::string& rel, std::string content);

  GpuDescription gpu_;
  std::map<std::string, std::string> files_;              // relative path -> content
  std::map<std::string, std::vector<std::string>> dirs_;  // relative dir -> entries
};

}  // namespace rocref::kfd
