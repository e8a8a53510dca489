// proofs/aql/aql_invariants.cpp - the auxiliary invariants of the correct queue protocol.
#include "proofs/aql/aql_invariants.h"

namespace rocref::proofs {
namespace {
using model::ProcessorPc;
using model::ProducerPc;
using model::SlotHeader;
}  // namespace

std::vector<NamedFact> auxiliary_invariants(const AqlEncoding& enc, const SymState& s, uint64_t start) {
  z3::context& c = enc.ctx();
  const model::AqlConfig& cfg = enc.config();
  const uint64_t total = uint64_t{cfg.producers} * cfg.packets_per_producer;
  auto bv = [&](uint64_t v, unsigned w = 64) { return enc.bv(v, w); };
  auto pc = [&](ProducerPc v) { return bv(static_cast<uint64_t>(v), 3); };
  auto proc = [&](ProcessorPc v) { return bv(static_cast<uint64_t>(v), 2); };
  auto hdr = [&](SlotHeader v) { return bv(static_cast<uint64_t>(v), 2); };
  auto o = [&](const z3::expr& x) { return x - bv(start); };
  auto slot_of = [&](const z3::expr& id, z3::expr SymSlot::*field) {
    z3::expr e = s.slots[0].*field;
    for (uint32_t k = 1; k < cfg.ring_size; ++k) e = z3::ite((id & bv(cfg.ring_size - 1)) == bv(k), s.slots[k].*field, e);
    return e;
  };
  auto has_barrier = [&](const z3::expr& id) {
    if (cfg.barrier_every == 0) return c.bool_val(false);
    if ((cfg.barrier_every & (cfg.barrier_every - 1)) == 0) return (id & bv(cfg.barrier_every - 1)) == bv(0);
    return z3::urem(id, bv(cfg.barrier_every)) == bv(0);
  };
  auto is_barrier_value = [&](const z3::expr& id) { return enc.is_barrier_value(id); };
  auto unpublished_owner = [&](const SymProducer& p) {
    return p.pc == pc(ProducerPc::Reserved) || p.pc == pc(ProducerPc::HasRoom) || p.pc == pc(ProducerPc::BodyWritten);
  };
  auto owner = [&](const SymProducer& p) { return unpublished_owner(p) || p.pc == pc(ProducerPc::Published); };
  auto count = [&](const z3::expr& cond) { return z3::ite(cond, bv(1), bv(0)); };

  std::vector<NamedFact> f;
  const z3::expr active = s.processor == proc(ProcessorPc::Launched) || s.processor == proc(ProcessorPc::HeaderReset);

  // Shapes: only the correct protocol's control states and header values occur.
  z3::expr shapes = s.processor == proc(ProcessorPc::Fetch) || active;
  const bool plain = cfg.reservation == model::Reservation::Plain;
  for (const SymProducer& p : s.producers) {
    const z3::expr pc_ok = plain ? z3::ule(p.pc, pc(ProducerPc::Loaded)) : z3::ule(p.pc, pc(ProducerPc::Done));
    shapes = shapes && pc_ok && p.pc != pc(ProducerPc::Rung) && z3::ule(p.remaining, bv(cfg.packets_per_producer, 8)) &&
             ((p.pc == pc(ProducerPc::Done)) == (p.remaining == bv(0, 8)));
  }
  for (const SymSlot& k : s.slots) shapes = shapes && z3::ule(k.header, hdr(SlotHeader::Published));
  shapes = shapes && z3::ule(s.in_flight_count, bv(enc.capacity(), 8));
  f.push_back({"shapes", shapes});

  // AQL-IDX-1: write_index counts the reservations made so far.
  z3::expr reserved = bv(0);
  for (const SymProducer& p : s.producers) {
    reserved = reserved + (bv(cfg.packets_per_producer) - z3::zext(p.remaining, 56)) + count(owner(p));
  }
  f.push_back({"write-index-counts-reservations", o(s.write_index) == reserved});
  f.push_back({"read-not-past-write", z3::ule(o(s.read_index), o(s.write_index))});

  // AQL-IDX-7: a lone producer's plain reservation loaded write_index, which nobody else
  // writes, so the value it will store back is write_index + 1.
  if (plain && cfg.producers == 1) {
    const SymProducer& p = s.producers[0];
    f.push_back({"plain-load-is-write-index", z3::implies(p.pc == pc(ProducerPc::Loaded), p.id == s.write_index)});
  }

  // The processor launches read_index, then resets its header, then advances read_index.
  f.push_back({"launched-is-read-plus-active", s.launched == s.read_index + count(active)});
  f.push_back({"active-packet-is-read-index", z3::implies(active, s.launching == s.read_index && s.read_index != s.write_index)});
  f.push_back({"launched-header-still-published",
               z3::implies(s.processor == proc(ProcessorPc::Launched),
                           slot_of(s.read_index, &SymSlot::header) == hdr(SlotHeader::Published) &&
                               slot_of(s.read_index, &SymSlot::header_id) == s.read_index)});
  f.push_back({"reset-header-is-invalid", z3::implies(s.processor == proc(ProcessorPc::HeaderReset),
                                                      slot_of(s.read_index, &SymSlot::header) == hdr(SlotHeader::Invalid))});

  // AQL-SIG-2: every completion decremented the signal once.
  z3::expr signal = s.signal_initial == bv(total) && s.signal == bv(total) - s.completed &&
                    z3::ule(s.completed, o(s.launched)) &&
                    z3::zext(s.in_flight_count, 56) == o(s.launched) - s.completed;
  for (uint32_t j = 0; j < enc.capacity(); ++j) {
    signal = signal && z3::implies(z3::ult(bv(j, 8), s.in_flight_count), !s.in_flight[j].decrement_read);
  }
  f.push_back({"signal-counts-completions", signal});

  // AQL-BAR-4: an in-flight entry is a BARRIER_VALUE exactly when its packet is one; the
  // dependency signal only goes from 1 to 0.
  z3::expr kinds = z3::ule(s.dependency, bv(1));
  for (uint32_t j = 0; j < enc.capacity(); ++j) {
    kinds = kinds && z3::implies(z3::ult(bv(j, 8), s.in_flight_count),
                                 s.in_flight[j].barrier_packet == is_barrier_value(s.in_flight[j].id));
  }
  f.push_back({"barrier-value-in-flight", kinds});

  // Owned ids: distinct, reserved, and (for writers) inside [read_index, read_index + size).
  for (size_t i = 0; i < s.producers.size(); ++i) {
    const SymProducer& p = s.producers[i];
    const std::string n = "producer" + std::to_string(i);
    const z3::expr writing = p.pc == pc(ProducerPc::HasRoom) || p.pc == pc(ProducerPc::BodyWritten);
    f.push_back({n + "-unpublished-id-not-launched",
                 z3::implies(unpublished_owner(p), z3::ule(o(s.launched), o(p.id)) && z3::ult(o(p.id), o(s.write_index)))});
    f.push_back({n + "-writer-in-window", z3::implies(writing, z3::ult(p.id - s.read_index, bv(cfg.ring_size)))});
    f.push_back({n + "-room-slot-invalid", z3::implies(writing, slot_of(p.id, &SymSlot::header) == hdr(SlotHeader::Invalid))});
    f.push_back({n + "-body-in-slot", z3::implies(p.pc == pc(ProducerPc::BodyWritten),
                                                  slot_of(p.id, &SymSlot::has_body) && slot_of(p.id, &SymSlot::body_id) == p.id)});
    f.push_back({n + "-published-id",
                 z3::implies(p.pc == pc(ProducerPc::Published),
                             z3::ult(o(p.id), o(s.write_index)) &&
                                 (z3::ult(o(p.id), o(s.launched)) ||
                                  (slot_of(p.id, &SymSlot::header) == hdr(SlotHeader::Published) &&
                                   slot_of(p.id, &SymSlot::header_id) == p.id)))});
    for (size_t q = i + 1; q < s.producers.size(); ++q) {
      f.push_back({n + "-id-distinct-" + std::to_string(q),
                   z3::implies(owner(p) && owner(s.producers[q]), p.id != s.producers[q].id)});
    }
  }

  // A published slot holds its own packet, inside the window, not yet consumed.
  z3::expr waiting = bv(0);
  for (uint32_t k = 0; k < cfg.ring_size; ++k) {
    const SymSlot& slot = s.slots[k];
    const z3::expr published = slot.header == hdr(SlotHeader::Published);
    z3::expr facts = (slot.header_id & bv(cfg.ring_size - 1)) == bv(k) && z3::ule(o(s.read_index), o(slot.header_id)) &&
                     z3::ult(o(slot.header_id), o(s.write_index)) && z3::ult(slot.header_id - s.read_index, bv(cfg.ring_size)) &&
                     slot.body_id == slot.header_id && slot.has_body && slot.barrier == has_barrier(slot.header_id) &&
                     slot.barrier_value == is_barrier_value(slot.header_id) &&
                     (z3::ule(o(s.launched), o(slot.header_id)) ||
                      (s.processor == proc(ProcessorPc::Launched) && slot.header_id == s.read_index));
    for (const SymProducer& p : s.producers) facts = facts && !(unpublished_owner(p) && p.id == slot.header_id);
    f.push_back({"slot" + std::to_string(k) + "-published-facts", z3::implies(published, facts)});
    waiting = waiting + count(published && z3::ule(o(s.launched), o(slot.header_id)));
  }
  // Every reserved, unlaunched packet is either owned by its producer or waits, published, in its slot.
  z3::expr unpublished = bv(0);
  for (const SymProducer& p : s.producers) unpublished = unpublished + count(unpublished_owner(p));
  f.push_back({"no-packet-lost", o(s.write_index) - o(s.launched) == unpublished + waiting});

  // AQL-DB-2: a lone producer's doorbell values only grow.
  if (cfg.producers == 1 && cfg.doorbell == model::DoorbellStore::Plain) {
    const SymProducer& p = s.producers[0];
    f.push_back({"doorbell-behind-producer",
                 z3::implies(s.doorbell_rung, z3::ult(o(s.doorbell), o(s.write_index)) &&
                                                  z3::implies(owner(p), z3::ult(s.doorbell, p.id)) &&
                                                  z3::ule(bv(start), s.doorbell))});
  }
  return f;
}

}  // namespace rocref::proofs
