// hip/hip_launch_bounds.cpp - reads a kernel's __launch_bounds__ back from the section holding its code (HIP-LNC-5).
//
// rocref's __launch_bounds__(max[, min]) places the kernel in a section named
// ".rocref_lb.<max>.<min>" (include/hip/hip_runtime.h); the program's section
// headers say which section holds the kernel's address. Cached per kernel; a
// file that cannot be read gives no bound.
#include <cstdlib>
#include <mutex>
#include <string>
#include <unordered_map>

#include "hip/hip_function.h"
#include "hip/hip_program_elf.h"

namespace rocref::hip {
namespace {

constexpr char kPrefix[] = ".rocref_lb.";

uint32_t read_bound(const void* function) {
  const std::string section = program_section(function);
  if (section.rfind(kPrefix, 0) != 0) return 0;
  return static_cast<uint32_t>(std::strtoul(section.c_str() + sizeof kPrefix - 1, nullptr, 10));
}

}  // namespace

uint32_t launch_bound(const void* host_function) {
  static std::mutex mutex;
  static std::unordered_map<const void*, uint32_t> cache;
  {
    std::lock_guard lock(mutex);
    if (auto it = cache.find(host_function); it != cache.end()) return it->second;
  }
  const uint32_t bound = host_function != nullptr ? read_bound(host_function) : 0;
  std::lock_guard lock(mutex);
  cache.emplace(host_function, bound);
  return bound;
}

}  // namespace rocref::hip
