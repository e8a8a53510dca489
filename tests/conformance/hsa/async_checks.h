// tests/conformance/hsa/async_checks.h - checks of the rect copy, copy timing and SVM prefetch that
// the conformance suite expects to hold and the mutant tests (tests/unit/hsa) expect a planted bug to break.
#pragma once

#include <sys/mman.h>

#include <chrono>
#include <cstdio>
#include <cstring>
#include <thread>
#include <vector>

#include "hsa_fixture.h"

namespace hsa_conformance {

// Runtime-allocated system memory the GPU may reach (ROCR maps it only when granted).
inline void* granted_system_memory(hsa_agent_t gpu, hsa_amd_memory_pool_t system, size_t bytes) {
  void* p = nullptr;
  if (hsa_amd_memory_pool_allocate(system, bytes, 0, &p) != HSA_STATUS_SUCCESS) return nullptr;
  if (hsa_amd_agents_allow_access(1, &gpu, nullptr, p) != HSA_STATUS_SUCCESS) {
    hsa_amd_memory_pool_free(p);
    return nullptr;
  }
  return p;
}

// HSA-MEM-8: a 20 x 5 x 3 box between two pitched layouts, held by a dependency at 1 for 50 ms:
// true when nothing moved before the dependency reached 0, the completion signal went from 2 to
// 1, and exactly the box's bytes landed at the destination's offsets.
inline bool rect_copy_moves_the_box(hsa_agent_t gpu, hsa_amd_memory_pool_t system) {
  constexpr size_t kSrcPitch = 64, kSrcSlice = 64 * 8, kDstPitch = 128, kDstSlice = 128 * 16;
  constexpr size_t kSrcBytes = kSrcSlice * 4, kDstBytes = kDstSlice * 5;
  auto* src = static_cast<uint8_t*>(granted_system_memory(gpu, system, kSrcBytes));
  auto* dst = static_cast<uint8_t*>(granted_system_memory(gpu, system, kDstBytes));
  if (src == nullptr || dst == nullptr) return false;
  for (size_t i = 0; i < kSrcBytes; ++i) src[i] = static_cast<uint8_t>(i * 13 + 1);
  std::memset(dst, 0xee, kDstBytes);
  hsa_signal_t gate{0}, done{0};
  hsa_signal_create(1, 0, nullptr, &gate);
  hsa_signal_create(2, 0, nullptr, &done);
  const hsa_pitched_ptr_t from{src, kSrcPitch, kSrcSlice}, to{dst, kDstPitch, kDstSlice};
  const hsa_dim3_t from_offset{3, 2, 1}, to_offset{8, 5, 2}, range{20, 5, 3};
  bool ok = hsa_amd_memory_async_copy_rect(&to, &to_offset, &from, &from_offset, &range, gpu, hsaHostToDevice, 1, &gate,
                                           done) == HSA_STATUS_SUCCESS;
  ok = ok && hsa_signal_wait_scacquire(done, HSA_SIGNAL_CONDITION_LT, 2, 50'000'000, HSA_WAIT_STATE_BLOCKED) == 2;
  ok = ok && dst[(to_offset.z * kDstSlice) + to_offset.y * kDstPitch + to_offset.x] == 0xee;
  hsa_signal_store_screlease(gate, 0);
  ok = ok && hsa_signal_wait_scacquire(done, HSA_SIGNAL_CONDITION_LT, 2, UINT64_MAX, HSA_WAIT_STATE_BLOCKED) == 1;
  for (size_t z = 0; ok && z < 5; ++z)
    for (size_t y = 0; ok && y < 16; ++y)
      for (size_t x = 0; ok && x < kDstPitch; ++x) {
        const bool inside = z >= to_offset.z && z < to_offset.z + range.z && y >= to_offset.y &&
                            y < to_offset.y + range.y && x >= to_offset.x && x < to_offset.x + range.x;
        const uint8_t want =
            inside ? src[(z - to_offset.z + from_offset.z) * kSrcSlice + (y - to_offset.y + from_offset.y) * kSrcPitch +
                         (x - to_offset.x + from_offset.x)]
                   : 0xee;
        ok = dst[z * kDstSlice + y * kDstPitch + x] == want;
      }
  hsa_signal_destroy(gate);
  hsa_signal_destroy(done);
  hsa_amd_memory_pool_free(src);
  hsa_amd_memory_pool_free(dst);
  return ok;
}

// HSA-PROF-2: with copy profiling on, a GPU copy held by a dependency for 20 ms reports times
// (HSA_SYSTEM_INFO_TIMESTAMP's clock) that lie, within 1 us, between the gate's release and the
// completion, start before end.
inline bool async_copy_times_bracket_the_copy(hsa_agent_t cpu, hsa_agent_t gpu, hsa_amd_memory_pool_t vram,
                                              hsa_amd_memory_pool_t system) {
  constexpr size_t kBytes = 64 * 1024;
  uint64_t frequency = 0;
  hsa_system_get_info(HSA_SYSTEM_INFO_TIMESTAMP_FREQUENCY, &frequency);
  const uint64_t slack = frequency / 1'000'000 + 1;
  void* device = nullptr;
  void* host = granted_system_memory(gpu, system, kBytes);
  if (host == nullptr || hsa_amd_memory_pool_allocate(vram, kBytes, 0, &device) != HSA_STATUS_SUCCESS) return false;
  hsa_signal_t gate{0}, done{0};
  hsa_signal_create(1, 0, nullptr, &gate);
  hsa_signal_create(1, 0, nullptr, &done);
  bool ok = hsa_amd_profiling_async_copy_enable(true) == HSA_STATUS_SUCCESS;
  ok = ok && hsa_amd_memory_async_copy(device, gpu, host, cpu, kBytes, 1, &gate, done) == HSA_STATUS_SUCCESS;
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  uint64_t released = 0, completed = 0;
  hsa_system_get_info(HSA_SYSTEM_INFO_TIMESTAMP, &released);
  hsa_signal_store_screlease(gate, 0);
  ok = ok && hsa_signal_wait_scacquire(done, HSA_SIGNAL_CONDITION_LT, 1, UINT64_MAX, HSA_WAIT_STATE_BLOCKED) == 0;
  hsa_system_get_info(HSA_SYSTEM_INFO_TIMESTAMP, &completed);
  hsa_amd_profiling_async_copy_time_t time{};
  ok = ok && hsa_amd_profiling_get_async_copy_time(done, &time) == HSA_STATUS_SUCCESS;
  const bool bracketed = time.start + slack >= released && time.start <= time.end && time.end <= completed + slack;
  if (ok && !bracketed)
    std::fprintf(stderr, "copy times %llu..%llu outside release %llu .. completion %llu\n",
                 (unsigned long long)time.start, (unsigned long long)time.end, (unsigned long long)released,
                 (unsigned long long)completed);
  ok = ok && bracketed;
  hsa_amd_profiling_async_copy_enable(false);
  hsa_signal_destroy(gate);
  hsa_signal_destroy(done);
  hsa_amd_memory_pool_free(device);
  hsa_amd_memory_pool_free(host);
  return ok;
}

// Anonymous pages for the SVM tests (not runtime memory: the KFD refuses that as SVM).
struct SvmPages {
  explicit SvmPages(size_t pages) : bytes(pages * 4096) {
    void* p = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    base = p == MAP_FAILED ? nullptr : p;
    if (base != nullptr) std::memset(base, 0, bytes);
  }
  ~SvmPages() {
    if (base != nullptr) munmap(base, bytes);
  }
  void* base = nullptr;
  size_t bytes;
};

inline uint64_t svm_get(void* ptr, size_t size, uint64_t attribute, uint64_t value = 0) {
  hsa_amd_svm_attribute_pair_t pair{attribute, value};
  if (hsa_amd_svm_attributes_get(ptr, size, &pair, 1) != HSA_STATUS_SUCCESS) return ~uint64_t{0};
  return pair.value;
}

// HSA-SVM-1: the memory model set is the one read back, both ways.
inline bool svm_memory_model_round_trips() {
  SvmPages pages(2);
  if (pages.base == nullptr) return false;
  bool ok = true;
  for (uint64_t model : {HSA_AMD_SVM_GLOBAL_FLAG_COARSE_GRAINED, HSA_AMD_SVM_GLOBAL_FLAG_FINE_GRAINED}) {
    hsa_amd_svm_attribute_pair_t set{HSA_AMD_SVM_ATTRIB_GLOBAL_FLAG, model};
    ok = ok && hsa_amd_svm_attributes_set(pages.base, pages.bytes, &set, 1) == HSA_STATUS_SUCCESS;
    ok = ok && svm_get(pages.base, pages.bytes, HSA_AMD_SVM_ATTRIB_GLOBAL_FLAG) == model;
  }
  return ok;
}

// HSA-SVM-3: a prefetch behind a dependency at 1 has not completed 50 ms later; once the
// dependency is 0 it completes and the KFD holds its destination.
inline bool svm_prefetch_waits_for_its_dependency(hsa_agent_t gpu) {
  SvmPages pages(4);
  if (pages.base == nullptr) return false;
  hsa_amd_svm_attribute_pair_t access{HSA_AMD_SVM_ATTRIB_AGENT_ACCESSIBLE, gpu.handle};
  bool ok = hsa_amd_svm_attributes_set(pages.base, pages.bytes, &access, 1) == HSA_STATUS_SUCCESS;
  hsa_signal_t gate{0}, done{0};
  hsa_signal_create(1, 0, nullptr, &gate);
  hsa_signal_create(1, 0, nullptr, &done);
  ok = ok && hsa_amd_svm_prefetch_async(pages.base, pages.bytes, gpu, 1, &gate, done) == HSA_STATUS_SUCCESS;
  ok = ok && hsa_signal_wait_scacquire(done, HSA_SIGNAL_CONDITION_LT, 1, 50'000'000, HSA_WAIT_STATE_BLOCKED) == 1;
  hsa_signal_store_screlease(gate, 0);
  ok = ok && hsa_signal_wait_scacquire(done, HSA_SIGNAL_CONDITION_LT, 1, UINT64_MAX, HSA_WAIT_STATE_BLOCKED) == 0;
  ok = ok && svm_get(pages.base, pages.bytes, HSA_AMD_SVM_ATTRIB_PREFETCH_LOCATION) == gpu.handle;
  hsa_signal_destroy(gate);
  hsa_signal_destroy(done);
  return ok;
}

}  // namespace hsa_conformance
