// proofs/aql/aql_encoding.cpp - Z3 terms for models/aql_queue_model.cpp, action by action.
#include "proofs/aql/aql_encoding.h"

#include <algorithm>
#include <iterator>

#include "common/aql_protocol.h"

namespace rocref::proofs {
namespace {

using model::Action;
using model::Actor;

constexpr unsigned kHeaderBits = 2, kProducerPcBits = 3, kProcessorPcBits = 2, kSmallBits = 8;

uint64_t num(const z3::expr& e) {
  uint64_t v = 0;
  e.is_numeral_u64(v);
  return v;
}
bool truth(const z3::expr& e) { return e.is_true(); }

constexpr Action kProducerActions[] = {Action::Reserve, Action::CheckRoom,    Action::WriteBody,
                                       Action::Publish, Action::RingDoorbell, Action::StoreWriteIndex};
static_assert(std::size(kProducerActions) == AqlEncoding::kProducerActionCount);
constexpr Action kProcessorActions[] = {Action::Launch, Action::ResetHeader, Action::AdvanceRead};

// The model's mutant flags that name a planted bug of src/ (common/mutant.h): the
// encoding takes those branches through common/aql_protocol.h, as the code does.
Z3Domain domain_for(z3::context& ctx, const model::AqlMutants& m) {
  Z3Domain d{&ctx, {}};
  auto set = [&](Mutant x, bool on) { d.mutants.set(static_cast<size_t>(x), on); };
  set(Mutant::SkipFullCheck, m.skip_full_check);
  set(Mutant::DoorbellBeforeHeader, m.doorbell_before_header);
  set(Mutant::DoorbellOverAdvance, m.doorbell_over_advance);
  set(Mutant::HeaderResetAfterReadIndex, m.header_reset_after_read_index);
  set(Mutant::InvalidHeaderConsumed, m.invalid_header_consumed);
  set(Mutant::IgnoreBarrierBit, m.ignore_barrier_bit);
  set(Mutant::BarrierPacketDoesNotBlock, m.barrier_packet_does_not_block);
  set(Mutant::BarrierValueIgnoresCondition, m.barrier_value_ignores_condition);
  return d;
}

// Records the order in which aql::producer_program takes the producer's steps.
struct ProducerRecorder {
  bool cas;
  std::vector<Action> steps;
  void reserve() { steps.push_back(Action::Reserve); }
  void wait_for_room() {
    if (!cas) steps.push_back(Action::CheckRoom);  // a successful CAS already had room (AQL-IDX-3)
  }
  uint32_t count() const { return 1; }  // the model's producers reserve one packet at a time
  void write_body(uint32_t) { steps.push_back(Action::WriteBody); }
  void publish(uint32_t) { steps.push_back(Action::Publish); }
  void ring_doorbell() { steps.push_back(Action::RingDoorbell); }
};

// The same, for ops that reserve with a plain load and store (aql::PlainReservation):
// the load is the model's Reserve, the store its own step.
struct PlainProducerRecorder : ProducerRecorder {
  void load_write_index() { steps.push_back(Action::Reserve); }
  void store_write_index() { steps.push_back(Action::StoreWriteIndex); }
};
static_assert(aql::PlainReservation<PlainProducerRecorder> && !aql::PlainReservation<ProducerRecorder>);

}  // namespace

std::vector<Action> AqlEncoding::producer_steps() const {
  if (config_.reservation == model::Reservation::Plain) {
    PlainProducerRecorder r{{false, {}}};
    aql::producer_program(dom_, r);
    return r.steps;
  }
  ProducerRecorder r{config_.reservation == model::Reservation::Cas, {}};
  aql::producer_program(dom_, r);
  return r.steps;
}

model::ProducerPc AqlEncoding::pc_after(Action a) const {
  switch (a) {
    case Action::Reserve:
      switch (config_.reservation) {
        case model::Reservation::Cas: return model::ProducerPc::HasRoom;
        case model::Reservation::Plain: return model::ProducerPc::Loaded;
        case model::Reservation::FetchAdd: return model::ProducerPc::Reserved;
      }
      return model::ProducerPc::Reserved;
    case Action::StoreWriteIndex: return model::ProducerPc::Reserved;
    case Action::CheckRoom: return model::ProducerPc::HasRoom;
    case Action::WriteBody: return model::ProducerPc::BodyWritten;
    case Action::Publish: return model::ProducerPc::Published;
    case Action::RingDoorbell: return model::ProducerPc::Rung;
    default: return model::ProducerPc::Idle;
  }
}

std::vector<z3::expr> SymState::vars() const {
  std::vector<z3::expr> v{write_index, read_index, doorbell, doorbell_rung};
  for (const SymSlot& s : slots) v.insert(v.end(), {s.header, s.header_id, s.body_id, s.has_body, s.barrier, s.barrier_value});
  for (const SymProducer& p : producers) v.insert(v.end(), {p.pc, p.id, p.remaining});
  v.insert(v.end(), {processor, launching});
  for (const SymInFlight& f : in_flight) v.insert(v.end(), {f.id, f.decrement_read, f.observed, f.barrier_packet});
  v.insert(v.end(), {in_flight_count, launched, completed, signal, signal_initial, dependency});
  return v;
}

AqlEncoding::AqlEncoding(z3::context& ctx, const model::AqlConfig& config, uint32_t in_flight_capacity)
    : ctx_(ctx), config_(config), dom_(domain_for(ctx, config.mutants)) {
  const uint32_t total = config.producers * config.packets_per_producer;
  capacity_ = in_flight_capacity ? in_flight_capacity : std::max<uint32_t>(total, 1);
}

std::optional<model::Step> AqlEncoding::step_of(uint32_t choice) const {
  const uint32_t producer_choices = kProducerActionCount * config_.producers;
  if (choice < producer_choices) {
    return model::Step{Actor::Producer, kProducerActions[choice % kProducerActionCount], choice / kProducerActionCount};
  }
  choice -= producer_choices;
  if (choice < 3) return model::Step{Actor::Processor, kProcessorActions[choice], 0};
  choice -= 3;
  if (choice < capacity_) return model::Step{Actor::Completion, Action::Complete, choice};
  if (choice == capacity_) return model::Step{Actor::Host, Action::SetDependency, 0};
  return std::nullopt;
}

uint32_t AqlEncoding::choice_of(const model::Step& step) const {
  switch (step.actor) {
    case Actor::Producer:
      return kProducerActionCount * step.index +
             static_cast<uint32_t>(std::find(std::begin(kProducerActions), std::end(kProducerActions), step.action) -
                                   std::begin(kProducerActions));
    case Actor::Processor:
      return kProducerActionCount * config_.producers + static_cast<uint32_t>(step.action) -
             static_cast<uint32_t>(Action::Launch);
    case Actor::Completion: return kProducerActionCount * config_.producers + 3 + step.index;
    case Actor::Host: return kProducerActionCount * config_.producers + 3 + capacity_;
  }
  return stutter_choice();
}

SymState AqlEncoding::fresh_state(const std::string& p) const {
  auto b64 = [&](const std::string& n) { return ctx_.bv_const((p + n).c_str(), 64); };
  auto bvn = [&](const std::string& n, unsigned w) { return ctx_.bv_const((p + n).c_str(), w); };
  auto boo = [&](const std::string& n) { return ctx_.bool_const((p + n).c_str()); };
  SymState s{b64("wr"), b64("rd"), b64("db"), boo("rung"), {}, {}, bvn("proc", kProcessorPcBits), b64("launching"),
             {}, bvn("nfl", kSmallBits), b64("launched"), b64("completed"), b64("signal"), b64("signal0"), b64("dep")};
  for (uint32_t k = 0; k < config_.ring_size; ++k) {
    const std::string n = "slot" + std::to_string(k) + ".";
    s.slots.push_back({bvn(n + "hdr", kHeaderBits), b64(n + "hid"), b64(n + "bid"), boo(n + "body"), boo(n + "bar"),
                       boo(n + "bv")});
  }
  for (uint32_t i = 0; i < config_.producers; ++i) {
    const std::string n = "p" + std::to_string(i) + ".";
    s.producers.push_back({bvn(n + "pc", kProducerPcBits), b64(n + "id"), bvn(n + "rem", kSmallBits)});
  }
  for (uint32_t j = 0; j < capacity_; ++j) {
    const std::string n = "f" + std::to_string(j) + ".";
    s.in_flight.push_back({b64(n + "id"), boo(n + "dr"), b64(n + "obs"), boo(n + "bv")});
  }
  return s;
}

SymState AqlEncoding::concrete(const model::AqlState& st) const {
  auto u = [&](uint64_t v) { return bv(v); };
  auto small = [&](uint64_t v, unsigned w) { return bv(v, w); };
  SymState s{u(st.write_index), u(st.read_index), u(st.doorbell), ctx_.bool_val(st.doorbell_rung), {}, {},
             small(static_cast<uint64_t>(st.processor), kProcessorPcBits), u(st.launching), {},
             small(st.in_flight.size(), kSmallBits), u(st.launched), u(st.completed),
             u(static_cast<uint64_t>(st.signal)), u(static_cast<uint64_t>(st.signal_initial)),
             u(static_cast<uint64_t>(st.dependency))};
  for (const model::Slot& k : st.slots) {
    s.slots.push_back({small(static_cast<uint64_t>(k.header), kHeaderBits), u(k.header_id), u(k.body_id),
                       ctx_.bool_val(k.has_body), ctx_.bool_val(k.barrier), ctx_.bool_val(k.barrier_value)});
  }
  for (const model::Producer& p : st.producers) {
    s.producers.push_back({small(static_cast<uint64_t>(p.pc), kProducerPcBits), u(p.id), small(p.remaining, kSmallBits)});
  }
  for (uint32_t j = 0; j < capacity_; ++j) {
    if (j < st.in_flight.size()) {
      const model::InFlight& f = st.in_flight[j];
      s.in_flight.push_back({u(f.id), ctx_.bool_val(f.decrement_read), u(static_cast<uint64_t>(f.observed)),
                             ctx_.bool_val(f.barrier_packet)});
    } else {
      s.in_flight.push_back({u(0), ctx_.bool_val(false), u(0), ctx_.bool_val(false)});
    }
  }
  return s;
}

z3::expr AqlEncoding::initial(const SymState& s, uint64_t start) const {
  const uint64_t total = uint64_t{config_.producers} * config_.packets_per_producer;
  z3::expr e = s.write_index == bv(start) && s.read_index == bv(start) && s.doorbell == bv(0) && !s.doorbell_rung &&
               s.processor == bv(0, kProcessorPcBits) && s.launching == bv(0) && s.in_flight_count == bv(0, kSmallBits) &&
               s.launched == bv(start) && s.completed == bv(0) && s.signal == bv(total) && s.signal_initial == bv(total) &&
               s.dependency == bv(1);
  for (const SymSlot& k : s.slots) {
    e = e && k.header == bv(0, kHeaderBits) && k.header_id == bv(0) && k.body_id == bv(0) && !k.has_body && !k.barrier &&
        !k.barrier_value;
  }
  const auto done = static_cast<uint64_t>(model::ProducerPc::Done);
  for (const SymProducer& p : s.producers) {
    e = e && p.pc == bv(config_.packets_per_producer == 0 ? done : 0, kProducerPcBits) && p.id == bv(0) &&
        p.remaining == bv(config_.packets_per_producer, kSmallBits);
  }
  for (const SymInFlight& f : s.in_flight) {
    e = e && f.id == bv(0) && !f.decrement_read && f.observed == bv(0) && !f.barrier_packet;
  }
  return e;
}

z3::expr AqlEncoding::slot_is(const z3::expr& id, uint32_t k) const {
  return (id & bv(config_.ring_size - 1)) == bv(k);
}

z3::expr AqlEncoding::slot_field(const SymState& s, const z3::expr& id, z3::expr SymSlot::*field) const {
  z3::expr e = s.slots[0].*field;
  for (uint32_t k = 1; k < config_.ring_size; ++k) e = z3::ite(slot_is(id, k), s.slots[k].*field, e);
  return e;
}

z3::expr AqlEncoding::has_barrier(const z3::expr& id) const {
  if (config_.barrier_every == 0) return ctx_.bool_val(false);
  // A power of two divides 2^64, so the mask agrees with id % n; others need a (slow) urem.
  if ((config_.barrier_every & (config_.barrier_every - 1)) == 0) return (id & bv(config_.barrier_every - 1)) == bv(0);
  return z3::urem(id, bv(config_.barrier_every)) == bv(0);
}

z3::expr AqlEncoding::is_barrier_value(const z3::expr& id) const {
  const uint32_t n = config_.barrier_value_every;
  if (n == 0) return ctx_.bool_val(false);
  if ((n & (n - 1)) == 0) return (id & bv(n - 1)) == bv(1 % n);
  return z3::urem(id, bv(n)) == bv(1 % n);
}

SymStep AqlEncoding::apply(const SymState& s, uint32_t choice) const {
  const model::AqlMutants& m = config_.mutants;
  const std::optional<model::Step> step = step_of(choice);
  SymStep r{ctx_.bool_val(false), s, {}};
  if (!step) {
    r.enabled = ctx_.bool_val(true);
    return r;
  }
  SymState& n = r.next;
  const z3::expr R = bv(config_.ring_size);
  auto pc = [&](model::ProducerPc v) { return bv(static_cast<uint64_t>(v), kProducerPcBits); };
  auto proc = [&](model::ProcessorPc v) { return bv(static_cast<uint64_t>(v), kProcessorPcBits); };
  auto hdr = [&](model::SlotHeader v) { return bv(static_cast<uint64_t>(v), kHeaderBits); };
  // AQL-IDX-2, from the code's full check.
  auto room = [&](const z3::expr& id) { return aql::room_for(dom_, s.read_index, id, R); };
  // Writes one field of slot(id) in `n`, leaving the other slots as they are.
  auto set_slot = [&](const z3::expr& id, z3::expr SymSlot::*field, const z3::expr& value) {
    for (uint32_t k = 0; k < config_.ring_size; ++k) n.slots[k].*field = z3::ite(slot_is(id, k), value, n.slots[k].*field);
  };

  if (step->actor == Actor::Producer) {
    const SymProducer& p = s.producers[step->index];
    SymProducer& np = n.producers[step->index];
    // Where this action stands in the code's producer program: the pc it needs and
    // the pc it leaves (the last step hands the producer its next packet).
    const std::vector<Action> program = producer_steps();
    const auto at = std::find(program.begin(), program.end(), step->action);
    if (at == program.end()) return r;  // not a step of this producer (CheckRoom after a CAS)
    const model::ProducerPc before = at == program.begin() ? model::ProducerPc::Idle : pc_after(*(at - 1));
    r.enabled = p.pc == pc(before);
    if (at + 1 == program.end()) {
      np.remaining = p.remaining - bv(1, kSmallBits);
      np.pc = z3::ite(np.remaining == bv(0, kSmallBits), pc(model::ProducerPc::Done), pc(model::ProducerPc::Idle));
    } else {
      np.pc = pc(pc_after(step->action));
    }
    switch (step->action) {
      case Action::Reserve:  // AQL-IDX-1
        if (config_.reservation == model::Reservation::Cas) r.enabled = r.enabled && room(s.write_index);
        np.id = s.write_index;
        // AQL-IDX-7: a plain reservation's load; StoreWriteIndex stores it back.
        if (config_.reservation != model::Reservation::Plain) n.write_index = s.write_index + bv(1);
        break;
      case Action::StoreWriteIndex:  // AQL-IDX-7
        n.write_index = p.id + bv(1);
        break;
      case Action::CheckRoom:  // AQL-IDX-2
        r.enabled = r.enabled && room(p.id);
        break;
      case Action::WriteBody:  // AQL-PUB-2
        r.violations.push_back({"AQL-IDX-2", slot_field(s, p.id, &SymSlot::header) != hdr(model::SlotHeader::Invalid)});
        set_slot(p.id, &SymSlot::body_id, p.id);
        set_slot(p.id, &SymSlot::has_body, ctx_.bool_val(true));
        if (m.body_write_clears_header) set_slot(p.id, &SymSlot::header, hdr(model::SlotHeader::Zeroed));
        break;
      case Action::Publish:  // AQL-PUB-1
        set_slot(p.id, &SymSlot::header, hdr(model::SlotHeader::Published));
        set_slot(p.id, &SymSlot::header_id, p.id);
        set_slot(p.id, &SymSlot::barrier, has_barrier(p.id));
        set_slot(p.id, &SymSlot::barrier_value, is_barrier_value(p.id));
        break;
      case Action::RingDoorbell: {  // AQL-DB-1..3, the value from the code
        const z3::expr value = aql::doorbell_value(dom_, p.id, R);
        const z3::expr behind = s.launched - value;
        const z3::expr consumed = behind != bv(0) && z3::ult(behind, bv(uint64_t{1} << 63));
        const z3::expr published = slot_field(s, value, &SymSlot::header) == hdr(model::SlotHeader::Published) &&
                                   slot_field(s, value, &SymSlot::header_id) == value;
        const z3::expr named_unpublished = !consumed && !published;
        r.violations.push_back({dom_.mutant(Mutant::DoorbellOverAdvance) ? "AQL-DB-3" : "AQL-DB-1", named_unpublished});
        const bool max = config_.doorbell == model::DoorbellStore::Max;
        const z3::expr stored = max ? aql::max_doorbell(dom_, s.doorbell_rung, s.doorbell, value) : value;
        if (config_.single_queue || max) {
          // AQL-DB-2: never back, and a max-store covers the id it rang. The clause is the
          // specification's (the model's modular order), not the code's is_newer.
          auto newer = [&](const z3::expr& earlier, const z3::expr& later) { return z3::slt(bv(0), later - earlier); };
          z3::expr broken = s.doorbell_rung && newer(stored, s.doorbell);
          if (max) broken = broken || newer(stored, value);
          r.violations.push_back({"AQL-DB-2", broken && !named_unpublished});
        }
        n.doorbell = stored;
        n.doorbell_rung = ctx_.bool_val(true);
        break;
      }
      default:
        break;
    }
    return r;
  }

  if (step->actor == Actor::Processor) {
    switch (step->action) {
      case Action::Launch: {  // AQL-INV-1, AQL-PUB-3, AQL-BAR-1
        const z3::expr header = slot_field(s, s.read_index, &SymSlot::header);
        const z3::expr barrier =
            header == hdr(model::SlotHeader::Published) && slot_field(s, s.read_index, &SymSlot::barrier);
        const z3::expr empty = s.in_flight_count == bv(0, kSmallBits);
        z3::expr blocked = ctx_.bool_val(false);
        for (uint32_t j = 0; j < capacity_; ++j) {
          blocked = blocked || (z3::ult(bv(j, kSmallBits), s.in_flight_count) && s.in_flight[j].barrier_packet);
        }
        // AQL-INV-1, AQL-BAR-1, AQL-BAR-4: the code's launch guard.
        r.enabled = s.processor == proc(model::ProcessorPc::Fetch) && s.write_index != s.read_index &&
                    aql::may_launch(dom_, header == hdr(model::SlotHeader::Invalid), barrier, empty, blocked);
        const z3::expr inv1 = header == hdr(model::SlotHeader::Invalid);
        const z3::expr inv2 = !inv1 && (header != hdr(model::SlotHeader::Published) ||
                                        slot_field(s, s.read_index, &SymSlot::header_id) != s.read_index);
        const z3::expr pub3 = !inv1 && !inv2 && (!slot_field(s, s.read_index, &SymSlot::has_body) ||
                                                 slot_field(s, s.read_index, &SymSlot::body_id) != s.read_index);
        const z3::expr bar1 = !inv1 && !inv2 && !pub3 && slot_field(s, s.read_index, &SymSlot::barrier) && !empty;
        const z3::expr bar4 = !inv1 && !inv2 && !pub3 && !bar1 && blocked;
        r.violations = {{"AQL-INV-1", inv1}, {"AQL-INV-2", inv2}, {"AQL-PUB-3", pub3}, {"AQL-BAR-1", bar1},
                        {"AQL-BAR-4", bar4}};
        const z3::expr bv_packet = slot_field(s, s.read_index, &SymSlot::barrier_value);
        for (uint32_t j = 0; j < capacity_; ++j) {
          const z3::expr here = s.in_flight_count == bv(j, kSmallBits);
          n.in_flight[j] = {z3::ite(here, s.read_index, s.in_flight[j].id),
                            z3::ite(here, ctx_.bool_val(false), s.in_flight[j].decrement_read),
                            z3::ite(here, bv(0), s.in_flight[j].observed),
                            z3::ite(here, bv_packet, s.in_flight[j].barrier_packet)};
        }
        n.in_flight_count = s.in_flight_count + bv(1, kSmallBits);
        n.launching = s.read_index;
        n.launched = s.launched + bv(1);
        n.processor = proc(model::ProcessorPc::Launched);
        break;
      }
      case Action::ResetHeader: {  // AQL-RET-1, in the code's retirement order
        const bool reset_first = aql::retire_order(dom_).first == aql::RetireStep::ResetHeader;
        r.enabled = s.processor == proc(reset_first ? model::ProcessorPc::Launched : model::ProcessorPc::ReadAdvanced);
        r.violations.push_back({"AQL-RET-1", slot_field(s, s.launching, &SymSlot::header) == hdr(model::SlotHeader::Published) &&
                                                 slot_field(s, s.launching, &SymSlot::header_id) != s.launching});
        set_slot(s.launching, &SymSlot::header, hdr(model::SlotHeader::Invalid));
        n.processor = proc(reset_first ? model::ProcessorPc::HeaderReset : model::ProcessorPc::Fetch);
        break;
      }
      case Action::AdvanceRead: {  // AQL-RET-2
        const bool reset_first = aql::retire_order(dom_).first == aql::RetireStep::ResetHeader;
        r.enabled = s.processor == proc(reset_first ? model::ProcessorPc::HeaderReset : model::ProcessorPc::Launched);
        n.read_index = s.read_index + bv(1);
        n.processor = proc(reset_first ? model::ProcessorPc::Fetch : model::ProcessorPc::ReadAdvanced);
        break;
      }
      default:
        break;
    }
    return r;
  }

  if (step->actor == Actor::Host) {  // the host stores 0 to the dependency signal
    r.enabled = config_.barrier_value_every != 0 ? s.dependency != bv(0) : ctx_.bool_val(false);
    n.dependency = bv(0);
    return r;
  }

  // Completion of in_flight[k]: release fence, then the signal decrement (AQL-SIG-2).
  const uint32_t k = step->index;
  const SymInFlight& f = s.in_flight[k];
  // AQL-BAR-4: a BARRIER_VALUE completes when the code's condition holds (EQ 0 on the dependency).
  const z3::expr condition = aql::barrier_value_satisfied(dom_, 0, s.dependency, bv(~uint64_t{0}), bv(0));
  r.enabled = z3::ult(bv(k, kSmallBits), s.in_flight_count) && (!f.barrier_packet || condition);
  r.violations.push_back({"AQL-BAR-4", f.barrier_packet && s.dependency != bv(0)});
  const z3::expr first_half = m.non_atomic_signal_decrement ? !f.decrement_read : ctx_.bool_val(false);
  n.in_flight[k].decrement_read = z3::ite(first_half, ctx_.bool_val(true), f.decrement_read);
  n.in_flight[k].observed = z3::ite(first_half, s.signal, f.observed);
  const z3::expr decremented = m.non_atomic_signal_decrement ? f.observed - bv(1) : s.signal - bv(1);
  n.signal = z3::ite(first_half, s.signal, decremented);
  n.completed = z3::ite(first_half, s.completed, s.completed + bv(1));
  n.in_flight_count = z3::ite(first_half, s.in_flight_count, s.in_flight_count - bv(1, kSmallBits));
  for (uint32_t j = k; j < capacity_; ++j) {
    const SymInFlight& from = j + 1 < capacity_ ? s.in_flight[j + 1] : s.in_flight[j];
    const SymInFlight& half = n.in_flight[j];
    n.in_flight[j] = {z3::ite(first_half, half.id, from.id), z3::ite(first_half, half.decrement_read, from.decrement_read),
                      z3::ite(first_half, half.observed, from.observed),
                      z3::ite(first_half, half.barrier_packet, from.barrier_packet)};
  }
  return r;
}

SymStep AqlEncoding::transition(const SymState& s, const z3::expr& choice) const {
  SymStep merged{ctx_.bool_val(false), s, {}};
  std::vector<z3::expr> next_vars = s.vars();
  bool first = true;
  for (uint32_t c = 0; c < choice_count(); ++c) {
    const SymStep one = apply(s, c);
    const z3::expr chosen = choice == bv(c, kSmallBits);
    merged.enabled = merged.enabled || (chosen && one.enabled);
    const std::vector<z3::expr> vars = one.next.vars();
    for (size_t i = 0; i < vars.size(); ++i) next_vars[i] = first ? vars[i] : z3::ite(chosen, vars[i], next_vars[i]);
    first = false;
    for (const Clause& v : one.violations) {
      auto it = std::find_if(merged.violations.begin(), merged.violations.end(),
                             [&](const Clause& c2) { return c2.id == v.id; });
      if (it == merged.violations.end()) {
        merged.violations.push_back({v.id, chosen && v.broken});
      } else {
        it->broken = it->broken || (chosen && v.broken);
      }
    }
  }
  // Rebuild the next state from the merged variable list (same order as vars()).
  size_t i = 0;
  SymState& n = merged.next;
  n.write_index = next_vars[i++]; n.read_index = next_vars[i++]; n.doorbell = next_vars[i++]; n.doorbell_rung = next_vars[i++];
  for (SymSlot& k : n.slots) { k.header = next_vars[i++]; k.header_id = next_vars[i++]; k.body_id = next_vars[i++]; k.has_body = next_vars[i++]; k.barrier = next_vars[i++]; k.barrier_value = next_vars[i++]; }
  for (SymProducer& p : n.producers) { p.pc = next_vars[i++]; p.id = next_vars[i++]; p.remaining = next_vars[i++]; }
  n.processor = next_vars[i++]; n.launching = next_vars[i++];
  for (SymInFlight& f : n.in_flight) { f.id = next_vars[i++]; f.decrement_read = next_vars[i++]; f.observed = next_vars[i++]; f.barrier_packet = next_vars[i++]; }
  n.in_flight_count = next_vars[i++]; n.launched = next_vars[i++]; n.completed = next_vars[i++]; n.signal = next_vars[i++]; n.signal_initial = next_vars[i++]; n.dependency = next_vars[i++];
  // The stutter pads runs that ended (final or deadlocked) to the bound; elsewhere it would
  // only multiply equivalent paths.
  z3::expr others = ctx_.bool_val(false);
  for (uint32_t c = 0; c < stutter_choice(); ++c) others = others || apply(s, c).enabled;
  merged.enabled = merged.enabled && z3::ult(choice, bv(choice_count(), kSmallBits)) &&
                   z3::implies(choice == bv(stutter_choice(), kSmallBits), !others);
  return merged;
}

std::vector<Clause> AqlEncoding::invariants(const SymState& s) const {
  const z3::expr distance = s.write_index - s.read_index;
  std::vector<Clause> out{{"AQL-IDX-1", z3::ugt(distance, bv(uint64_t{1} << 63))}};
  if (config_.reservation == model::Reservation::Cas) {
    out.push_back({"AQL-IDX-3", z3::ugt(distance, bv(config_.ring_size))});
  }
  auto pc = [&](model::ProducerPc v) { return bv(static_cast<uint64_t>(v), kProducerPcBits); };
  // A producer owns its slot from the room check until it publishes, in the code's program order.
  const std::vector<Action> program = producer_steps();
  const Action room_step = config_.reservation == model::Reservation::Cas ? Action::Reserve : Action::CheckRoom;
  const auto from = std::find(program.begin(), program.end(), room_step);
  const auto to = std::find(program.begin(), program.end(), Action::Publish);
  z3::expr idx4 = ctx_.bool_val(false);
  for (const SymProducer& p : s.producers) {
    z3::expr writing = ctx_.bool_val(false);
    for (auto a = from; a < to; ++a) writing = writing || p.pc == pc(pc_after(*a));
    idx4 = idx4 || (writing && z3::uge(p.id - s.read_index, bv(config_.ring_size)));
  }
  out.push_back({"AQL-IDX-4", idx4});
  z3::expr pending = ctx_.bool_val(false);
  for (uint32_t j = 0; j < capacity_; ++j) {
    pending = pending || (z3::ult(bv(j, kSmallBits), s.in_flight_count) && s.in_flight[j].decrement_read);
  }
  out.push_back({"AQL-SIG-2", !pending && s.signal != s.signal_initial - s.completed});
  return out;
}

z3::expr AqlEncoding::is_final(const SymState& s) const {
  const uint64_t total = uint64_t{config_.producers} * config_.packets_per_producer;
  z3::expr e = s.completed == bv(total) && s.processor == bv(0, kProcessorPcBits);
  for (const SymProducer& p : s.producers) e = e && p.pc == bv(static_cast<uint64_t>(model::ProducerPc::Done), kProducerPcBits);
  return e;
}

z3::expr AqlEncoding::equal(const SymState& a, const SymState& b) const {
  z3::expr e = ctx_.bool_val(true);
  const std::vector<z3::expr> va = a.vars(), vb = b.vars();
  // In-flight entries past the count carry no meaning: compare them only below the count.
  const size_t fl_begin = 4 + 6 * a.slots.size() + 3 * a.producers.size() + 2;
  const size_t fl_end = fl_begin + 4 * capacity_;
  for (size_t i = 0; i < va.size(); ++i) {
    if (i >= fl_begin && i < fl_end) {
      const uint32_t j = static_cast<uint32_t>((i - fl_begin) / 4);
      e = e && z3::implies(z3::ult(bv(j, kSmallBits), a.in_flight_count), va[i] == vb[i]);
    } else {
      e = e && va[i] == vb[i];
    }
  }
  return e;
}

model::AqlState AqlEncoding::decode(const z3::model& m, const SymState& s) const {
  auto u = [&](const z3::expr& e) { return num(m.eval(e, true)); };
  auto b = [&](const z3::expr& e) { return truth(m.eval(e, true)); };
  model::AqlState st;
  st.write_index = u(s.write_index);
  st.read_index = u(s.read_index);
  st.doorbell = u(s.doorbell);
  st.doorbell_rung = b(s.doorbell_rung);
  for (const SymSlot& k : s.slots) {
    st.slots.push_back({static_cast<model::SlotHeader>(u(k.header)), u(k.header_id), u(k.body_id), b(k.has_body), b(k.barrier),
                        b(k.barrier_value)});
  }
  for (const SymProducer& p : s.producers) {
    st.producers.push_back({static_cast<model::ProducerPc>(u(p.pc)), u(p.id), static_cast<uint32_t>(u(p.remaining))});
  }
  st.processor = static_cast<model::ProcessorPc>(u(s.processor));
  st.launching = u(s.launching);
  const uint64_t count = std::min<uint64_t>(u(s.in_flight_count), capacity_);
  for (uint64_t j = 0; j < count; ++j) {
    const SymInFlight& f = s.in_flight[j];
    st.in_flight.push_back({u(f.id), b(f.barrier_packet), b(f.decrement_read), static_cast<int64_t>(u(f.observed))});
  }
  st.launched = u(s.launched);
  st.completed = u(s.completed);
  st.signal = static_cast<int64_t>(u(s.signal));
  st.signal_initial = static_cast<int64_t>(u(s.signal_initial));
  st.dependency = static_cast<int64_t>(u(s.dependency));
  return st;
}

}  // namespace rocref::proofs
