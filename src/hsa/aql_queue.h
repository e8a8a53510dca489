// hsa/aql_queue.h - a user-mode AQL queue created through the thunk (hsa_queue_create).
//
// HSA-QUEUE-2, the creation sequence of FACTS/ROCR: ring in GPU-mapped system
// memory (USERPTR), amd_queue_t with write/read dispatch ids, every header
// INVALID, hsaKmtCreateQueue (COMPUTE_AQL, read/write pointers into the
// amd_queue_t), a DOORBELL-kind signal pointing into the mmapped doorbell page,
// then the queue-inactive interrupt signal (CREATE_EVENT) and the CU mask.
// The thunk allocates the EOP buffer and context-save area itself, as libhsakmt does.
#pragma once

#include <hsa/amd_hsa_queue.h>
#include <hsa/hsa.h>
#include <hsakmt.h>

#include <atomic>
#include <cstdint>
#include <mutex>
#include <vector>

#include "common/aql_ring.h"

namespace rocref::hsa {

class Agent;
class SignalObject;

using QueueErrorCallback = void (*)(hsa_status_t status, hsa_queue_t* source, void* data);

class AqlQueue {
 public:
  // Arguments are already checked by the entry point; failures here are resources.
  static hsa_status_t create(Agent& agent, uint32_t size, hsa_queue_type32_t type, QueueErrorCallback callback,
                             void* data, AqlQueue** out);
  ~AqlQueue();
  AqlQueue(const AqlQueue&) = delete;
  AqlQueue& operator=(const AqlQueue&) = delete;

  hsa_queue_t* public_queue() noexcept { return &amd_->hsa_queue; }
  amd_queue_t* amd() noexcept { return amd_; }
  Agent& agent() const noexcept { return agent_; }

  // HSA-QUEUE-4: the KFD stops scheduling the queue (UPDATE_QUEUE, 0 percent).
  hsa_status_t inactivate();
  // HSA-PROF-1: the packet processor stamps start_ts/end_ts of completion signals.
  void set_profiling(bool enable) noexcept;
  hsa_status_t set_cu_mask(uint32_t count, const uint32_t* mask);
  // hsa_amd_queue_cu_get_mask: the mask in effect, zero-filled past the agent's CUs.
  void cu_mask(uint32_t count, uint32_t* mask) const;
  // hsa_amd_queue_set_priority (HSA-QUEUE-6): UPDATE_QUEUE at 100 percent; INVALID_QUEUE once inactive.
  hsa_status_t set_priority(HSA_QUEUE_PRIORITY priority);
  // The error callback has run (HSA-QUEUE-5): nothing on this queue completes any more.
  bool in_error() const noexcept { return error_reported_.load(std::memory_order_acquire); }

 private:
  AqlQueue(Agent& agent, QueueErrorCallback callback, void* data) : agent_(agent), callback_(callback), data_(data) {}
  hsa_status_t init(uint32_t size, hsa_queue_type32_t type);
  void release_resources();
  // HSA-QUEUE-5: the async handler saw queue_inactive_signal != 0.
  static bool on_inactive(hsa_signal_value_t value, void* arg);

  Agent& agent_;
  QueueErrorCallback callback_;
  void* data_;
  amd_queue_t* amd_ = nullptr;
  void* ring_ = nullptr;
  size_t ring_bytes_ = 0;
  SignalObject* doorbell_ = nullptr;
  SignalObject* inactive_ = nullptr;
  HSA_QUEUEID queue_id_ = 0;
  bool kfd_queue_ = false;
  std::atomic<bool> active_{true};
  std::atomic<HSA_QUEUE_PRIORITY> priority_{HSA_QUEUE_PRIORITY_NORMAL};
  mutable std::mutex mask_mutex_;
  std::vector<uint32_t> cu_mask_;  // under mask_mutex_
  std::atomic<bool> error_reported_{false};
};

}  // namespace rocref::hsa
