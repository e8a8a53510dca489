// kfd/cpu_topology.cpp - generates the modelled CPU's KFD cache entries and kernel files.
#include "kfd/cpu_topology.h"

#include <algorithm>
#include <cstdio>

namespace rocref::kfd {
namespace {

constexpr uint32_t kHsaCacheData = 1u << 0;         // HsaCacheType.Data
constexpr uint32_t kHsaCacheInstruction = 1u << 1;  // HsaCacheType.Instruction
constexpr uint32_t kHsaCacheCpu = 1u << 2;          // HsaCacheType.CPU

const char* kind_name(CpuCacheKind kind) {
  switch (kind) {
    case CpuCacheKind::Data: return "Data";
    case CpuCacheKind::Instruction: return "Instruction";
    case CpuCacheKind::Unified: return "Unified";
  }
  return "Unified";
}

std::string line(const char* key, const std::string& value) { return std::string(key) + value + "\n"; }
std::string num(uint64_t v) { return std::to_string(v) + "\n"; }

uint32_t shared_by(const CpuDescription& cpu, const CpuCacheLevel& c) {
  return std::clamp<uint32_t>(c.shared_by, 1, std::max<uint32_t>(1, cpu.logical_processors));
}

std::string cpuinfo(const CpuDescription& cpu) {
  const uint32_t tpc = std::max<uint32_t>(1, cpu.threads_per_core);
  uint32_t l2_kib = 0;
  for (const auto& c : cpu.caches)
    if (c.level == 2) l2_kib = c.size_kib;
  std::string out;
  for (uint32_t p = 0; p < cpu.logical_processors; ++p) {
    out += line("processor\t: ", std::to_string(p));
    out += line("vendor_id\t: ", cpu.vendor);
    out += line("cpu family\t: ", std::to_string(cpu.family));
    out += line("model\t\t: ", std::to_string(cpu.model));
    out += line("model name\t: ", cpu.model_name);
    out += line("stepping\t: ", std::to_string(cpu.stepping));
    out += line("cpu MHz\t\t: ", std::to_string(cpu.mhz) + ".000");
    out += line("cache size\t: ", std::to_string(l2_kib) + " KB");
    out += line("physical id\t: ", "0");
    out += line("siblings\t: ", std::to_string(cpu.logical_processors));
    out += line("core id\t\t: ", std::to_string(p / tpc));
    out += line("cpu cores\t: ", std::to_string(std::max<uint32_t>(1, cpu.logical_processors / tpc)));
    out += line("apicid\t\t: ", std::to_string(p));
    out += line("initial apicid\t: ", std::to_string(p));
    out += line("fpu\t\t: ", "yes");
    out += line("fpu_exception\t: ", "yes");
    out += line("cpuid level\t: ", "13");
    out += line("wp\t\t: ", "yes");
    // The x86-64 baseline only: a program that trusts this line must still run on the host.
    out += line("flags\t\t: ",
                "fpu vme de pse tsc msr pae mce cx8 apic sep mtrr pge mca cmov pat pse36 clflush mmx fxsr sse "
                "sse2 ht syscall nx lm constant_tsc rep_good nopl pni cx16 lahf_lm");
    out += line("bogomips\t: ", std::to_string(cpu.mhz * 2) + ".00");
    out += line("clflush size\t: ", "64");
    out += line("cache_alignment\t: ", "64");
    out += line("address sizes\t: ", "43 bits physical, 48 bits virtual");
    out += line("power management:", "");
    out += "\n";
  }
  return out;
}

void add_cpu_dir(const CpuDescription& cpu, uint32_t p, SysfsTree* tree) {
  const uint32_t n = cpu.logical_processors;
  const uint32_t tpc = std::clamp<uint32_t>(cpu.threads_per_core, 1, std::max<uint32_t>(1, n));
  const std::string dir = "sys/devices/system/cpu/cpu" + std::to_string(p);
  if (p != 0) tree->add_file(dir + "/online", "1\n");  // cpu0 cannot be offlined: no file
  tree->add_link(dir + "/node0", "../../node/node0");
  const uint32_t core_first = p / tpc * tpc;
  const std::string t = dir + "/topology/";
  tree->add_file(t + "physical_package_id", "0\n");
  tree->add_file(t + "die_id", "0\n");
  tree->add_file(t + "core_id", num(p / tpc));
  tree->add_file(t + "core_cpus", cpu_mask(core_first, tpc, n) + "\n");
  tree->add_file(t + "core_cpus_list", cpu_list(core_first, tpc) + "\n");
  tree->add_file(t + "thread_siblings", cpu_mask(core_first, tpc, n) + "\n");
  tree->add_file(t + "thread_siblings_list", cpu_list(core_first, tpc) + "\n");
  tree->add_file(t + "core_siblings", cpu_mask(0, n, n) + "\n");
  tree->add_file(t + "core_siblings_list", cpu_list(0, n) + "\n");
  tree->add_file(t + "package_cpus", cpu_mask(0, n, n) + "\n");
  tree->add_file(t + "package_cpus_list", cpu_list(0, n) + "\n");
  for (size_t i = 0; i < cpu.caches.size(); ++i) {
    const CpuCacheLevel& c = cpu.caches[i];
    const uint32_t share = shared_by(cpu, c);
    const uint32_t first = p / share * share;
    const std::string d = dir + "/cache/index" + std::to_string(i) + "/";
    const uint32_t ways = std::max<uint32_t>(1, c.associativity);
    const uint32_t line_size = std::max<uint32_t>(1, c.line_size);
    tree->add_file(d + "id", num(p / share));
    tree->add_file(d + "level", num(c.level));
    tree->add_file(d + "type", std::string(kind_name(c.kind)) + "\n");
    tree->add_file(d + "size", std::to_string(c.size_kib) + "K\n");
    tree->add_file(d + "coherency_line_size", num(c.line_size));
    tree->add_file(d + "ways_of_associativity", num(c.associativity));
    tree->add_file(d + "number_of_sets", num(uint64_t{c.size_kib} * 1024 / (uint64_t{line_size} * ways)));
    tree->add_file(d + "physical_line_partition", "1\n");
    tree->add_file(d + "shared_cpu_map", cpu_mask(first, std::min(share, n - first), n) + "\n");
    tree->add_file(d + "shared_cpu_list", cpu_list(first, std::min(share, n - first)) + "\n");
  }
}

}  // namespace

uint32_t kfd_cache_type(CpuCacheKind kind) noexcept {
  switch (kind) {
    case CpuCacheKind::Data: return kHsaCacheData | kHsaCacheCpu;
    case CpuCacheKind::Instruction: return kHsaCacheInstruction | kHsaCacheCpu;
    case CpuCacheKind::Unified: return kHsaCacheData | kHsaCacheInstruction | kHsaCacheCpu;
  }
  return kHsaCacheCpu;
}

std::vector<CpuCacheInstance> cpu_cache_instances(const CpuDescription& cpu) {
  std::vector<CpuCacheInstance> out;
  for (const CpuCacheLevel& c : cpu.caches) {
    const uint32_t share = shared_by(cpu, c);
    for (uint32_t first = 0; first < cpu.logical_processors; first += share) out.push_back({&c, first});
  }
  return out;
}

std::string kfd_cpu_cache_properties(const CpuDescription& cpu, const CpuCacheInstance& cache) {
  const CpuCacheLevel& c = *cache.level;
  const uint32_t share = shared_by(cpu, c);
  std::string out;
  out += "processor_id_low " + std::to_string(cache.first_cpu) + "\n";
  out += "level " + std::to_string(c.level) + "\n";
  out += "size " + std::to_string(c.size_kib) + "\n";  // KiB, as CRAT's cache_size
  out += "cache_line_size " + std::to_string(c.line_size) + "\n";
  out += "cache_lines_per_tag 1\n";
  out += "association " + std::to_string(c.associativity) + "\n";
  out += "latency " + std::to_string(c.latency_ns) + "\n";
  out += "type " + std::to_string(kfd_cache_type(c.kind)) + "\n";
  // kfd_cache_show: one "0,"/"1," per bit of the sibling-map bytes, the last comma a newline.
  out += "sibling_map ";
  const uint32_t bits = (cpu.logical_processors + 7) / 8 * 8;
  for (uint32_t b = 0; b < bits; ++b) {
    const bool sibling = b >= cache.first_cpu && b < cache.first_cpu + share && b < cpu.logical_processors;
    out += sibling ? "1" : "0";
    out += b + 1 < bits ? "," : "\n";
  }
  if (bits == 0) out.back() = '\n';
  return out;
}

std::string cpu_list(uint32_t first, uint32_t count) {
  if (count == 0) return "";
  if (count == 1) return std::to_string(first);
  return std::to_string(first) + "-" + std::to_string(first + count - 1);
}

std::string cpu_mask(uint32_t first, uint32_t count, uint32_t nbits) {
  nbits = std::max<uint32_t>(nbits, 1);
  const uint32_t groups = (nbits + 31) / 32;
  std::string out;
  for (uint32_t g = groups; g-- > 0;) {
    uint32_t word = 0;
    for (uint32_t b = 0; b < 32; ++b) {
      const uint32_t bit = g * 32 + b;
      if (bit < nbits && bit >= first && bit < first + count) word |= 1u << b;
    }
    // The most significant group is as wide as its bits need; the others are 8 hex digits.
    const uint32_t digits = g + 1 == groups ? ((nbits - 1) % 32) / 4 + 1 : 8;
    static constexpr char kHex[] = "0123456789abcdef";
    for (uint32_t d = digits; d-- > 0;) out += kHex[(word >> (4 * d)) & 0xf];
    if (g != 0) out += ",";
  }
  return out;
}

void add_cpu_kernel_files(const CpuDescription& cpu, SysfsTree* tree) {
  const uint32_t n = std::max<uint32_t>(1, cpu.logical_processors);
  tree->add_file("proc/cpuinfo", cpuinfo(cpu));
  const std::string all = cpu_list(0, n) + "\n";
  for (const char* f : {"online", "possible", "present"}) tree->add_file(std::string("sys/devices/system/cpu/") + f, all);
  tree->add_file("sys/devices/system/cpu/offline", "\n");
  tree->add_file("sys/devices/system/cpu/kernel_max", "8191\n");  // NR_CPUS - 1 of Debian's kernel
  for (uint32_t p = 0; p < n; ++p) add_cpu_dir(cpu, p, tree);

  // One NUMA node holding every CPU and all memory.
  const std::string nodes = "sys/devices/system/node/";
  for (const char* f : {"online", "possible", "has_cpu", "has_memory", "has_normal_memory"})
    tree->add_file(nodes + f, "0\n");
  const std::string node0 = nodes + "node0/";
  tree->add_file(node0 + "cpumap", cpu_mask(0, n, n) + "\n");
  tree->add_file(node0 + "cpulist", all);
  tree->add_file(node0 + "distance", "10\n");
  const uint64_t kib = cpu.memory_bytes >> 10;
  char meminfo[256];
  std::snprintf(meminfo, sizeof meminfo, "Node 0 MemTotal:       %8llu kB\nNode 0 MemFree:        %8llu kB\nNode 0 MemUsed:        %8llu kB\n",
                static_cast<unsigned long long>(kib), static_cast<unsigned long long>(kib), 0ull);
  tree->add_file(node0 + "meminfo", meminfo);
  for (uint32_t p = 0; p < n; ++p)
    tree->add_link(node0 + "cpu" + std::to_string(p), "../../cpu/cpu" + std::to_string(p));
}

}  // namespace rocref::kfd
