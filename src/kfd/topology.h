// kfd/topology.h - the modeled machine and the sysfs topology tree generated from it.
//
// One description (a CPU node and N gfx900-class GPU nodes, N = 1 unless configured) produces every file
// under /sys/devices/virtual/kfd/kfd/topology that libhsakmt reads (FACTS.md),
// with counts that agree with the directories (KFD-TOPO-2: ROCR asserts on
// inconsistencies). Values are decimal integers, one "name value" a line.
// The same CPU description also gives the kernel's other views of that CPU
// (/proc/cpuinfo, /sys/devices/system/cpu, /sys/devices/system/node: KFD-TOPO-6),
// so the modelled machine is one machine whichever file a library reads.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "kfd/cpu_topology.h"
#include "kfd/sysfs_tree.h"

namespace rocref::kfd {

struct GpuDescription {
  uint32_t gpu_id = 0x4c4e;           // what amdkfd derives by hashing the PCI location
  std::string name = "gfx900";
  uint32_t gfx_target_version = 90000;
  uint32_t vendor_id = 0x1002;
  uint32_t device_id = 0x6860;        // Vega 10
  uint32_t pci_revision = 0x00;       // with 0x6860: Radeon Instinct MI25 (libdrm's amdgpu.ids)
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
  // The HWS model's hardware queue slots (HQDs), pipes x slots: amdgpu gives KFD the first MEC's
  // 4 pipes x 8 queues less the 2 per pipe it keeps for its own compute rings (num_cp_queues 24).
  uint32_t hw_pipes = 4;
  uint32_t hw_slots_per_pipe = 6;
  // amdkfd's max_proc_per_quantum: min(hws_max_conc_proc, KFD's 8 VMIDs) processes per runlist.
  uint32_t max_proc_per_quantum = 8;
  uint32_t simd_id_base = 0x80001000;
  // The PCIe link's AtomicOp completion (PCI_EXP_DEVCAP2_ATOMIC_COMP32/64) and amdgpu's
  // pci_atomic_requested: without them amdkfd sets the link's NO_ATOMICS flags (KFD-TOPO-7).
  bool pcie_atomics = true;
};

// The description of GPU `index` of a machine of several identical GPUs: each on its own PCI bus
// (03:00.0, 04:00.0, ...), so with its own location_id, gpu_id (amdkfd's kfd_generate_gpu_id
// hashes the location among other properties), render minor (128, 129, ...) and SIMD id base.
// Index 0 is GpuDescription{} itself (KFD-TOPO-8).
GpuDescription gpu_description(uint32_t index);
// GPU descriptions 0..count-1 (count clamped to 1..kMaxGpus).
std::vector<GpuDescription> machine_gpus(uint32_t count);
inline constexpr uint32_t kMaxGpus = 8;

// io_link "flags" bits (kfd_crat.h CRAT_IOLINK_FLAGS_*; hsakmttypes.h HSA_LINKPROPERTY).
inline constexpr uint32_t kIoLinkEnabled = 1u << 0;
inline constexpr uint32_t kIoLinkNonCoherent = 1u << 1;
inline constexpr uint32_t kIoLinkNoAtomics32 = 1u << 2;
inline constexpr uint32_t kIoLinkNoAtomics64 = 1u << 3;
inline constexpr uint32_t kIoLinkTypePcie = 2;  // HSA_IOLINKTYPE_PCIEXPRESS
// Weights (kfd_crat.h KFD_CRAT_*_WEIGHT role): a GPU's PCIe link to the CPU, and a peer link
// through the CPU root complex, which amdkfd's kfd_create_indirect_link_prop sums (KFD-TOPO-8).
inline constexpr uint32_t kPcieLinkWeight = 20;
inline constexpr uint32_t kPeerLinkWeight = 2 * kPcieLinkWeight;

class Topology {
 public:
  explicit Topology(GpuDescription gpu, CpuDescription cpu = {});
  // Node 0 the CPU, node 1 + i GPU i (KFD-TOPO-8). gpus must not be empty.
  explicit Topology(std::vector<GpuDescription> gpus, CpuDescription cpu = {});

  const GpuDescription& gpu(uint32_t index = 0) const noexcept { return gpus_[index]; }
  uint32_t gpu_count() const noexcept { return static_cast<uint32_t>(gpus_.size()); }
  const CpuDescription& cpu() const noexcept { return cpu_; }
  uint32_t gpu_node(uint32_t index = 0) const noexcept { return 1 + index; }
  // The index of the GPU with this gpu_id (or render minor); nullopt when no GPU has it.
  std::optional<uint32_t> gpu_index(uint32_t gpu_id) const noexcept;
  std::optional<uint32_t> gpu_index_by_minor(uint32_t minor) const noexcept;
  uint32_t hw_queue_slots() const noexcept { return gpus_[0].hw_pipes * gpus_[0].hw_slots_per_pipe; }

  // Paths may start with /sys/devices/virtual/kfd/kfd/topology or /sys/class/kfd/kfd/topology,
  // or name the CPU's kernel files: /proc/cpuinfo, /sys/devices/system/cpu, /sys/devices/system/node.
  std::optional<std::string> read(std::string_view path) const;
  std::optional<std::vector<std::string>> list(std::string_view dir) const;
  // The target of a symlink (relative, as sysfs writes it), e.g. node/node0/cpu0 -> ../../cpu/cpu0.
  std::optional<std::string> link(std::string_view path) const;

 private:
  // The tree holding `path` and the path inside it; nullptr if the model has no such file.
  std::pair<const SysfsTree*, std::string> locate(std::string_view path) const;

  void add_gpu_node(uint32_t index);

  std::vector<GpuDescription> gpus_;
  CpuDescription cpu_;
  SysfsTree kfd_;     // relative to the topology root
  SysfsTree kernel_;  // relative to "/": the CPU's files outside the KFD
};

}  // namespace rocref::kfd
