// kfd/topology.cpp - generates the sysfs topology files from the machine description.
#include "kfd/topology.h"

#include <algorithm>
#include <initializer_list>
#include <utility>

namespace rocref::kfd {
namespace {

constexpr std::string_view kRoots[] = {"/sys/devices/virtual/kfd/kfd/topology", "/sys/class/kfd/kfd/topology"};

using Props = std::initializer_list<std::pair<const char*, uint64_t>>;

std::string render(Props props) {
  std::string out;
  for (const auto& [k, v] : props) out += std::string(k) + " " + std::to_string(v) + "\n";
  return out;
}

// HSA_CAPABILITY (hsakmttypes.h): QueueSizePowerOfTwo bit 3, QueueSize32bit bit 4,
// DoorbellType bits 12..13 = 2 (the SOC15 64-bit doorbells ROCR requires on gfx9),
// SVMAPISupported bit 27 (HSA_CAP_SVMAPI_SUPPORTED: AMDKFD_IOC_SVM is modelled, KFD-SVM-6).
constexpr uint64_t kGpuCapability = (1u << 3) | (1u << 4) | (2u << 12) | (1u << 27);
// HsaCacheType: Data (bit 0) | HSACU (bit 3); ROCR needs one HSACU cache on a GPU node.
constexpr uint64_t kGpuCacheType = 9;
constexpr uint64_t kIoLinkTypePcie = 2;  // HSA_IOLINKTYPE_PCIEXPRESS

// KFD-TOPO-7: the flags kfd_fill_iolink_non_crat_info gives a PCIe link. Both directions are
// enabled; the CPU->GPU direction is non-coherent (kfd_set_iolink_non_coherent); without PCIe
// atomics both carry NO_ATOMICS_32/64 (kfd_set_iolink_no_atomics).
uint64_t io_link_flags(const GpuDescription& gpu, bool cpu_to_gpu) {
  uint64_t flags = kIoLinkEnabled;
  if (cpu_to_gpu) flags |= kIoLinkNonCoherent;
  if (!gpu.pcie_atomics) flags |= kIoLinkNoAtomics32 | kIoLinkNoAtomics64;
  return flags;
}

}  // namespace

Topology::Topology(GpuDescription g, CpuDescription c) : gpu_(std::move(g)), cpu_(std::move(c)) {
  cpu_.logical_processors = std::clamp<uint32_t>(cpu_.logical_processors, 1, 256);  // HSA_CPU_SIBLINGS
  const uint64_t cores = cpu_.logical_processors;
  const auto cpu_caches = cpu_cache_instances(cpu_);
  auto add = [this](const std::string& rel, std::string content) { kfd_.add_file(rel, std::move(content)); };
  add("generation_id", "1\n");
  add("system_properties", render({{"platform_oem", 0}, {"platform_id", 0}, {"platform_rev", 0}}));

  // Node 0: the CPU.
  add("nodes/0/gpu_id", "0\n");
  add("nodes/0/name", "\n");
  add("nodes/0/properties",
      render({{"cpu_cores_count", cores}, {"simd_count", 0}, {"mem_banks_count", 1}, {"caches_count", cpu_caches.size()},
              {"io_links_count", 1}, {"p2p_links_count", 0}, {"cpu_core_id_base", 0}, {"simd_id_base", 0},
              {"max_waves_per_simd", 0}, {"lds_size_in_kb", 0}, {"gds_size_in_kb", 0}, {"num_gws", 0},
              {"wave_front_size", 0}, {"array_count", 0}, {"simd_arrays_per_engine", 0},
              {"cu_per_simd_array", 0}, {"simd_per_cu", 0}, {"max_slots_scratch_cu", 0},
              {"gfx_target_version", 0}, {"vendor_id", 0}, {"device_id", 0}, {"location_id", 0},
              {"domain", 0}, {"drm_render_minor", 0}, {"hive_id", 0}, {"num_sdma_engines", 0},
              {"num_sdma_xgmi_engines", 0}, {"num_sdma_queues_per_engine", 0}, {"num_cp_queues", 0},
              {"max_engine_clk_fcompute", 0}, {"local_mem_size", 0}, {"fw_version", 0}, {"capability", 0},
              {"debug_prop", 0}, {"sdma_fw_version", 0}, {"unique_id", 0}, {"max_engine_clk_ccompute", 3000}}));
  add("nodes/0/mem_banks/0/properties",
      render({{"heap_type", 0}, {"size_in_bytes", cpu_.memory_bytes}, {"flags", 0}, {"width", 64},
              {"mem_clk_max", 2400}}));
  add("nodes/0/io_links/0/properties",
      render({{"type", kIoLinkTypePcie}, {"version_major", 0}, {"version_minor", 0}, {"node_from", 0},
              {"node_to", 1}, {"weight", 20}, {"min_latency", 0}, {"max_latency", 0}, {"min_bandwidth", 312},
              {"max_bandwidth", 31200}, {"recommended_transfer_size", 0},
              {"flags", io_link_flags(gpu_, true)}}));
  // KFD-TOPO-5: the CPU's caches as a CRAT lists them (kfd_parse_subtype_cache).
  for (size_t i = 0; i < cpu_caches.size(); ++i)
    add("nodes/0/caches/" + std::to_string(i) + "/properties", kfd_cpu_cache_properties(cpu_, cpu_caches[i]));

  // Node 1: the gfx900-class GPU.
  add("nodes/1/gpu_id", std::to_string(gpu_.gpu_id) + "\n");
  add("nodes/1/name", gpu_.name + "\n");
  add("nodes/1/properties",
      render({{"cpu_cores_count", 0}, {"simd_count", uint64_t{gpu_.cu_count} * gpu_.simd_per_cu},
              {"mem_banks_count", 1}, {"caches_count", 2}, {"io_links_count", 1}, {"p2p_links_count", 0},
              {"cpu_core_id_base", 0}, {"simd_id_base", gpu_.simd_id_base},
              {"max_waves_per_simd", gpu_.max_waves_per_simd}, {"lds_size_in_kb", gpu_.lds_size_in_kb},
              {"gds_size_in_kb", 0}, {"num_gws", 0}, {"wave_front_size", gpu_.wave_front_size},
              {"array_count", gpu_.array_count}, {"simd_arrays_per_engine", 1},
              {"cu_per_simd_array", gpu_.cu_per_simd_array}, {"simd_per_cu", gpu_.simd_per_cu},
              {"max_slots_scratch_cu", 32}, {"gfx_target_version", gpu_.gfx_target_version},
              {"vendor_id", gpu_.vendor_id}, {"device_id", gpu_.device_id}, {"location_id", gpu_.location_id},
              {"domain", 0}, {"drm_render_minor", gpu_.drm_render_minor}, {"hive_id", 0},
              {"num_sdma_engines", gpu_.num_sdma_engines}, {"num_sdma_xgmi_engines", 0},
              {"num_sdma_queues_per_engine", gpu_.num_sdma_queues_per_engine},
              {"num_cp_queues", uint64_t{gpu_.hw_pipes} * gpu_.hw_slots_per_pipe},
              {"max_engine_clk_fcompute", gpu_.max_engine_clk_fcompute}, {"local_mem_size", gpu_.vram_size},
              {"fw_version", 405}, {"capability", kGpuCapability}, {"debug_prop", 0},
              {"sdma_fw_version", 430}, {"unique_id", 0}, {"max_engine_clk_ccompute", 3000}}));
  add("nodes/1/mem_banks/0/properties",
      render({{"heap_type", 1}, {"size_in_bytes", gpu_.vram_size}, {"flags", 0}, {"width", 2048},
              {"mem_clk_max", 945}}));
  add("nodes/1/caches/0/properties",
      render({{"processor_id_low", gpu_.simd_id_base}, {"level", 1}, {"size", 16}, {"cache_line_size", 64},
              {"cache_lines_per_tag", 1}, {"association", 4}, {"latency", 1}, {"type", kGpuCacheType},
              {"sibling_map", 1}}));
  add("nodes/1/caches/1/properties",
      render({{"processor_id_low", gpu_.simd_id_base}, {"level", 2}, {"size", 4096}, {"cache_line_size", 128},
              {"cache_lines_per_tag", 1}, {"association", 16}, {"latency", 100}, {"type", kGpuCacheType},
              {"sibling_map", 1}}));
  add("nodes/1/io_links/0/properties",
      render({{"type", kIoLinkTypePcie}, {"version_major", 0}, {"version_minor", 0}, {"node_from", 1},
              {"node_to", 0}, {"weight", 20}, {"min_latency", 0}, {"max_latency", 0}, {"min_bandwidth", 312},
              {"max_bandwidth", 31200}, {"recommended_transfer_size", 0},
              {"flags", io_link_flags(gpu_, false)}}));
  // Empty directories the thunk may list.
  for (const char* d : {"nodes/0/caches", "nodes/0/p2p_links", "nodes/1/p2p_links"}) kfd_.add_dir(d);

  add_cpu_kernel_files(cpu_, &kernel_);
}

std::pair<const SysfsTree*, std::string> Topology::locate(std::string_view path) const {
  while (path.size() > 1 && path.back() == '/') path.remove_suffix(1);
  const auto under = [&](std::string_view root) {
    return path == root || (path.size() > root.size() && path.substr(0, root.size()) == root && path[root.size()] == '/');
  };
  for (std::string_view root : kRoots) {
    if (under(root)) return {&kfd_, std::string(path.substr(std::min(path.size(), root.size() + 1)))};
  }
  for (std::string_view root : {"/proc/cpuinfo", "/sys/devices/system/cpu", "/sys/devices/system/node"}) {
    if (under(root)) return {&kernel_, std::string(path.substr(1))};
  }
  return {nullptr, std::string()};
}

std::optional<std::string> Topology::read(std::string_view path) const {
  const auto [tree, rel] = locate(path);
  return tree ? tree->read(rel) : std::nullopt;
}

std::optional<std::vector<std::string>> Topology::list(std::string_view dir) const {
  const auto [tree, rel] = locate(dir);
  return tree ? tree->list(rel) : std::nullopt;
}

std::optional<std::string> Topology::link(std::string_view path) const {
  const auto [tree, rel] = locate(path);
  return tree ? tree->link(rel) : std::nullopt;
}

}  // namespace rocref::kfd
