// gpu/adversarial_queue.h - one queue's side of the adversarial GPU mode (gpu/adversary.h).
//
// Owned by a PacketProcessor created while the mode is on. It holds the queue's
// choice stream, the doorbell value the processor has been delivered (AQL-ADV-2:
// a packet launches only once a doorbell value at or past its id was delivered;
// delivery is late by a seeded number of steps, so values coalesce), and the
// checks run at every notified doorbell store on the producer's thread:
// AQL-DB-1 (the packet the doorbell names has a published header) and AQL-IDX-2
// (the doorbell is less than read_index + size). A violation is printed with the
// seed and handed to the processor, which puts the queue in error.
#pragma once

#include <hsa/amd_hsa_queue.h>

#include <atomic>
#include <cstdint>
#include <mutex>
#include <optional>
#include <string>

#include "gpu/adversary.h"
#include "gpu/memory_access.h"

namespace rocref::gpu {

class AdversarialQueue {
 public:
  AdversarialQueue(amd_queue_t* queue, MemoryAccess* memory) noexcept;

  // Stepping thread.
  bool rung(uint64_t id) noexcept;          // AQL-ADV-2: id is covered by a delivered doorbell value
  void launched(uint64_t id) noexcept;      // publishes the fetch position for the doorbell check
  void fetched_invalid() noexcept;          // the fetch met an INVALID header: the ring's scan ends
  bool owes() const noexcept { return delays_ != 0 || late_ != 0; }  // last step was a seeded wait
  bool delay() noexcept;                    // AQL-ADV-3: idle this step (bounded run of delays)
  std::optional<std::string> take_violation();
  std::string stuck(uint64_t read, bool idle_fetch);  // AQL-ADV-5 watchdog's test
  adversary::Chooser& chooser() noexcept { return chooser_; }

  // Any thread (the doorbell observer): must not block.
  void check_doorbell() noexcept;

 private:
  bool bind() noexcept;  // caches the doorbell, ring and read-index host addresses
  bool doorbell(uint64_t* value) const noexcept;
  bool published(uint64_t id) const noexcept;  // the slot of `id` holds a non-INVALID header

  amd_queue_t* const queue_;
  MemoryAccess* const memory_;
  adversary::Chooser chooser_;
  uint64_t delivered_ = 0;      // ids below it are rung (stepping thread)
  uint64_t bind_value_ = 0;     // the doorbell's value when bound: maybe a recycled slot's last
  bool moved_ = false;          // the doorbell changed since it was bound
  uint64_t last_sample_ = 0;    // the doorbell's value at the last delivery
  bool scan_ = false;           // a ring was delivered: fetch until an INVALID header
  uint32_t delays_ = 0;         // consecutive delayed steps
  uint32_t late_ = 0;           // steps the doorbell value has waited for delivery
  std::atomic<bool> bound_{false};
  const uint64_t* doorbell_ = nullptr;      // written before bound_ is released
  const uint8_t* ring_ = nullptr;
  uint32_t size_ = 0;
  const uint64_t* read_index_ = nullptr;
  std::atomic<uint64_t> fetched_{0};        // ids below it were launched (released at launch)
  std::atomic<uint64_t> last_checked_{0};   // doorbell value the observer checked last
  std::mutex violation_mu_;
  std::optional<std::string> violation_;
  std::atomic<bool> has_violation_{false};
};

}  // namespace rocref::gpu
