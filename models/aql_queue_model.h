// models/aql_queue_model.h - the AQL queue protocol as pure transitions over a plain state.
//
// This is the single source of truth for the protocol: tests/property checks
// the real code in src/ against it by refinement, and proofs/ encodes the same
// transitions in Z3 (proofs/aql cross-checks its encoding against step()).
// Depends on nothing in src/. Every violation names its spec clause
// (spec/aql-queue.md).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace rocref::model {

// FetchAdd and Cas: one atomic read-modify-write of write_index, any number of
// producers. Plain: a load, then a store of the value + 1 (AQL-IDX-7), as HSA
// permits on a queue with one producer (HSA_QUEUE_TYPE_SINGLE); with two it loses
// a packet, which the model shows.
enum class Reservation : uint8_t { FetchAdd, Cas, Plain };
enum class DoorbellStore : uint8_t { Plain, Max };

// Known-bad protocol variants; each must be caught (spec/aql-queue.md, "Mutants").
struct AqlMutants {
  bool skip_full_check = false;             // AQL-IDX-2
  bool doorbell_before_header = false;      // AQL-DB-1
  bool doorbell_over_advance = false;       // AQL-DB-3
  bool header_reset_after_read_index = false;  // AQL-RET-1
  bool body_write_clears_header = false;    // AQL-INV-2 (with the "not INVALID" launch test)
  bool invalid_header_consumed = false;     // AQL-INV-1
  bool ignore_barrier_bit = false;          // AQL-BAR-1
  bool non_atomic_signal_decrement = false; // AQL-SIG-2
  bool barrier_packet_does_not_block = false;    // AQL-BAR-4: later packets launch past a BARRIER_VALUE
  bool barrier_value_ignores_condition = false;  // AQL-BAR-4: BARRIER_VALUE completes before its condition holds
};

struct AqlConfig {
  uint32_t producers = 2;            // 1..4
  uint32_t ring_size = 4;            // power of two
  uint32_t packets_per_producer = 3;
  Reservation reservation = Reservation::FetchAdd;
  DoorbellStore doorbell = DoorbellStore::Plain;
  bool single_queue = false;         // SINGLE: doorbell must only increase (AQL-DB-2)
  uint32_t barrier_every = 0;        // packet id % barrier_every == 0 carries the barrier bit; 0: none
  // packet id % barrier_value_every == 1 % barrier_value_every is AMD's BARRIER_VALUE packet,
  // waiting for the dependency signal to reach 0 (condition EQ 0); 0: none (AQL-BAR-4)
  uint32_t barrier_value_every = 0;
  AqlMutants mutants;
};

enum class SlotHeader : uint8_t {
  Invalid,    // type INVALID (1)
  Published,  // a producer's release store of header+setup
  Zeroed,     // type 0 left by a write that cleared the header word: "not INVALID" yet unpublished
};

struct Slot {
  SlotHeader header = SlotHeader::Invalid;
  uint64_t header_id = 0;  // id whose publish wrote the header
  uint64_t body_id = 0;    // id whose body the slot holds
  bool has_body = false;
  bool barrier = false;
  bool barrier_value = false;  // the published packet is a BARRIER_VALUE

  bool operator==(const Slot&) const = default;
};

// Loaded (last, so the others keep their values): a Plain reservation has read
// write_index into id and not yet stored it back.
enum class ProducerPc : uint8_t { Idle, Reserved, HasRoom, BodyWritten, Published, Rung, Done, Loaded };

struct Producer {
  ProducerPc pc = ProducerPc::Idle;
  uint64_t id = 0;         // owned packet id while pc is past Idle
  uint32_t remaining = 0;  // packets still to submit

  bool operator==(const Producer&) const = default;
};

enum class ProcessorPc : uint8_t { Fetch, Launched, HeaderReset, ReadAdvanced };

struct InFlight {
  uint64_t id = 0;
  bool barrier_packet = false;  // a BARRIER_VALUE: completes when its condition holds, blocks later launches
  bool decrement_read = false;  // mutant non-atomic decrement: value read, write pending
  int64_t observed = 0;

  bool operator==(const InFlight&) const = default;
};

struct AqlState {
  uint64_t write_index = 0;
  uint64_t read_index = 0;
  uint64_t doorbell = 0;
  bool doorbell_rung = false;
  std::vector<Slot> slots;
  std::vector<Producer> producers;
  ProcessorPc processor = ProcessorPc::Fetch;
  uint64_t launching = 0;           // id between launch and read_index advance
  std::vector<InFlight> in_flight;  // launched, not completed, in launch order
  uint64_t launched = 0;            // packets launched so far
  uint64_t completed = 0;           // packets completed so far
  int64_t signal = 0;               // completion signal shared by every packet
  int64_t signal_initial = 0;
  int64_t dependency = 1;           // the BARRIER_VALUE packets' dependency signal; the host sets it to 0

  bool operator==(const AqlState&) const = default;
};

enum class Actor : uint8_t { Producer, Processor, Completion, Host };

enum class Action : uint8_t {
  Reserve,          // producer: fetch_add, a successful CAS (enabled only when there is room), or Plain's load
  CheckRoom,        // producer (fetch_add): passes once id < read_index + size
  WriteBody,        // producer: bytes 4..63
  Publish,          // producer: release store of header+setup
  RingDoorbell,     // producer
  StoreWriteIndex,  // producer (Plain): write_index = id + 1
  Launch,           // processor: header valid at read_index, barrier rule holds
  ResetHeader,      // processor: slot back to INVALID
  AdvanceRead,      // processor: read_index + 1 (release)
  Complete,         // completion of in_flight[index]: release fence, signal decrement
  SetDependency,    // host: stores 0 to the BARRIER_VALUE dependency signal
};

struct Step {
  Actor actor;
  Action action;
  uint32_t index = 0;  // producer number, or in_flight position for Complete

  bool operator==(const Step&) const = default;
};

struct Violation {
  std::string clause;   // e.g. "AQL-PUB-3"
  std::string message;
};

struct StepResult {
  AqlState next;
  std::optional<Violation> violation;  // a safety clause broken by this step
};

AqlState initial_state(const AqlConfig& config);
// Every step enabled in `state`, producers first, in a fixed order.
std::vector<Step> enabled_steps(const AqlConfig& config, const AqlState& state);
bool is_enabled(const AqlConfig& config, const AqlState& state, const Step& step);
// Applies an enabled step. Precondition: is_enabled(config, state, step).
StepResult step(const AqlConfig& config, const AqlState& state, const Step& step);
// State invariants that must hold after every step (AQL-IDX-3, AQL-IDX-4, AQL-SIG-2, ...).
std::optional<Violation> check_invariants(const AqlConfig& config, const AqlState& state);
// Every producer done and every packet completed.
bool is_final(const AqlConfig& config, const AqlState& state);

std::string describe(const Step& step);
std::string describe(const AqlConfig& config, const AqlState& state);

inline uint64_t index_distance(uint64_t earlier, uint64_t later) { return later - earlier; }

}  // namespace rocref::model
