// common/aql_protocol.h - the AQL queue protocol's decisions, written once for every value domain.
//
// Each function below is one decision or ordering of a protocol step
// (spec/aql-queue.md): the full check, the doorbell value, the launch guard,
// the order of the producer's and the processor's steps, the memory order of
// each publication access. They are templates over a value domain:
// ConcreteDomain (uint64_t, bool) for src/ - QueueRing, CachedProducer,
// RingReader, the packet processor and the command layer call them on their
// hot paths - and a Z3 domain (proofs/aql/z3_domain.h) from which
// proofs/aql/aql_encoding.cpp builds the transition relation that
// `rocref verify` checks. So the text that runs is the text that is proved: a
// change here changes both (spec/aql-queue.md, "One source").
//
// Rules for the bodies: branch on domain values only through d.ite(); use
// d.ult/ule/slt for comparisons (unsigned and signed bit-vector order); ask
// planted bugs through d.mutant(), so both instantiations take the same branch.
#pragma once

#include <atomic>
#include <cstdint>

#include "common/mutant.h"

// The programs below take the hot path's steps as callbacks: they must vanish
// into their callers (callgrind gate, bench/baseline/callgrind.txt).
#define ROCREF_PROTOCOL_INLINE [[gnu::always_inline]] inline

namespace rocref::aql {

// The value domain of src/: plain integers and booleans; mutants as compiled in.
struct ConcreteDomain {
  using U64 = uint64_t;
  using Bool = bool;
  static constexpr U64 u64(uint64_t v) noexcept { return v; }
  static constexpr Bool truth(bool v) noexcept { return v; }
  static constexpr Bool ult(U64 a, U64 b) noexcept { return a < b; }
  static constexpr Bool ule(U64 a, U64 b) noexcept { return a <= b; }
  static constexpr Bool slt(U64 a, U64 b) noexcept { return static_cast<int64_t>(a) < static_cast<int64_t>(b); }
  static constexpr U64 ite(Bool c, U64 a, U64 b) noexcept { return c ? a : b; }
  static bool mutant(Mutant m) noexcept { return mutant_active(m); }
};

// --- producer -------------------------------------------------------------

// AQL-IDX-2: a reservation whose newest id is `last` may be written once
// last < read + size, compared by modular distance (AQL-IDX-5) so it holds
// across 2^64: distance(read, last) < size. A reserved id is never behind
// read_index (AQL-IDX-1), so the distance does not wrap.
template <typename D>
ROCREF_PROTOCOL_INLINE typename D::Bool room_for(const D& d, typename D::U64 read, typename D::U64 last,
                                                 typename D::U64 size) {
  if (d.mutant(Mutant::SkipFullCheck)) return d.truth(true);
  return d.ult(last - read, size);
}

// AQL-IDX-2 as a bound: for ids not behind `read` (AQL-IDX-1) by less than 2^63 ahead,
// is_before(last, room_limit(read, size)) is room_for(read, last, size). A producer that
// caches the bound (CachedProducer) tests each reservation with one compare and
// evaluates room_for itself only when the bound says no.
template <typename D>
typename D::U64 room_limit(const D& d, typename D::U64 read, typename D::U64 size) {
  if (d.mutant(Mutant::RoomLimitPastRing)) return read + size + d.u64(1);
  return read + size;
}

// AQL-IDX-5: `id` comes before `limit` by modular distance (signed: one compare and a sign test).
template <typename D>
ROCREF_PROTOCOL_INLINE typename D::Bool is_before(const D& d, typename D::U64 id, typename D::U64 limit) {
  return d.slt(id - limit, d.u64(0));
}

// AQL-DB-1, AQL-DB-3: the value a producer stores for the newest packet `id` it published.
template <typename D>
typename D::U64 doorbell_value(const D& d, typename D::U64 id, typename D::U64 size) {
  if (d.mutant(Mutant::DoorbellOverAdvance)) return id + size;
  return id;
}

// AQL-IDX-5: `later` is newer than `earlier` by modular distance (less than 2^63 ahead).
template <typename D>
typename D::Bool is_newer(const D& d, typename D::U64 earlier, typename D::U64 later) {
  return d.slt(d.u64(0), later - earlier);
}

// AQL-DB-2 with max-stores: the doorbell after storing `value`, given what it held
// (`rung`: whether it held anything). Never goes back, across 2^64 too.
template <typename D>
typename D::U64 max_doorbell(const D& d, typename D::Bool rung, typename D::U64 current, typename D::U64 value) {
  return d.ite(rung && !is_newer(d, current, value), current, value);
}

// AQL-IDX-1, AQL-IDX-7: the reservation. Ops that provide load_write_index() and
// store_write_index() belong to a queue with one producer (HSA_QUEUE_TYPE_SINGLE,
// or producers serialised by the caller): a plain load, then a store of the value +
// count, with no locked instruction. Any other ops reserve with one atomic
// read-modify-write, reserve(). The proofs record which steps were taken: two
// producers on the plain form lose a packet (a COUNTEREXAMPLE row of `rocref verify`).
template <typename Ops>
concept PlainReservation = requires(Ops& ops) {
  ops.load_write_index();
  ops.store_write_index();
};

template <typename D, typename Ops>
ROCREF_PROTOCOL_INLINE void reserve_program(const D&, Ops& ops) {
  if constexpr (PlainReservation<Ops>) {
    ops.load_write_index();
    ops.store_write_index();
  } else {
    ops.reserve();
  }
}

// The producer's steps in the order it takes them (AQL-IDX-1/2, AQL-PUB-2, AQL-PUB-1,
// AQL-DB-1) for a reservation of ops.count() packets: reserve (reserve_program),
// wait for room, each packet's body then header (in id order, so the processor may
// start on the first), one doorbell for the newest. `ops` provides the reservation,
// wait_for_room(), write_body(i), publish(i), ring_doorbell() and count(); the code
// runs them, the proof records their order.
template <typename D, typename Ops>
ROCREF_PROTOCOL_INLINE void producer_program(const D& d, Ops& ops) {
  reserve_program(d, ops);
  ops.wait_for_room();
  if (d.mutant(Mutant::DoorbellBeforeHeader)) {
    for (uint32_t i = 0; i < ops.count(); ++i) ops.write_body(i);
    ops.ring_doorbell();
    for (uint32_t i = 0; i < ops.count(); ++i) ops.publish(i);
    return;
  }
  for (uint32_t i = 0; i < ops.count(); ++i) {
    ops.write_body(i);
    ops.publish(i);
  }
  ops.ring_doorbell();
}

// AQL-PUB-1: header+setup are stored with release; AQL-PUB-3: loaded with acquire.
template <typename D>
std::memory_order header_store_order(const D& d) {
  return d.mutant(Mutant::RelaxedHeaderStore) ? std::memory_order_relaxed : std::memory_order_release;
}
constexpr std::memory_order kHeaderLoadOrder = std::memory_order_acquire;
// AQL-DB-1: the doorbell store releases the header store before it.
constexpr std::memory_order kDoorbellStoreOrder = std::memory_order_release;
// AQL-IDX-2 / AQL-RET-2: read_index is released by the processor and acquired by producers.
constexpr std::memory_order kReadIndexStoreOrder = std::memory_order_release;
constexpr std::memory_order kReadIndexLoadOrder = std::memory_order_acquire;

// --- packet processor -----------------------------------------------------

// AQL-INV-1, AQL-BAR-1, AQL-BAR-4: the packet at read_index may launch.
// `header_invalid`: its type is INVALID; `barrier`: its barrier bit; `idle`:
// nothing launched is incomplete; `barrier_packet_in_flight`: a launched
// BARRIER_VALUE (or barrier-AND/OR) has not completed.
template <typename D>
typename D::Bool may_launch(const D& d, typename D::Bool header_invalid, typename D::Bool barrier,
                            typename D::Bool idle, typename D::Bool barrier_packet_in_flight) {
  typename D::Bool published = d.mutant(Mutant::InvalidHeaderConsumed) ? d.truth(true) : !header_invalid;
  typename D::Bool barrier_ok = d.mutant(Mutant::IgnoreBarrierBit) ? d.truth(true) : (!barrier || idle);
  typename D::Bool unblocked = d.mutant(Mutant::BarrierPacketDoesNotBlock) ? d.truth(true) : !barrier_packet_in_flight;
  return published && barrier_ok && unblocked;
}

// AQL-BAR-4: AMD's BARRIER_VALUE completes once (value & mask) satisfies `condition`
// against `compare` (hsa_signal_condition_t: EQ 0, NE 1, LT 2, GTE 3; signed, as
// signal values are). Any other condition never holds (the packet is rejected at launch).
template <typename D>
typename D::Bool barrier_value_satisfied(const D& d, uint32_t condition, typename D::U64 value,
                                         typename D::U64 mask, typename D::U64 compare) {
  if (d.mutant(Mutant::BarrierValueIgnoresCondition)) return d.truth(true);
  const typename D::U64 masked = value & mask;
  switch (condition) {
    case 0: return masked == compare;
    case 1: return !(masked == compare);
    case 2: return d.slt(masked, compare);
    case 3: return !d.slt(masked, compare);
    default: return d.truth(false);
  }
}

// AQL-RET-1: after a launch, the slot goes back to INVALID, then read_index
// advances. `ops` provides reset_header() and advance_read().
template <typename D, typename Ops>
ROCREF_PROTOCOL_INLINE void retire_program(const D& d, Ops& ops) {
  if (d.mutant(Mutant::HeaderResetAfterReadIndex)) {
    ops.advance_read();
    ops.reset_header();
    return;
  }
  ops.reset_header();
  ops.advance_read();
}

// The order retire_program takes, as data, for processors that take one step per call.
enum class RetireStep : uint8_t { ResetHeader, AdvanceRead };
struct RetireOrder {
  RetireStep first, second;
};
template <typename D>
RetireOrder retire_order(const D& d) {
  struct Recorder {
    RetireStep steps[2];
    int n = 0;
    void reset_header() { steps[n++] = RetireStep::ResetHeader; }
    void advance_read() { steps[n++] = RetireStep::AdvanceRead; }
  } r;
  retire_program(d, r);
  return RetireOrder{r.steps[0], r.steps[1]};
}

}  // namespace rocref::aql
