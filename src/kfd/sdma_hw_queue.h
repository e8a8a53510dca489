// kfd/sdma_hw_queue.h - an SDMA user queue as the hardware scheduler runs it.
//
// Wraps the GPU model's SDMA engine (gpu/sdma, spec/sdma.md) over the
// process's GPUVM: the ring, read and write pointers from CREATE_QUEUE, the
// doorbell slot of the process's doorbell page (a byte-offset write pointer).
// TRAP packets become IH ring entries carrying the event id; an engine error
// stops the queue.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>

#include "gpu/sdma/sdma_engine.h"
#include "gpu/vm/gpu_vm.h"
#include "kfd/hw_scheduler.h"
#include "kfd/interrupt_ring.h"

namespace rocref::kfd {

struct SdmaQueueAddresses {
  uint64_t ring_base = 0;
  uint64_t ring_size = 0;
  uint64_t read_pointer = 0;
  uint64_t write_pointer = 0;
  const uint64_t* doorbell = nullptr;  // host address of the queue's slot in the doorbell page
};

class SdmaHwQueue final : public HwQueue {
 public:
  SdmaHwQueue(uint32_t pasid, gpu::vm::GpuVm* vm, InterruptRing* ih, SdmaQueueAddresses where, uint32_t priority,
              bool active);

  uint32_t priority() const noexcept override { return priority_.load(std::memory_order_relaxed); }
  bool runnable() noexcept override;
  bool step() noexcept override;

  void set_priority(uint32_t p) noexcept { priority_.store(p, std::memory_order_relaxed); }
  void set_active(bool a) noexcept { active_.store(a, std::memory_order_relaxed); }
  bool in_error() const noexcept { return error_.load(std::memory_order_acquire); }

 private:
  const uint32_t pasid_;
  gpu::vm::GpuVm* const vm_;
  InterruptRing* const ih_;
  const SdmaQueueAddresses where_;
  std::atomic<uint32_t> priority_;
  std::atomic<bool> active_;
  std::atomic<bool> error_{false};
  std::unique_ptr<gpu::sdma::SdmaEngine> engine_;  // bound on the first step, as the CP maps a queue
};

}  // namespace rocref::kfd
