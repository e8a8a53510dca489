// gpu/packet_processor.h - the AQL packet processor of one hardware queue.
//
// Follows spec/aql-queue.md: acquire-load the header at read_index; INVALID
// means wait (never consume); KERNEL_DISPATCH, BARRIER_AND, BARRIER_OR,
// AGENT_DISPATCH and AMD's BARRIER_VALUE vendor packet are processed; any other
// or malformed packet puts the queue in error (AQL-ERR-*) and nothing further
// launches. Steppable: every call of a step function performs at most one
// observable action, named like the model's actions (models/aql_queue_model.h)
// so the property tests can check refinement step by step.
//
// Error codes: a malformed packet or unknown kernel object is
// HSA_STATUS_ERROR_INVALID_PACKET_FORMAT; an address that does not translate
// is HSA_STATUS_ERROR_MEMORY_APERTURE_VIOLATION (a GPU page fault); a group
// segment over 64 KiB is HSA_STATUS_ERROR_OUT_OF_RESOURCES; a kernel that
// throws or a failing agent is HSA_STATUS_ERROR_EXCEPTION. A queue in error
// launches nothing more; packets it launched before may still complete.
//
// Mutants honoured (rocref_gpu_mutable): HeaderResetAfterReadIndex (AdvanceRead
// before ResetHeader), InvalidHeaderConsumed (an INVALID slot launched as a
// packet with no signal), IgnoreBarrierBit, BarrierOrNeedsAll,
// VendorTypeAcceptedAsValid (the AQL-INV-2 check: a type-0 header without a
// known AMD format launches as a no-op that decrements its completion signal,
// a false completion, instead of a queue error), NonAtomicSignalDecrement (in
// sig::complete_signal).
//
// Made while the adversarial mode is on (gpu/adversary.h), step() takes the seeded
// choices of spec/adversarial-gpu.md: completion order, delays, launches only after a
// delivered doorbell, and dispatches released below system scope complete before
// their writes (deferred to the agent's next launch or system-scope release).
#pragma once

#include <hsa/amd_hsa_queue.h>
#include <hsa/hsa.h>

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "gpu/memory_access.h"

namespace rocref::gpu {

enum class ProcessorAction : uint8_t {
  None,         // nothing to do now (INVALID header, barrier wait, dependency wait, error)
  Launch,       // packet at read_index launched (acquire fence applied)
  ResetHeader,  // launched packet's slot set back to INVALID
  AdvanceRead,  // read_index + 1, release store
  Complete,     // a launched packet finished: release fence, signal decrement, mailbox, interrupt
  Error,        // the queue entered the error state on this step
};

struct ProcessorStep {
  ProcessorAction action = ProcessorAction::None;
  uint64_t packet_id = 0;
};

// Called when a completion signal with an event mailbox is decremented (the interrupt).
using InterruptHandler = std::function<void(uint32_t event_id)>;
// Called once when the queue enters the error state (the queue's error callback).
using QueueErrorHandler = std::function<void(hsa_status_t status, uint64_t packet_id)>;
// Agent-dispatch packets are served by the agent (host) side: returns false to fail the packet.
using AgentDispatchHandler = std::function<bool(const hsa_agent_dispatch_packet_t& packet)>;

struct QueueBinding {
  amd_queue_t* queue = nullptr;           // ring, indices and doorbell signal, ROCR's layout
  // Or, with queue null, the queue as the CP knows it from the MQD (AQL-MEM-1): ring GPU VA and
  // size in packets, and the GPU VA of the 64-bit read index, each translated at every use, so
  // freeing or unmapping them is a fault, never a stale host pointer.
  uint64_t ring_va = 0;
  uint32_t ring_packets = 0;
  uint64_t read_index_va = 0;
  // The queue descriptor's GPU VA (amd_queue_t), for the adversarial mode only: its doorbell
  // checks (gpu/adversarial_queue.h) read the doorbell signal through it. Translated once when
  // the adversary binds; the fast mode never reads it.
  uint64_t amd_queue_va = 0;
  MemoryAccess* memory = nullptr;          // every ring, signal, kernarg access goes through it
  InterruptHandler on_interrupt;
  QueueErrorHandler on_error;
  AgentDispatchHandler on_agent_dispatch;  // null: agent packets complete with no side effect
};

// Where the fetch side stands, as the model's ProcessorPc (models/aql_queue_model.h).
enum class ProcessorPhase : uint8_t {
  Fetch,         // next step_fetch() tries to launch the packet at read_index
  Launched,      // launched; header reset (or, mutant, read advance) next
  HeaderReset,   // header reset; read advance next
  ReadAdvanced,  // mutant HeaderResetAfterReadIndex only: read advanced, header reset next
};

// Why the queue entered the error state: what on_error received, plus detail.
struct QueueError {
  hsa_status_t status = HSA_STATUS_SUCCESS;
  uint64_t packet_id = 0;
  uint64_t address = 0;  // kernel object, signal or other address concerned; 0 if none
  std::string what;      // starts with the clause, e.g. "AQL-ERR-1: dispatch with a zero grid dimension"
};

struct ProcessorStats {
  uint64_t launched = 0;
  uint64_t completed = 0;
  uint64_t interrupts = 0;
};

class PacketProcessor {
 public:
  explicit PacketProcessor(QueueBinding binding);
  ~PacketProcessor();
  PacketProcessor(const PacketProcessor&) = delete;
  PacketProcessor& operator=(const PacketProcessor&) = delete;

  // One of Launch / ResetHeader / AdvanceRead, or None/Error. Never completes.
  ProcessorStep step_fetch();
  // Tries to complete the in-flight packet at position `index` (launch order).
  // A kernel dispatch runs its grid here; a barrier completes only when its rule holds.
  ProcessorStep step_complete(size_t index);
  // Default policy: finish retiring a launched packet (ResetHeader, AdvanceRead:
  // frees its slot before any kernel runs), else complete what can complete
  // (oldest first), else try the next launch.
  ProcessorStep step();
  // Runs step() until it does nothing; returns the number of actions.
  uint64_t drain(uint64_t max_steps = UINT64_MAX);

  // has_work, in_flight and in_flight_ids: the stepping thread only. in_error,
  // error_status, inactivate, stats and last_error: any thread.
  bool has_work() const;  // something launchable or completable may be pending
  size_t in_flight() const;
  std::vector<uint64_t> in_flight_ids() const;
  bool in_error() const;
  hsa_status_t error_status() const;
  void inactivate();      // hsa_queue_inactivate: nothing further launches
  // At a packet boundary with nothing launched, in flight or deferred (stepping thread only):
  // the queue's whole fetch state is its read index.
  bool preemptible() const;
  // A queue mapped again after a preemption (KFD-HWS-5): fetching continues at `read`, the
  // read index the CP saved in the MQD. Only when preemptible(); returns whether it was.
  bool resume_at(uint64_t read);
  ProcessorStats stats() const;

  // Additions for refinement checks and diagnostics.
  ProcessorPhase phase() const;        // stepping thread only
  uint64_t fetch_index() const;        // id the next launch would take (stepping thread only)
  std::optional<QueueError> last_error() const;  // set once, readable from any thread

 private:
  struct Impl;
  Impl* impl_;
};

}  // namespace rocref::gpu
