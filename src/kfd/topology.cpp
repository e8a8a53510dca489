// kfd/topology.cpp - generates the sysfs topology files from the machine description.
#include "kfd/topology.h"

#include <unistd.h>

#include <algorithm>
#include <initializer_list>
#include <thread>
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

uint64_t host_memory_bytes() {
  const long pages = sysconf(_SC_PHYS_PAGES);
  const long page = sysconf(_SC_PAGESIZE);
  return (pages > 0 && page > 0) ? uint64_t(pages) * uint64_t(page) : uint64_t{8} << 30;
}

// HSA_CAPABILITY (hsakmttypes.h): QueueSizePowerOfTwo bit 3, QueueSize32bit bit 4,
// DoorbellType bits 12..13 = 2 (the SOC15 64-bit doorbells ROCR requires on gfx9).
constexpr uint64_t kGpuCapability = (1u << 3) | (1u << 4) | (2u << 12);
// HsaCacheType: Data (bit 0) | HSACU (bit 3); ROCR needs one HSACU cache on a GPU node.
constexpr uint64_t kGpuCacheType = 9;
constexpr uint64_t kIoLinkTypePcie = 2;  // HSA_IOLINKTYPE_PCIEXPRESS

}  // namespace

Topology::Topology(GpuDescription g) : gpu_(std::move(g)) {
  const uint64_t cores = std::max(1u, std::thread::hardware_concurrency());
  add("generation_id", "1\n");
  add("system_properties", render({{"platform_oem", 0}, {"platform_id", 0}, {"platform_rev", 0}}));

  // Node 0: the CPU.
  add("nodes/0/gpu_id", "0\n");
  add("nodes/0/name", "\n");
  add("nodes/0/properties",
      render({{"cpu_cores_count", cores}, {"simd_count", 0}, {"mem_banks_count", 1}, {"caches_count", 0},
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
      render({{"heap_type", 0}, {"size_in_bytes", host_memory_bytes()}, {"flags", 0}, {"width", 64},
              {"mem_clk_max", 2400}}));
  add("nodes/0/io_links/0/properties",
      render({{"type", kIoLinkTypePcie}, {"version_major", 0}, {"version_minor", 0}, {"node_from", 0},
              {"node_to", 1}, {"weight", 20}, {"min_latency", 0}, {"max_latency", 0}, {"min_bandwidth", 312},
              {"max_bandwidth", 31200}, {"recommended_transfer_size", 0}, {"flags", 0}}));

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
              {"max_bandwidth", 31200}, {"recommended_transfer_size", 0}, {"flags", 0}}));
  // Empty directories the thunk may list.
  for (const char* d : {"nodes/0/caches", "nodes/0/p2p_links", "nodes/1/p2p_links"}) {
    const std::string dir = d;
    dirs_[dir];
    const auto slash = dir.rfind('/');
    auto& parent = dirs_[dir.substr(0, slash)];
    const std::string leaf = dir.substr(slash + 1);
    if (std::find(parent.begin(), parent.end(), leaf) == parent.end()) parent.push_back(leaf);
  }
}

void Topology::add(const std::string& rel, std::string content) {
  files_[rel] = std::move(content);
  std::string child = rel;
  while (true) {
    const auto slash = child.rfind('/');
    const std::string parent = slash == std::string::npos ? "" : child.substr(0, slash);
    const std::string leaf = slash == std::string::npos ? child : child.substr(slash + 1);
    auto& entries = dirs_[parent];
    if (std::find(entries.begin(), entries.end(), leaf) == entries.end()) entries.push_back(leaf);
    if (parent.empty()) break;
    child = parent;
  }
}

std::optional<std::string> Topology::relative(std::string_view path) {
  while (path.size() > 1 && path.back() == '/') path.remove_suffix(1);
  for (std::string_view root : kRoots) {
    if (path == root) return std::string();
    if (path.size() > root.size() && path.substr(0, root.size()) == root && path[root.size()] == '/')
      return std::string(path.substr(root.size() + 1));
  }
  return std::nullopt;
}

std::optional<std::string> Topology::read(std::string_view path) const {
  const auto rel = relative(path);
  if (!rel) return std::nullopt;
  const auto it = files_.find(*rel);
  if (it == files_.end()) return std::nullopt;
  return it->second;
}

std::optional<std::vector<std::string>> Topology::list(std::string_view dir) const {
  const auto rel = relative(dir);
  if (!rel) return std::nullopt;
  const auto it = dirs_.find(*rel);
  if (it == dirs_.end()) return std::nullopt;
  auto entries = it->second;
  std::sort(entries.begin(), entries.end());
  return entries;
}

}  // namespace rocref::kfd
