// clr/virtual_gpu.h - one stream's view of the GPU: commands in, AQL packets out.
//
// ROCclr's roc::VirtualGPU role. Each command becomes one AQL packet on the
// stream's own HSA queue, written the way ROCclr writes it (seed 002):
// reserve with hsa_queue_add_write_index_screlease, wait for room, copy the
// body, publish header+setup with one release store, ring the doorbell with
// hsa_signal_store_screlease. Every packet carries the barrier bit (a stream
// runs in order) and system-scope acquire and release fences. Completion is
// tracked with one signal per command.
#pragma once

#include <hsa/hsa.h>

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <memory>
#include <mutex>

#include "common/kernel_abi.h"

namespace rocref::clr {

class Device;

struct KernelDispatch {
  uint64_t kernel_id = 0;
  const char* name = "";
  kernel_abi::Dim3 grid_groups;  // work-groups per dimension
  kernel_abi::Dim3 block;        // work-items per work-group
  uint32_t dynamic_group_bytes = 0;
  const void* args = nullptr;    // copied into the kernarg segment by copy_args
  size_t args_size = 0;
  size_t args_align = 16;
  void (*copy_args)(void* dst, const void* src) = nullptr;  // null: plain byte copy
};

class VirtualGpu {
 public:
  static std::unique_ptr<VirtualGpu> create(Device& device, hsa_status_t* status);
  ~VirtualGpu();
  VirtualGpu(const VirtualGpu&) = delete;
  VirtualGpu& operator=(const VirtualGpu&) = delete;

  hsa_status_t launch(const KernelDispatch& dispatch);
  hsa_status_t copy(void* dst, const void* src, size_t size);
  hsa_status_t fill(void* dst, uint32_t pattern, uint32_t pattern_bytes, size_t size);
  // A barrier-AND packet whose completion decrements `signal` (event record).
  hsa_status_t marker(hsa_signal_t signal);
  // A barrier-AND packet that waits for `dependency` to reach 0 (stream wait on event).
  hsa_status_t wait_for(hsa_signal_t dependency);

  // Blocks until every submitted command completed; the queue's error if it failed.
  hsa_status_t synchronize();
  // Blocks until `signal` drops below 1, or the queue fails (then its error).
  hsa_status_t wait_signal(hsa_signal_t signal);
  // True when every submitted command completed (or the queue failed).
  bool idle();
  hsa_status_t error() const { return error_.load(std::memory_order_acquire); }

 private:
  explicit VirtualGpu(Device& device) : device_(device) {}
  struct Pending {
    hsa_signal_t signal;
    void* kernarg;
    bool owns_signal;
  };
  static void on_queue_error(hsa_status_t status, hsa_queue_t* queue, void* data);
  hsa_status_t submit(const void* packet, const char* what, Pending pending);
  hsa_status_t launch_blit(uint64_t kernel_id, const char* name, const void* args, size_t args_size, size_t bytes);
  hsa_status_t barrier_packet(hsa_signal_t dependency, hsa_signal_t completion, bool owns_completion);
  void reclaim_completed_locked();

  Device& device_;
  hsa_queue_t* queue_ = nullptr;
  std::mutex mutex_;
  std::deque<Pending> pending_;
  std::atomic<hsa_status_t> error_{HSA_STATUS_SUCCESS};
};

}  // namespace rocref::clr
