// tests/conformance/hsa/image_fixture.h - runs the suite's image kernel on an AQL queue (HSA-IMG-3);
// public hsa.h / hsa_ext_amd.h only.
#pragma once

#include <hsa/hsa.h>
#include <hsa/hsa_ext_amd.h>

#include <atomic>
#include <cstdint>
#include <cstring>

#include "loader_fixture.h"

namespace hsa_conformance {

// Dispatches image_twice_plus_one(src, dst) over width x height; true when it completed.
inline bool run_image_kernel(hsa_executable_t executable, hsa_agent_t gpu, hsa_amd_memory_pool_t kernarg_pool,
                             uint64_t src, uint64_t dst, uint32_t width, uint32_t height) {
  KernelInfo kernel;
  if (!find_kernel(executable, gpu, "image_twice_plus_one.kd", &kernel)) return false;
  void* kernarg = nullptr;
  if (hsa_amd_memory_pool_allocate(kernarg_pool, kernel.kernarg_size < 64 ? 64 : kernel.kernarg_size, 0, &kernarg) !=
      HSA_STATUS_SUCCESS)
    return false;
  hsa_amd_agents_allow_access(1, &gpu, nullptr, kernarg);
  std::memset(kernarg, 0, kernel.kernarg_size);
  std::memcpy(static_cast<char*>(kernarg) + 0, &src, 8);
  std::memcpy(static_cast<char*>(kernarg) + 8, &dst, 8);
  const bool completed = dispatch_and_wait(gpu, kernel, kernarg, width, width * height);
  hsa_amd_memory_pool_free(kernarg);
  return completed;
}

}  // namespace hsa_conformance
