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
struct CopyRect;

// HSA-PROF-2: the GPU clock ticks from the first dispatch's launch to the last one's completion,
// as the packet processor stamped them on the blit's completion signal (HSA-PROF-1).
struct TickSpan {
  uint64_t start = UINT64_MAX;
  uint64_t end = 0;
  void add(uint64_t from, uint64_t to) noexcept {
    start = from < start ? from : start;
    end = to > end ? to : end;
  }
};

class BlitKernel {
 public:
  explicit BlitKernel(Agent& gpu) : gpu_(gpu) {}
  ~BlitKernel();
  BlitKernel(const BlitKernel&) = delete;
  BlitKernel& operator=(const BlitKernel&) = delete;

  // HSA_STATUS_ERROR_OUT_OF_RESOURCES when the queue or memory cannot be made,
  // HSA_STATUS_ERROR when the dispatch ends in a queue error (a GPU page fault: memory the GPU
  // has no mapping of); the next call dispatches on a new queue.
  // `span`, when given, takes in the dispatches' GPU times.
  hsa_status_t copy(void* dst, const void* src, size_t size, TickSpan* span = nullptr);
  // HSA-MEM-8: a rect copy already judged copy_rect_expressible, one dispatch per run of rows.
  hsa_status_t copy_rect(const CopyRect& rect, TickSpan* span = nullptr);
  hsa_status_t fill(uint32_t* dst, uint32_t value, size_t count);
  // A copy with one side in host memory the runtime did not allocate (ROCR locks such memory
  // for the GPU for the copy). That side goes through a staging buffer the GPU maps and is read
  // or written with common/own_memory.h: memory the process cannot read (or,
  // for the destination, write) is HSA_STATUS_ERROR, ROCR's lock failure, and nothing changes.
  hsa_status_t copy_with_host(void* dst, bool dst_is_host, const void* src, bool src_is_host, size_t size);

 private:
  hsa_status_t ensure_ready_locked();
  hsa_status_t dispatch_locked(int kernel, const void* args, size_t args_size, uint32_t items,
                               TickSpan* span = nullptr);
  hsa_status_t copy_locked(void* dst, const void* src, size_t size, TickSpan* span = nullptr);

  Agent& gpu_;
  std::mutex mutex_;  // one blit at a time: one kernarg buffer, one completion signal
  AqlQueue* queue_ = nullptr;
  void* code_ = nullptr;     // descriptors + code records
  void* kernarg_ = nullptr;  // one kernarg segment
  void* staging_ = nullptr;  // copy_with_host's bounce buffer, made at its first use
  SignalObject* done_ = nullptr;
};

}  // namespace rocref::hsa
