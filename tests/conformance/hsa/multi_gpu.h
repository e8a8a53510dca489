// tests/conformance/hsa/multi_gpu.h - GPU agents of a machine of several GPUs, and a peer copy:
// one GPU's memory made accessible to another GPU (hsa_amd_agents_allow_access) and copied from
// by that GPU. Shared by the conformance suite and the planted-bug test (tests/unit/hsa).
#pragma once

#include <hsa/hsa.h>
#include <hsa/hsa_ext_amd.h>

#include <cstdint>
#include <cstring>
#include <functional>
#include <vector>

#include "hsa_fixture.h"

namespace hsa_conformance {

inline std::vector<hsa_agent_t> gpu_agents() {
  std::vector<hsa_agent_t> out;
  hsa_iterate_agents(
      [](hsa_agent_t agent, void* data) {
        hsa_device_type_t type;
        if (hsa_agent_get_info(agent, HSA_AGENT_INFO_DEVICE, &type) != HSA_STATUS_SUCCESS) return HSA_STATUS_ERROR;
        if (type == HSA_DEVICE_TYPE_GPU) static_cast<std::vector<hsa_agent_t>*>(data)->push_back(agent);
        return HSA_STATUS_SUCCESS;
      },
      &out);
  return out;
}

// Bytes written into GPU `a`'s VRAM (by a's blit) are made accessible to GPU `b` together with
// `a` in one hsa_amd_agents_allow_access call, then copied by b's blit into b's VRAM and back
// to the host. True when the bytes arrive unchanged. `before`/`after` (may be empty) see a's
// buffer before and after it is made accessible to b.
inline bool peer_copy_moves_bytes(hsa_agent_t cpu, hsa_agent_t a, hsa_agent_t b,
                                  const std::function<void(const void*)>& before = {},
                                  const std::function<void(const void*)>& after = {}) {
  constexpr size_t kBytes = 2 * 4096 + 40;
  const hsa_amd_memory_pool_t system = find_pool(cpu, HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_FINE_GRAINED);
  const hsa_amd_memory_pool_t vram_a = find_pool(a, HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_COARSE_GRAINED);
  const hsa_amd_memory_pool_t vram_b = find_pool(b, HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_COARSE_GRAINED);
  if (system.handle == 0 || vram_a.handle == 0 || vram_b.handle == 0 || vram_a.handle == vram_b.handle) return false;
  void *host = nullptr, *back = nullptr, *src = nullptr, *dst = nullptr;
  if (hsa_amd_memory_pool_allocate(system, kBytes, 0, &host) != HSA_STATUS_SUCCESS ||
      hsa_amd_memory_pool_allocate(system, kBytes, 0, &back) != HSA_STATUS_SUCCESS ||
      hsa_amd_memory_pool_allocate(vram_a, kBytes, 0, &src) != HSA_STATUS_SUCCESS ||
      hsa_amd_memory_pool_allocate(vram_b, kBytes, 0, &dst) != HSA_STATUS_SUCCESS)
    return false;
  auto* bytes = static_cast<uint8_t*>(host);
  for (size_t i = 0; i < kBytes; ++i) bytes[i] = static_cast<uint8_t>(i * 13 + 5);
  std::memset(back, 0, kBytes);
  const hsa_agent_t both[2] = {a, b};
  bool ok = hsa_amd_agents_allow_access(2, both, nullptr, host) == HSA_STATUS_SUCCESS &&
            hsa_amd_agents_allow_access(2, both, nullptr, back) == HSA_STATUS_SUCCESS &&
            hsa_memory_copy(src, host, kBytes) == HSA_STATUS_SUCCESS;  // a's blit
  if (ok && before) before(src);
  ok = ok && hsa_amd_agents_allow_access(2, both, nullptr, src) == HSA_STATUS_SUCCESS;
  if (ok && after) after(src);
  ok = ok && hsa_memory_copy(dst, src, kBytes) == HSA_STATUS_SUCCESS &&  // b's blit reads a's VRAM
       hsa_memory_copy(back, dst, kBytes) == HSA_STATUS_SUCCESS &&       // b's blit
       std::memcmp(host, back, kBytes) == 0;
  for (void* p : {host, back, src, dst}) ok &= hsa_amd_memory_pool_free(p) == HSA_STATUS_SUCCESS;
  return ok;
}

}  // namespace hsa_conformance
