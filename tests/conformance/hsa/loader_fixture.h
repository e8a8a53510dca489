// tests/conformance/hsa/loader_fixture.h - loads the suite's gfx900 code object through the HSA
// loader API and runs its kernel on an AQL queue; public hsa.h / hsa_ext_amd.h only.
#pragma once

#include <hsa/hsa.h>
#include <hsa/hsa_ext_amd.h>

#include <atomic>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

namespace hsa_conformance {

inline std::vector<uint8_t> read_file(const char* path) {
  std::ifstream file(path, std::ios::binary);
  return std::vector<uint8_t>((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
}

// An executable holding `image` for `gpu`, frozen; the status of the first step that failed.
struct LoadedImage {
  hsa_code_object_reader_t reader{0};
  hsa_executable_t executable{0};
  hsa_status_t status = HSA_STATUS_ERROR;
  LoadedImage(const std::vector<uint8_t>& image, hsa_agent_t gpu) {
    status = hsa_code_object_reader_create_from_memory(image.data(), image.size(), &reader);
    if (status != HSA_STATUS_SUCCESS) return;
    status = hsa_executable_create_alt(HSA_PROFILE_FULL, HSA_DEFAULT_FLOAT_ROUNDING_MODE_DEFAULT, nullptr, &executable);
    if (status != HSA_STATUS_SUCCESS) return;
    status = hsa_executable_load_agent_code_object(executable, gpu, reader, nullptr, nullptr);
    if (status != HSA_STATUS_SUCCESS) return;
    status = hsa_executable_freeze(executable, nullptr);
  }
  ~LoadedImage() {
    if (executable.handle != 0) hsa_executable_destroy(executable);
    if (reader.handle != 0) hsa_code_object_reader_destroy(reader);
  }
  LoadedImage(const LoadedImage&) = delete;
  LoadedImage& operator=(const LoadedImage&) = delete;
};

inline void queue_error_flag(hsa_status_t, hsa_queue_t*, void* data) {
  static_cast<std::atomic<bool>*>(data)->store(true, std::memory_order_release);
}

// A kernel of `executable` for `gpu`, by its descriptor's symbol name ("<kernel>.kd").
struct KernelInfo {
  uint64_t object = 0;
  uint32_t kernarg_size = 0, group = 0, priv = 0;
};

inline bool find_kernel(hsa_executable_t executable, hsa_agent_t gpu, const char* name, KernelInfo* out) {
  hsa_executable_symbol_t symbol;
  if (hsa_executable_get_symbol_by_name(executable, name, &gpu, &symbol) != HSA_STATUS_SUCCESS) return false;
  hsa_executable_symbol_get_info(symbol, HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_OBJECT, &out->object);
  hsa_executable_symbol_get_info(symbol, HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_KERNARG_SEGMENT_SIZE, &out->kernarg_size);
  hsa_executable_symbol_get_info(symbol, HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_GROUP_SEGMENT_SIZE, &out->group);
  hsa_executable_symbol_get_info(symbol, HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_PRIVATE_SEGMENT_SIZE, &out->priv);
  return true;
}

// Dispatches `kernel` with `kernarg` as one-dimensional work-groups of `group_items` over `items`
// work-items on a new queue; true when the dispatch completed, false when the queue failed first.
inline bool dispatch_and_wait(hsa_agent_t gpu, const KernelInfo& kernel, void* kernarg, uint32_t group_items,
                              uint32_t items) {
  hsa_queue_t* queue = nullptr;
  hsa_signal_t done{0};
  bool completed = false;
  static std::atomic<bool> failed;  // the queue's error callback runs on the runtime's thread
  failed.store(false);
  if (hsa_queue_create(gpu, 64, HSA_QUEUE_TYPE_SINGLE, queue_error_flag, &failed, UINT32_MAX, UINT32_MAX, &queue) ==
          HSA_STATUS_SUCCESS &&
      hsa_signal_create(1, 0, nullptr, &done) == HSA_STATUS_SUCCESS) {
    const uint64_t id = hsa_queue_add_write_index_relaxed(queue, 1);
    auto* packet = static_cast<hsa_kernel_dispatch_packet_t*>(queue->base_address) + (id % queue->size);
    std::memset(reinterpret_cast<char*>(packet) + 4, 0, sizeof *packet - 4);
    packet->workgroup_size_x = static_cast<uint16_t>(group_items);
    packet->workgroup_size_y = packet->workgroup_size_z = 1;
    packet->grid_size_x = items;
    packet->grid_size_y = packet->grid_size_z = 1;
    packet->group_segment_size = kernel.group;
    packet->private_segment_size = kernel.priv;
    packet->kernel_object = kernel.object;
    packet->kernarg_address = kernarg;
    packet->completion_signal = done;
    const uint16_t header = (HSA_PACKET_TYPE_KERNEL_DISPATCH << HSA_PACKET_HEADER_TYPE) |
                            (HSA_FENCE_SCOPE_SYSTEM << HSA_PACKET_HEADER_SCACQUIRE_FENCE_SCOPE) |
                            (HSA_FENCE_SCOPE_SYSTEM << HSA_PACKET_HEADER_SCRELEASE_FENCE_SCOPE);
    const uint32_t header_setup = header | (1u << 16);
    std::atomic_ref<uint32_t>(*reinterpret_cast<uint32_t*>(packet)).store(header_setup, std::memory_order_release);
    hsa_signal_store_screlease(queue->doorbell_signal, static_cast<hsa_signal_value_t>(id));
    // Completion, or a queue that went to error (its packets never complete).
    while (!failed.load(std::memory_order_acquire)) {
      if (hsa_signal_wait_scacquire(done, HSA_SIGNAL_CONDITION_LT, 1, 1000000, HSA_WAIT_STATE_BLOCKED) < 1) {
        completed = true;
        break;
      }
    }
  }
  if (done.handle != 0) hsa_signal_destroy(done);
  if (queue != nullptr) hsa_queue_destroy(queue);
  return completed;
}

// Dispatches read_table(out, pad, scale) over `items` work-items (one work-group) from
// `executable`; true when the dispatch completed, false when the queue failed first.
inline bool run_read_table(hsa_executable_t executable, hsa_agent_t gpu, hsa_agent_t cpu,
                           hsa_amd_memory_pool_t system_pool, hsa_amd_memory_pool_t kernarg_pool, uint32_t items,
                           char pad, int64_t scale, std::vector<int32_t>* out) {
  KernelInfo kernel;
  if (!find_kernel(executable, gpu, "read_table.kd", &kernel)) return false;
  void* memory = nullptr;
  void* kernarg = nullptr;
  const size_t bytes = items * sizeof(int32_t);
  if (hsa_amd_memory_pool_allocate(system_pool, bytes, 0, &memory) != HSA_STATUS_SUCCESS) return false;
  hsa_agent_t both[] = {gpu, cpu};
  hsa_amd_agents_allow_access(2, both, nullptr, memory);
  std::memset(memory, 0, bytes);
  if (hsa_amd_memory_pool_allocate(kernarg_pool, kernel.kernarg_size < 64 ? 64 : kernel.kernarg_size, 0, &kernarg) !=
      HSA_STATUS_SUCCESS) {
    hsa_amd_memory_pool_free(memory);
    return false;
  }
  hsa_amd_agents_allow_access(1, &gpu, nullptr, kernarg);
  // The layout hipcc gives read_table(int*, char, long): 0, 8, 16 (explicit arguments).
  std::memset(kernarg, 0, kernel.kernarg_size);
  std::memcpy(static_cast<char*>(kernarg) + 0, &memory, 8);
  std::memcpy(static_cast<char*>(kernarg) + 8, &pad, 1);
  std::memcpy(static_cast<char*>(kernarg) + 16, &scale, 8);
  const bool completed = dispatch_and_wait(gpu, kernel, kernarg, items, items);
  if (completed) {
    out->resize(items);
    std::memcpy(out->data(), memory, bytes);
  }
  hsa_amd_memory_pool_free(kernarg);
  hsa_amd_memory_pool_free(memory);
  return completed;
}

}  // namespace hsa_conformance
