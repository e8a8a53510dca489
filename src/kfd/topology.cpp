// kfd/topology.cpp - generates the sysfs topology files from the machine description.
#include "kfd/topology.h"

#include "kfd/kfd_mutant.h"

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

// KFD-TOPO-7: the flags kfd_fill_iolink_non_crat_info gives a PCIe link. Both directions are
// enabled; the CPU->GPU direction is non-coherent (kfd_set_iolink_non_coherent); without PCIe
// atomics both carry NO_ATOMICS_32/64 (kfd_set_iolink_no_atomics).
uint64_t io_link_flags(const GpuDescription& gpu, bool cpu_to_gpu) {
  uint64_t flags = kIoLinkEnabled;
  if (cpu_to_gpu) flags |= kIoLinkNonCoherent;
  if (!gpu.pcie_atomics) flags |= kIoLinkNoAtomics32 | kIoLinkNoAtomics64;
  return flags;
}

std::string io_link(uint32_t from, uint32_t to, uint64_t weight, uint64_t flags) {
  return render({{"type", kIoLinkTypePcie},
                 {"version_major", 0},
                 {"version_minor", 0},
                 {"node_from", from},
                 {"node_to", to},
                 {"weight", weight},
                 {"min_latency", 0},
                 {"max_latency", 0},
                 {"min_bandwidth", 312},
                 {"max_bandwidth", 31200},
                 {"recommended_transfer_size", 0},
                 {"flags", flags}});
}

// hash_32 of <linux/hash.h>: the golden-ratio multiply amdkfd's gpu_id hash ends with.
uint32_t hash_32(uint32_t v, unsigned bits) { return (v * 0x61C88647u) >> (32 - bits); }

}  // namespace

GpuDescription gpu_description(uint32_t index) {
  GpuDescription g;
  if (index == 0) return g;
  g.location_id = (3 + index) << 8;  // bus 03 + index, device 0, function 0
  g.drm_render_minor = 128 + index;
  // kfd_topology_add_device: each GPU's SIMD ids follow the previous GPU's.
  g.simd_id_base += index * g.cu_count * g.simd_per_cu;
  // kfd_generate_gpu_id: a 16-bit hash of the PCI location and device properties (never 0).
  g.gpu_id = hash_32(g.location_id ^ (g.device_id << 16) ^ g.cu_count, 16);
  return g;
}

std::vector<GpuDescription> machine_gpus(uint32_t count) {
  count = std::clamp<uint32_t>(count, 1, kMaxGpus);
  std::vector<GpuDescription> out;
  for (uint32_t i = 0; i < count; ++i) {
    GpuDescription g = gpu_description(i);
    // amdkfd makes the hash unique among the devices present (and never 0).
    while (g.gpu_id == 0 || std::any_of(out.begin(), out.end(), [&](const auto& o) { return o.gpu_id == g.gpu_id; }))
      g.gpu_id = (g.gpu_id + 1) & 0xffff;
    out.push_back(g);
  }
  return out;
}

Topology::Topology(GpuDescription g, CpuDescription c)
    : Topology(std::vector<GpuDescription>{std::move(g)}, std::move(c)) {}

