// kfd/sdma_hw_queue.h - an SDMA user queue as the hardware scheduler runs it.
//
// Wraps the GPU model's SDMA engine (gpu/sdma, spec/sdma.md) over the
// process's GPUVM: the ring, read and write pointers from CREATE_QUEUE, the
// doorbell slot of the process's doorbell page (a byte-offset write pointer).
// TRAP packets become IH ring entries carrying the event id; an engine error
// stops the queue. The engine reads the write pointer from the queue's HQD
// register (CP_HQD_PQ_WPTR), which takes the doorbell's value while the queue is
// mapped and is reloaded from it when the queue is mapped again (KFD-HWS-5): a
// doorbell written while the queue was preempted is never lost.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>

#include "gpu/sdma/sdma_engine.h"
#include "kfd/bound_hw_queue.h"
#include "kfd/mqd.h"

namespace rocref::kfd {

class SdmaHwQueue final : public BoundHwQueue {
 public:
  // The ring, read and write pointers are the MQD's; SDMA-RING-2: the doorbell slot carries the
  // ring's byte write pointer.
  SdmaHwQueue(const QueueContext& ctx, const Mqd& m);

  bool runnable() noexcept override;
  bool step() noexcept override;
  void unmap() noexcept override;
  void map() noexcept override;

 private:
  uint64_t doorbell() const noexcept;
  void latch_doorbell() noexcept;  // the doorbell's value reaches the mapped queue's HQD

  const uint64_t ring_base_;
  const uint64_t ring_size_;
  const uint64_t read_pointer_;
  const uint64_t write_pointer_;
  const uint64_t* const doorbell_;
  uint64_t hqd_wptr_ = 0;                          // CP_HQD_PQ_WPTR: the write pointer the engine acts on
  uint64_t last_packet_ = 0;                       // rptr of the last packet executed
  bool stale_ = false;                             // planted PreemptDropsPendingWptr: the doorbell is ignored
  uint64_t stale_doorbell_ = 0;                    // until it changes from this value
  std::unique_ptr<gpu::sdma::SdmaEngine> engine_;  // bound on the first step, as the CP maps a queue
};

}  // namespace rocref::kfd
