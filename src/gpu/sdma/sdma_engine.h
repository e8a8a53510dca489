// gpu/sdma/sdma_engine.h - one SDMA queue's engine: fetches and executes SDMA packets from its ring.
//
// Follows spec/sdma.md. The ring is a power-of-two byte buffer; the read and
// write pointers are monotonic 64-bit byte offsets (gfx9 and later, as ROCR's
// BlitSdma uses them); the doorbell carries the write pointer. Every ring,
// source and destination access goes through MemoryAccess (GPUVM), so a bad
// address is a fault and a queue error, never a host crash. Steppable: step()
// executes at most one packet.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "gpu/memory_access.h"

namespace rocref::gpu::sdma {

enum class SdmaError : uint8_t {
  None,
  BadBinding,         // SDMA-RING-1: ring size not a power of two, misaligned base, no memory
  BadWritePointer,    // SDMA-RING-2: write pointer misaligned, behind rptr or more than a ring ahead
  UnknownPacket,      // SDMA-ERR-1: opcode or sub-opcode the engine does not implement
  MalformedPacket,    // SDMA-ERR-2: a field outside its range (length over the ring, element size, func 7)
  Misaligned,         // SDMA-ERR-3: an address the packet requires aligned is not
  MemoryFault,        // SDMA-ERR-4: translation failed (GPU page fault)
  UnsupportedPoll,    // SDMA-POLL-3: register poll that is not the HDP-flush form
  UnsupportedAtomic,  // SDMA-ATOM-2: atomic operation other than ADD64
};
const char* sdma_error_name(SdmaError e) noexcept;

enum class SdmaAction : uint8_t {
  None,      // nothing to execute (ring empty, packet incomplete) or already in error
  Executed,  // one packet executed, rptr advanced past it
  Waiting,   // a POLL_REGMEM condition does not hold yet, or (adversarial) a seeded delay; rptr stays
  Error,     // the queue entered the error state on this step
};

struct SdmaStep {
  SdmaAction action = SdmaAction::None;
  uint32_t opcode = 0;
  uint64_t offset = 0;  // rptr (byte offset) of the packet concerned
};

struct SdmaBinding {
  uint64_t ring_base = 0;              // GPU VA of the ring
  uint64_t ring_size = 0;              // bytes, a power of two, at least 16
  uint64_t rptr_va = 0;                // GPU VA of the 64-bit read pointer the engine publishes
  uint64_t wptr_va = 0;                // GPU VA of the 64-bit write pointer (used when no doorbell)
  const uint64_t* doorbell = nullptr;  // host address of this queue's doorbell slot (a byte offset)
  MemoryAccess* memory = nullptr;
  std::function<void(uint32_t int_ctx)> on_trap;                                    // TRAP interrupt
  std::function<void(SdmaError, uint64_t offset, const std::string& what)> on_error;  // once
  std::function<uint64_t()> clock;  // TIMESTAMP source; null: the GPU clock (common/model_clock.h)
  // Adversarial mode (spec/adversarial-gpu.md SDMA-ADV-*): a seeded choice in [0, n); null: none.
  std::function<uint32_t(uint32_t n, const char* what)> choose;
};

struct SdmaStats {
  uint64_t packets = 0;
  uint64_t bytes_moved = 0;  // copied, written or filled
  uint64_t traps = 0;
};

class SdmaEngine {
 public:
  explicit SdmaEngine(SdmaBinding binding);
  SdmaEngine(const SdmaEngine&) = delete;
  SdmaEngine& operator=(const SdmaEngine&) = delete;

  SdmaStep step();
  // Runs step() until it reports None or Waiting; returns the packets executed.
  uint64_t drain(uint64_t max_steps = UINT64_MAX);

  // The write pointer is ahead of rptr and the queue is not in error, or (adversarial
  // mode) an interrupt is still to be raised.
  bool has_work() const;
  // Adversarial mode: the last step was a seeded delay; step again (SDMA-ADV-1).
  bool owes() const { return late_ != 0; }
  // No executed TRAP still owes its interrupt (adversarial mode): the engine's whole state is
  // its read pointer.
  bool preemptible() const { return late_traps_.empty(); }
  // A queue mapped again after a preemption (KFD-HWS-5): execution continues at `rptr`, the read
  // pointer saved in the MQD. Only when preemptible(); returns whether it was.
  bool resume_at(uint64_t rptr);
  bool in_error() const { return error_.load(std::memory_order_acquire) != SdmaError::None; }
  SdmaError error() const { return error_.load(std::memory_order_acquire); }
  uint64_t rptr() const { return rptr_; }
  SdmaStats stats() const { return stats_; }

 private:
  uint64_t load_wptr() const;
  SdmaStep fail(SdmaError e, uint64_t offset, uint32_t op, const std::string& what);
  bool execute(const uint32_t* dw, uint64_t ndw, SdmaError& err, std::string& what, bool& waiting);

  uint64_t delivered_wptr();    // SDMA-ADV-1: the write pointer as it reached the engine
  void raise_due_traps(bool all);  // SDMA-ADV-2: interrupts whose delay ran out (or all)

  struct LateTrap {
    uint32_t int_ctx;
    uint32_t steps;  // steps left before it is raised
  };

  SdmaBinding b_;
  uint64_t rptr_ = 0;
  uint64_t delivered_ = 0;             // adversarial: the write pointer the engine acts on
  uint32_t late_ = 0;                  // adversarial: steps the newest doorbell value has waited
  std::vector<LateTrap> late_traps_;   // adversarial: executed TRAPs not yet raised, in order
  std::atomic<SdmaError> error_{SdmaError::None};
  SdmaStats stats_;
};

}  // namespace rocref::gpu::sdma