Topology::Topology(std::vector<GpuDescription> gpus, CpuDescription c) : gpus_(std::move(gpus)), cpu_(std::move(c)) {
  cpu_.logical_processors = std::clamp<uint32_t>(cpu_.logical_processors, 1, 256);  // HSA_CPU_SIBLINGS
  const uint64_t cores = cpu_.logical_processors;
  const auto cpu_caches = cpu_cache_instances(cpu_);
  auto add = [this](const std::string& rel, std::string content) { kfd_.add_file(rel, std::move(content)); };
  add("generation_id", "1\n");
  add("system_properties", render({{"platform_oem", 0}, {"platform_id", 0}, {"platform_rev", 0}}));

  // Node 0: the CPU, with a PCIe io_link to each GPU.
  add("nodes/0/gpu_id", "0\n");
  add("nodes/0/name", "\n");
  add("nodes/0/properties", render({{"cpu_cores_count", cores},
                                    {"simd_count", 0},
                                    {"mem_banks_count", 1},
                                    {"caches_count", cpu_caches.size()},
                                    {"io_links_count", gpus_.size()},
                                    {"p2p_links_count", 0},
                                    {"cpu_core_id_base", 0},
                                    {"simd_id_base", 0},
                                    {"max_waves_per_simd", 0},
                                    {"lds_size_in_kb", 0},
                                    {"gds_size_in_kb", 0},
                                    {"num_gws", 0},
                                    {"wave_front_size", 0},
                                    {"array_count", 0},
                                    {"simd_arrays_per_engine", 0},
                                    {"cu_per_simd_array", 0},
                                    {"simd_per_cu", 0},
                                    {"max_slots_scratch_cu", 0},
                                    {"gfx_target_version", 0},
                                    {"vendor_id", 0},
                                    {"device_id", 0},
                                    {"location_id", 0},
                                    {"domain", 0},
                                    {"drm_render_minor", 0},
                                    {"hive_id", 0},
                                    {"num_sdma_engines", 0},
                                    {"num_sdma_xgmi_engines", 0},
                                    {"num_sdma_queues_per_engine", 0},
                                    {"num_cp_queues", 0},
                                    {"max_engine_clk_fcompute", 0},
                                    {"local_mem_size", 0},
                                    {"fw_version", 0},
                                    {"capability", 0},
                                    {"debug_prop", 0},
                                    {"sdma_fw_version", 0},
                                    {"unique_id", 0},
                                    {"max_engine_clk_ccompute", 3000}}));
  add("nodes/0/mem_banks/0/properties",
      render({{"heap_type", 0}, {"size_in_bytes", cpu_.memory_bytes}, {"flags", 0}, {"width", 64},
              {"mem_clk_max", 2400}}));
  for (uint32_t i = 0; i < gpus_.size(); ++i)
    add("nodes/0/io_links/" + std::to_string(i) + "/properties",
        io_link(0, gpu_node(i), kPcieLinkWeight, io_link_flags(gpus_[i], true)));
  // KFD-TOPO-5: the CPU's caches as a CRAT lists them (kfd_parse_subtype_cache).
  for (size_t i = 0; i < cpu_caches.size(); ++i)
    add("nodes/0/caches/" + std::to_string(i) + "/properties", kfd_cpu_cache_properties(cpu_, cpu_caches[i]));
  for (const char* d : {"nodes/0/caches", "nodes/0/p2p_links"}) kfd_.add_dir(d);  // the thunk may list them

  for (uint32_t i = 0; i < gpus_.size(); ++i) add_gpu_node(i);
  add_cpu_kernel_files(cpu_, &kernel_);
}

