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
  hsa_executable_symbol_t symbol;
  if (hsa_executable_get_symbol_by_name(executable, "image_twice_plus_one.kd", &gpu, &symbol) != HSA_STATUS_SUCCESS)
    return false;
  uint64_t kernel_object = 0;
  uint32_t kernarg_size = 0, group = 0, priv = 0;
  hsa_executable_symbol_get_info(symbol, HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_OBJECT, &kernel_object);
  hsa_executable_symbol_get_info(symbol, HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_KERNARG_SEGMENT_SIZE, &kernarg_size);
  hsa_executable_symbol_get_info(symbol, HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_GROUP_SEGMENT_SIZE, &group);
  hsa_executable_symbol_get_info(symbol, HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_PRIVATE_SEGMENT_SIZE, &priv);
  void* kernarg = nullptr;
  if (hsa_amd_memory_pool_allocate(kernarg_pool, kernarg_size < 64 ? 64 : kernarg_size, 0, &kernarg) !=
      HSA_STATUS_SUCCESS)
    return false;
  hsa_amd_agents_allow_access(1, &gpu, nullptr, kernarg);
  std::memset(kernarg, 0, kernarg_size);
  std::memcpy(static_cast<char*>(kernarg) + 0, &src, 8);
  std::memcpy(static_cast<char*>(kernarg) + 8, &dst, 8);
  hsa_queue_t* queue = nullptr;
  hsa_signal_t done{0};
  bool completed = false;
  static std::atomic<bool> failed;
  failed.store(false);
  if (hsa_queue_create(gpu, 64, HSA_QUEUE_TYPE_SINGLE, queue_error_flag, &failed, UINT32_MAX, UINT32_MAX, &queue) ==
          HSA_STATUS_SUCCESS &&
      hsa_signal_create(1, 0, nullptr, &done) == HSA_STATUS_SUCCESS) {
    const uint64_t id = hsa_queue_add_write_index_relaxed(queue, 1);
    auto* packet = static_cast<hsa_kernel_dispatch_packet_t*>(queue->base_address) + (id % queue->size);
    std::memset(reinterpret_cast<char*>(packet) + 4, 0, sizeof *packet - 4);
    packet->workgroup_size_x = static_cast<uint16_t>(width);
    packet->workgroup_size_y = packet->workgroup_size_z = 1;
    packet->grid_size_x = width * height;
    packet->grid_size_y = packet->grid_size_z = 1;
    packet->group_segment_size = group;
    packet->private_segment_size = priv;
    packet->kernel_object = kernel_object;
    packet->kernarg_address = kernarg;
    packet->completion_signal = done;
    const uint16_t header = (HSA_PACKET_TYPE_KERNEL_DISPATCH << HSA_PACKET_HEADER_TYPE) |
                            (HSA_FENCE_SCOPE_SYSTEM << HSA_PACKET_HEADER_SCACQUIRE_FENCE_SCOPE) |
                            (HSA_FENCE_SCOPE_SYSTEM << HSA_PACKET_HEADER_SCRELEASE_FENCE_SCOPE);
    std::atomic_ref<uint32_t>(*reinterpret_cast<uint32_t*>(packet))
        .store(header | (1u << 16), std::memory_order_release);
    hsa_signal_store_screlease(queue->doorbell_signal, static_cast<hsa_signal_value_t>(id));
    while (!failed.load(std::memory_order_acquire)) {
      if (hsa_signal_wait_scacquire(done, HSA_SIGNAL_CONDITION_LT, 1, 1000000, HSA_WAIT_STATE_BLOCKED) < 1) {
        completed = true;
        break;
      }
    }
  }
  if (done.handle != 0) hsa_signal_destroy(done);
  if (queue != nullptr) hsa_queue_destroy(queue);
  hsa_amd_memory_pool_free(kernarg);
  return completed;
}

}  // namespace hsa_conformance
