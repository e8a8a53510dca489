// thunk/topology.cpp - the KFD topology snapshot read from sysfs through a transport.
#include "thunk/topology.h"

#include <algorithm>
#include <cstdio>
#include <iterator>
#include <optional>
#include <string>

#include "thunk/key_values.h"
#include "thunk/marketing_name.h"

namespace rocref::thunk {
namespace {

constexpr int kGenerationRetries = 4;
constexpr uint32_t kSgprSizePerCu = 0x4000;    // libhsakmt's SGPR_SIZE_PER_CU
constexpr uint32_t kVgprSizePerCu = 0x40000;   // gfx9/gfx10 (0x80000 on gfx90a)

std::string node_path(uint32_t node) {
  return std::string(kTopologyRoot) + "/nodes/" + std::to_string(node);
}

std::optional<KeyValues> read_properties(Transport& t, const std::string& path) {
  const auto text = t.read_file(path);
  if (!text) return std::nullopt;
  return KeyValues::parse(*text);
}

uint32_t u32(const KeyValues& kv, const char* key) { return static_cast<uint32_t>(kv.get(key)); }

void fill_node(const KeyValues& kv, NodeTopology* n) {
  HsaNodeProperties& p = n->props;
  p.NumCPUCores = u32(kv, "cpu_cores_count");
  p.NumFComputeCores = u32(kv, "simd_count");
  p.NumMemoryBanks = u32(kv, "mem_banks_count");
  p.NumCaches = u32(kv, "caches_count");
  p.NumIOLinks = u32(kv, "io_links_count") + u32(kv, "p2p_links_count");
  p.CComputeIdLo = u32(kv, "cpu_core_id_base");
  p.FComputeIdLo = u32(kv, "simd_id_base");
  p.Capability.Value = u32(kv, "capability");
  p.DebugProperties.Value = kv.get("debug_prop");
  p.MaxWavesPerSIMD = u32(kv, "max_waves_per_simd");
  p.LDSSizeInKB = u32(kv, "lds_size_in_kb");
  p.GDSSizeInKB = u32(kv, "gds_size_in_kb");
  p.WaveFrontSize = u32(kv, "wave_front_size");
  p.NumShaderBanks = u32(kv, "array_count");
  p.NumArrays = u32(kv, "simd_arrays_per_engine");
  p.NumCUPerArray = u32(kv, "cu_per_simd_array");
  p.NumSIMDPerCU = u32(kv, "simd_per_cu");
  p.MaxSlotsScratchCU = u32(kv, "max_slots_scratch_cu");
  p.EngineId.Value = u32(kv, "fw_version") & 0x3ff;  // uCode bits; major/minor/stepping below
  p.uCodeEngineVersions.Value = u32(kv, "sdma_fw_version") & 0x3ff;
  p.VendorId = static_cast<HSAuint16>(kv.get("vendor_id"));
  p.DeviceId = static_cast<HSAuint16>(kv.get("device_id"));
  p.LocationId = u32(kv, "location_id");
  p.Domain = u32(kv, "domain");
  p.MaxEngineClockMhzFCompute = u32(kv, "max_engine_clk_fcompute");
  p.MaxEngineClockMhzCCompute = u32(kv, "max_engine_clk_ccompute");
  p.LocalMemSize = kv.get("local_mem_size");
  p.DrmRenderMinor = static_cast<HSAint32>(kv.get("drm_render_minor"));
  p.HiveID = kv.get("hive_id");
  p.UniqueID = kv.get("unique_id");
  p.NumSdmaEngines = u32(kv, "num_sdma_engines");
  p.NumSdmaXgmiEngines = u32(kv, "num_sdma_xgmi_engines");
  p.NumGws = static_cast<HSAuint8>(kv.get("num_gws"));
  p.NumSdmaQueuesPerEngine = static_cast<HSAuint8>(kv.get("num_sdma_queues_per_engine"));
  p.NumCpQueues = static_cast<HSAuint8>(kv.get("num_cp_queues"));
  n->gfx_target_version = u32(kv, "gfx_target_version");
  if (n->gfx_target_version != 0) {
    const HSA_ENGINE_ID gfx = engine_id_from_gfx_target_version(n->gfx_target_version);
    p.EngineId.ui32.Major = gfx.ui32.Major;
    p.EngineId.ui32.Minor = gfx.ui32.Minor;
    p.EngineId.ui32.Stepping = gfx.ui32.Stepping;
    const unsigned full = (p.EngineId.ui32.Major << 16) | (p.EngineId.ui32.Minor << 8) |
                          p.EngineId.ui32.Stepping;
    std::snprintf(reinterpret_cast<char*>(p.AMDName), sizeof p.AMDName - 1, "GFX%06x", full);
    p.SGPRSizePerCU = kSgprSizePerCu;
    p.VGPRSizePerCU = kVgprSizePerCu;
  }
}

bool read_mem(Transport& t, uint32_t node, uint32_t bank, HsaMemoryProperties* m) {
  const auto kv = read_properties(t, node_path(node) + "/mem_banks/" + std::to_string(bank) + "/properties");
  if (!kv) return false;
  *m = {};
  m->HeapType = static_cast<HSA_HEAPTYPE>(u32(*kv, "heap_type"));
  m->SizeInBytes = kv->get("size_in_bytes");
  m->Flags.MemoryProperty = u32(*kv, "flags");
  m->Width = u32(*kv, "width");
  m->MemoryClockMax = u32(*kv, "mem_clk_max");
  return true;
}

bool read_cache(Transport& t, uint32_t node, uint32_t index, HsaCacheProperties* c) {
  const std::string path = node_path(node) + "/caches/" + std::to_string(index) + "/properties";
  const auto text = t.read_file(path);
  if (!text) return false;
  const KeyValues kv = KeyValues::parse(*text);
  *c = {};
  c->ProcessorIdLow = u32(kv, "processor_id_low");
  c->CacheLevel = u32(kv, "level");
  c->CacheSize = u32(kv, "size");
  c->CacheLineSize = u32(kv, "cache_line_size");
  c->CacheLinesPerTag = u32(kv, "cache_lines_per_tag");
  c->CacheAssociativity = u32(kv, "association");
  c->CacheLatency = u32(kv, "latency");
  c->CacheType.Value = u32(kv, "type");
  const auto siblings = parse_sibling_map(*text, HSA_CPU_SIBLINGS);
  std::copy(siblings.begin(), siblings.end(), c->SiblingMap);
  return true;
}

bool read_link(Transport& t, const std::string& dir, HsaIoLinkProperties* l) {
  const auto kv = read_properties(t, dir + "/properties");
  if (!kv) return false;
  *l = {};
  l->IoLinkType = static_cast<HSA_IOLINKTYPE>(u32(*kv, "type"));
  l->VersionMajor = u32(*kv, "version_major");
  l->VersionMinor = u32(*kv, "version_minor");
  l->NodeFrom = u32(*kv, "node_from");
  l->NodeTo = u32(*kv, "node_to");
  l->Weight = u32(*kv, "weight");
  l->MinimumLatency = u32(*kv, "min_latency");
  l->MaximumLatency = u32(*kv, "max_latency");
  l->MinimumBandwidth = u32(*kv, "min_bandwidth");
  l->MaximumBandwidth = u32(*kv, "max_bandwidth");
  l->RecTransferSize = u32(*kv, "recommended_transfer_size");
  l->Flags.LinkProperty = u32(*kv, "flags");
  return true;
}

std::optional<uint64_t> read_number(Transport& t, const std::string& path) {
  const auto text = t.read_file(path);
  uint64_t v = 0;
  if (!text || !parse_u64(*text, &v)) return std::nullopt;
  return v;
}

HSAKMT_STATUS read_once(Transport& t, Topology* out) {
  const auto sys = read_properties(t, std::string(kTopologyRoot) + "/system_properties");
  if (!sys) return HSAKMT_STATUS_ERROR;
  out->system = {};
  out->system.PlatformOem = u32(*sys, "platform_oem");
  out->system.PlatformId = u32(*sys, "platform_id");
  out->system.PlatformRev = u32(*sys, "platform_rev");

  const auto entries = t.list_dir(std::string(kTopologyRoot) + "/nodes");
  if (!entries) return HSAKMT_STATUS_ERROR;
  uint32_t count = 0;  // nodes are named 0..N-1; anything else is ignored
  for (const auto& e : *entries) {
    uint64_t id = 0;
    if (parse_u64(e, &id) && id < 1024) count = std::max<uint32_t>(count, static_cast<uint32_t>(id) + 1);
  }
  out->nodes.assign(count, NodeTopology{});
  std::optional<std::string> cpuinfo, ids;  // read for the first CPU node, the first GPU node
  for (uint32_t i = 0; i < count; ++i) {
    NodeTopology& n = out->nodes[i];
    const auto gpu_id = read_number(t, node_path(i) + "/gpu_id");
    const auto props = read_properties(t, node_path(i) + "/properties");
    if (!gpu_id || !props) return HSAKMT_STATUS_ERROR;
    n.gpu_id = static_cast<uint32_t>(*gpu_id);
    fill_node(*props, &n);
    if (n.props.NumFComputeCores != 0 && n.gfx_target_version == 0) return HSAKMT_STATUS_ERROR;
    std::string name;
    if (n.gfx_target_version != 0) {
      if (!ids) ids = read_amdgpu_ids();
      name = marketing_name(t, static_cast<uint32_t>(n.props.DrmRenderMinor), *ids);
    } else if (n.props.NumCPUCores != 0) {
      if (!cpuinfo) cpuinfo = t.read_file("/proc/cpuinfo").value_or("");
      name = cpu_model_name(*cpuinfo, n.props.CComputeIdLo);
    }
    const size_t len = std::min(name.size(), std::size(n.props.MarketingName) - 1);
    for (size_t c = 0; c < len; ++c) n.props.MarketingName[c] = static_cast<unsigned char>(name[c]);
    n.mem.resize(n.props.NumMemoryBanks);
    for (uint32_t b = 0; b < n.props.NumMemoryBanks; ++b)
      if (!read_mem(t, i, b, &n.mem[b])) return HSAKMT_STATUS_ERROR;
    n.caches.resize(n.props.NumCaches);
    for (uint32_t c = 0; c < n.props.NumCaches; ++c)
      if (!read_cache(t, i, c, &n.caches[c])) return HSAKMT_STATUS_ERROR;
    const uint32_t io = u32(*props, "io_links_count");
    n.links.resize(n.props.NumIOLinks);
    for (uint32_t l = 0; l < n.props.NumIOLinks; ++l) {
      const std::string dir = l < io ? node_path(i) + "/io_links/" + std::to_string(l)
                                     : node_path(i) + "/p2p_links/" + std::to_string(l - io);
      if (!read_link(t, dir, &n.links[l])) return HSAKMT_STATUS_ERROR;
    }
  }
  out->system.NumNodes = count;
  return HSAKMT_STATUS_SUCCESS;
}

}  // namespace

HSA_ENGINE_ID engine_id_from_gfx_target_version(uint32_t gfxv) {
  HSA_ENGINE_ID id{};
  id.ui32.Major = (gfxv / 10000) % 100 & 0x3f;
  id.ui32.Minor = (gfxv / 100) % 100 & 0xff;
  id.ui32.Stepping = gfxv % 100 & 0xff;
  return id;
}

HSAKMT_STATUS read_topology(Transport& t, Topology* out) {
  const std::string gen_path = std::string(kTopologyRoot) + "/generation_id";
  for (int attempt = 0; attempt < kGenerationRetries; ++attempt) {
    const auto before = read_number(t, gen_path);
    if (!before) return HSAKMT_STATUS_ERROR;
    Topology snapshot;
    const HSAKMT_STATUS st = read_once(t, &snapshot);
    if (st != HSAKMT_STATUS_SUCCESS) return st;
    const auto after = read_number(t, gen_path);
    if (!after) return HSAKMT_STATUS_ERROR;
    if (*before == *after) {
      snapshot.generation = *after;
      *out = std::move(snapshot);
      return HSAKMT_STATUS_SUCCESS;
    }
  }
  return HSAKMT_STATUS_ERROR;
}

}  // namespace rocref::thunk