// A gfx900-class GPU node: its properties, VRAM bank, caches, the PCIe link to the CPU and, as
// amdkfd's kfd_build_p2p_node_entry makes them, one p2p_link to every other GPU through the
// CPU (kfd_create_indirect_link_prop: weights summed; PCIe peer links carry no atomics,
// kfd_set_iolink_no_atomics). KFD-TOPO-8.
void Topology::add_gpu_node(uint32_t index) {
  const GpuDescription& g = gpus_[index];
  const uint32_t node = gpu_node(index);
  const std::string dir = "nodes/" + std::to_string(node) + "/";
  auto add = [this, &dir](const std::string& rel, std::string content) {
    kfd_.add_file(dir + rel, std::move(content));
  };
  const uint64_t peers = kfd_mutant_active(KfdMutant::PeerLinkOneWay) ? gpus_.size() - 1 - index : gpus_.size() - 1;
  add("gpu_id", std::to_string(g.gpu_id) + "\n");
  add("name", g.name + "\n");
  add("properties", render({{"cpu_cores_count", 0},
                            {"simd_count", uint64_t{g.cu_count} * g.simd_per_cu},
                            {"mem_banks_count", 1},
                            {"caches_count", 2},
                            {"io_links_count", 1},
                            {"p2p_links_count", peers},
                            {"cpu_core_id_base", 0},
                            {"simd_id_base", g.simd_id_base},
                            {"max_waves_per_simd", g.max_waves_per_simd},
                            {"lds_size_in_kb", g.lds_size_in_kb},
                            {"gds_size_in_kb", 0},
                            {"num_gws", 0},
                            {"wave_front_size", g.wave_front_size},
                            {"array_count", g.array_count},
                            {"simd_arrays_per_engine", 1},
                            {"cu_per_simd_array", g.cu_per_simd_array},
                            {"simd_per_cu", g.simd_per_cu},
                            {"max_slots_scratch_cu", 32},
                            {"gfx_target_version", g.gfx_target_version},
                            {"vendor_id", g.vendor_id},
                            {"device_id", g.device_id},
                            {"location_id", g.location_id},
                            {"domain", 0},
                            {"drm_render_minor", g.drm_render_minor},
                            {"hive_id", 0},
                            {"num_sdma_engines", g.num_sdma_engines},
                            {"num_sdma_xgmi_engines", 0},
                            {"num_sdma_queues_per_engine", g.num_sdma_queues_per_engine},
                            {"num_cp_queues", uint64_t{g.hw_pipes} * g.hw_slots_per_pipe},
                            {"max_engine_clk_fcompute", g.max_engine_clk_fcompute},
                            {"local_mem_size", g.vram_size},
                            {"fw_version", 405},
                            {"capability", kGpuCapability},
                            {"debug_prop", 0},
                            {"sdma_fw_version", 430},
                            {"unique_id", 0},
                            {"max_engine_clk_ccompute", 3000}}));
  add("mem_banks/0/properties",
      render({{"heap_type", 1}, {"size_in_bytes", g.vram_size}, {"flags", 0}, {"width", 2048}, {"mem_clk_max", 945}}));
  add("caches/0/properties", render({{"processor_id_low", g.simd_id_base},
                                     {"level", 1},
                                     {"size", 16},
                                     {"cache_line_size", 64},
                                     {"cache_lines_per_tag", 1},
                                     {"association", 4},
                                     {"latency", 1},
                                     {"type", kGpuCacheType},
                                     {"sibling_map", 1}}));
  add("caches/1/properties", render({{"processor_id_low", g.simd_id_base},
                                     {"level", 2},
                                     {"size", 4096},
                                     {"cache_line_size", 128},
                                     {"cache_lines_per_tag", 1},
                                     {"association", 16},
                                     {"latency", 100},
                                     {"type", kGpuCacheType},
                                     {"sibling_map", 1}}));
  add("io_links/0/properties", io_link(node, 0, kPcieLinkWeight, io_link_flags(g, false)));
  uint32_t p2p = 0;
  for (uint32_t peer = 0; peer < gpus_.size(); ++peer) {
    if (peer == index || (peer < index && kfd_mutant_active(KfdMutant::PeerLinkOneWay))) continue;
    add("p2p_links/" + std::to_string(p2p++) + "/properties",
        io_link(node, gpu_node(peer), kPeerLinkWeight, kIoLinkEnabled | kIoLinkNoAtomics32 | kIoLinkNoAtomics64));
  }
  kfd_.add_dir(dir + "p2p_links");
}

std::optional<uint32_t> Topology::gpu_index(uint32_t gpu_id) const noexcept {
  for (uint32_t i = 0; i < gpus_.size(); ++i)
    if (gpus_[i].gpu_id == gpu_id) return i;
  return std::nullopt;
}

std::optional<uint32_t> Topology::gpu_index_by_minor(uint32_t minor) const noexcept {
  for (uint32_t i = 0; i < gpus_.size(); ++i)
    if (gpus_[i].drm_render_minor == minor) return i;
  return std::nullopt;
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
