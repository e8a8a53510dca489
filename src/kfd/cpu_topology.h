// kfd/cpu_topology.h - the modelled CPU and the kernel files that describe it.
//
// One description (logical processors, SMT width, cache levels, memory) gives
// both what a CRAT-built KFD lists for the CPU node (cache entries with their
// sibling maps, KFD-TOPO-5) and what the kernel shows about the same CPU outside
// the KFD: /proc/cpuinfo, /sys/devices/system/cpu and /sys/devices/system/node
// (KFD-TOPO-6). The interposer serves those instead of the host's, so nothing a
// foreign ROCm library learns about CPUs, caches or NUMA nodes comes from the
// host (PRE-FS-3).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "kfd/sysfs_tree.h"

namespace rocref::kfd {

enum class CpuCacheKind : uint8_t { Data, Instruction, Unified };

struct CpuCacheLevel {
  uint32_t level = 1;
  CpuCacheKind kind = CpuCacheKind::Data;
  uint32_t size_kib = 32;
  uint32_t line_size = 64;
  uint32_t associativity = 8;
  uint32_t shared_by = 1;  // logical processors sharing one instance (a divisor of the count)
  uint32_t latency_ns = 1;
};

// A Zen 1 desktop part: 8 cores x 2 threads, two 4-core complexes each with its L3.
struct CpuDescription {
  std::string vendor = "AuthenticAMD";
  std::string model_name = "AMD Ryzen 7 1700 Eight-Core Processor";
  uint32_t family = 23;
  uint32_t model = 1;
  uint32_t stepping = 1;
  uint32_t mhz = 3000;
  uint32_t logical_processors = 16;  // apic ids 0..N-1, cpu_core_id_base 0
  uint32_t threads_per_core = 2;     // SMT siblings are adjacent logical processors
  uint64_t memory_bytes = uint64_t{16} << 30;
  std::vector<CpuCacheLevel> caches = {
      {1, CpuCacheKind::Data, 32, 64, 8, 2, 1},
      {1, CpuCacheKind::Instruction, 64, 64, 4, 2, 1},
      {2, CpuCacheKind::Unified, 512, 64, 8, 2, 4},
      {3, CpuCacheKind::Unified, 8192, 64, 16, 8, 10},
  };
};

// One cache as the KFD lists it: an instance shared by `first_cpu`..`first_cpu + shared_by - 1`.
struct CpuCacheInstance {
  const CpuCacheLevel* level = nullptr;
  uint32_t first_cpu = 0;
};

// HsaCacheType bits (hsakmttypes.h), as kfd_parse_subtype_cache maps CRAT's cache flags.
uint32_t kfd_cache_type(CpuCacheKind kind) noexcept;

// Every cache instance of the CPU, level by level, in CRAT order.
std::vector<CpuCacheInstance> cpu_cache_instances(const CpuDescription& cpu);

// caches/<i>/properties of the KFD's CPU node for one instance.
std::string kfd_cpu_cache_properties(const CpuDescription& cpu, const CpuCacheInstance& cache);

// "/proc/cpuinfo", "sys/devices/system/cpu/..." and "sys/devices/system/node/..." (paths relative to /).
void add_cpu_kernel_files(const CpuDescription& cpu, SysfsTree* tree);

// The kernel's cpumask formats: "0-7,9" and "000003ff" (32-bit groups, most significant first).
std::string cpu_list(uint32_t first, uint32_t count);
std::string cpu_mask(uint32_t first, uint32_t count, uint32_t nbits);

}  // namespace rocref::kfd
