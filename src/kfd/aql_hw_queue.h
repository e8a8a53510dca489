// kfd/aql_hw_queue.h - a COMPUTE_AQL user queue as the hardware scheduler runs it.
//
// Wraps the GPU model's packet processor over the process's GPUVM. The ring
// and the read pointer come from the MQD and are translated through GPUVM at
// every access (AQL-MEM-1), so an unmapped or freed queue faults like any other
// GPU access (KFD-Q-5) and never reaches pages the process no longer maps. The
// amd_queue_t (at write_pointer_address - offsetof(amd_queue_t,
// write_dispatch_id)) is read, also through GPUVM, only to report an error. Completions with an event mailbox and VM faults become IH ring
// entries; a VM fault or a processor error puts the queue in error (KFD-FAULT-2).
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>

#include "common/owner_counter.h"
#include "kfd/bound_hw_queue.h"
#include "kfd/mqd.h"

namespace rocref::gpu {
class PacketProcessor;
}

namespace rocref::kfd {

class AqlHwQueue final : public BoundHwQueue {
 public:
  // The ring (GPU VA, bytes) and read pointer are the MQD's; ROCR's amd_queue_t lies at the
  // MQD's write-pointer address - offsetof(amd_queue_t, write_dispatch_id) (KFD-Q-3), read only
  // for its queue_inactive_signal on an error.
  AqlHwQueue(const QueueContext& ctx, const Mqd& m);
  ~AqlHwQueue() override;

  bool runnable() noexcept override;
  bool step() noexcept override;
  // KFD-HWS-5: preemption saves the read index in the MQD at a packet boundary; mapping again
  // continues there.
  void unmap() noexcept override;
  void map() noexcept override;

  uint64_t steps() const noexcept { return steps_.load(); }
  // The VM fault handler marks the queue being stepped (the one that faulted).
  static AqlHwQueue* current() noexcept;
  void mark_faulted() noexcept { faulted_ = true; }

 private:
  bool bind() noexcept;

  const uint64_t amd_queue_va_;
  const uint64_t ring_va_;
  const uint64_t ring_bytes_;
  const uint64_t read_pointer_va_;
  OwnerCounter steps_;  // the stepping thread counts
  bool faulted_ = false;
  std::unique_ptr<gpu::PacketProcessor> processor_;
};

}  // namespace rocref::kfd
