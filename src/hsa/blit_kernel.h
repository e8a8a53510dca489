// hsa/blit_kernel.h - copies and fills that run as kernel dispatches on a GPU queue.
//
// ROCR's hsa_memory_copy / hsa_amd_memory_fill dispatch its own blit kernels
// (HSA-MEM-4). rocref dispatches the copy and fill kernels of
// common/copy_fill_kernels.h (the command layer's too), keeps their descriptors in GPU-mapped memory,
// and submits one AQL kernel dispatch per call on a runtime-internal queue of
// the GPU agent; the call returns when the completion signal reaches 0.
#pragma once

#include <hsa/hsa.h>

#include <cstddef>
#include <cstdint>
#include <mutex>

namespace rocref::hsa {

class Agent;
class AqlQueue;
class SignalObject;

class BlitKernel {
 public:
  explicit BlitKernel(Agent& gpu) : gpu_(gpu) {}
  ~BlitKernel();
  BlitKernel(const BlitKernel&) = delete;
  BlitKernel& operator=(const BlitKernel&) = delete;

  // HSA_STATUS_ERROR_OUT_OF_RESOURCES when the queue or memory cannot be made,
  // HSA_STATUS_ERROR when the dispatch ends in a queue error.
  hsa_status_t copy(void* dst, const void* src, size_t size);
  hsa_status_t fill(uint32_t* dst, uint32_t value, size_t count);

 private:
  hsa_status_t ensure_ready_locked();
  hsa_status_t dispatch_locked(int kernel, const void* args, size_t args_size, uint32_t items);

  Agent& gpu_;
  std::mutex mutex_;  // one blit at a time: one kernarg buffer, one completion signal
  AqlQueue* queue_ = nullptr;
  void* code_ = nullptr;     // descriptors + code records
  void* kernarg_ = nullptr;  // one kernarg segment
  SignalObject* done_ = nullptr;
};

}  // namespace rocref::hsa
