// proofs/aql/aql_encoding.cpp - Z3 terms for models/aql_queue_model.cpp, action by action.
#include "proofs/aql/aql_encoding.h"

#include <algorithm>
#include <iterator>
#include <type_traits>

#include "common/aql_protocol.h"

namespace rocref::proofs {
namespace {

using model::Action;
using model::Actor;

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

// --- walks over the field tables (aql_encoding.h) --------------------------

template <class R>
concept GroupRow = requires(const R& r) {
  r.fields;
};
template <class R>
concept CountRow = requires(const R& r) {
  r.of;
};

template <class Table, class Fn>
void rows(const Table& table, Fn&& fn) {
  std::apply([&](const auto&... r) { (fn(r), ...); }, table);
}

// A struct of the state with every member a placeholder: built from the rows,
// so a member the table lacks (or a row too many) does not compile.
template <class Sym, class Table>
Sym blank(z3::context& c, const Table& table) {
  return std::apply(
      [&](const auto&... r) {
        auto one = [&](const auto& row) {
          if constexpr (GroupRow<std::decay_t<decltype(row)>>) {
            return std::remove_reference_t<decltype(std::declval<Sym&>().*row.sym)>{};
          } else {
            return c.bool_val(false);
          }
        };
        return Sym{one(r)...};
      },
      table);
}

template <class Sym, class Table>
void collect(const Sym& s, const Table& table, std::vector<z3::expr>& out) {
  rows(table, [&](const auto& r) {
    if constexpr (GroupRow<std::decay_t<decltype(r)>>) {
      for (const auto& e : s.*r.sym) collect(e, r.fields, out);
    } else {
      out.push_back(s.*r.sym);
    }
  });
}

// The inverse of collect: s's variables from `in`, from position i on.
template <class Sym, class Table>
void assign(Sym& s, const Table& table, const std::vector<z3::expr>& in, size_t& i) {
  rows(table, [&](const auto& r) {
    if constexpr (GroupRow<std::decay_t<decltype(r)>>) {
      for (auto& e : s.*r.sym) assign(e, r.fields, in, i);
    } else {
      s.*r.sym = in[i++];
    }
  });
}

z3::expr constant(z3::context& c, const std::string& name, unsigned width) {
  return width == kBoolSort ? c.bool_const(name.c_str()) : c.bv_const(name.c_str(), width);
}

template <class M>
z3::expr numeral(z3::context& c, const M& v, unsigned width) {
  return width == kBoolSort ? c.bool_val(static_cast<bool>(v)) : c.bv_val(static_cast<uint64_t>(v), width);
}

// Per-entry ite over every field of a repeated part.
template <class Sym, class Table>
Sym select(const z3::expr& cond, const Sym& a, const Sym& b, const Table& table) {
  Sym r = a;
  rows(table, [&](const auto& f) { r.*f.sym = z3::ite(cond, a.*f.sym, b.*f.sym); });
  return r;
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
  std::vector<z3::expr> v;
  collect(*this, kStateFields, v);
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

uint32_t AqlEncoding::count(Per per) const {
  switch (per) {
    case Per::Slot: return config_.ring_size;
    case Per::Producer: return config_.producers;
    case Per::InFlight: return capacity_;
  }
  return 0;
}

namespace {

// Z3 numbers its terms as they are made, and its search, so the counterexample it finds,
// follows that order: a state's single fields are declared (and constrained initially)
// before its repeated parts, as the encoding always has.
template <class Sym, class Table, class CountFn>
Sym declare(z3::context& c, const Table& table, const std::string& prefix, const CountFn& count) {
  Sym s = blank<Sym>(c, table);
  rows(table, [&](const auto& r) {
    if constexpr (!GroupRow<std::decay_t<decltype(r)>>) s.*r.sym = constant(c, prefix + r.name, r.width);
  });
  rows(table, [&](const auto& r) {
    if constexpr (GroupRow<std::decay_t<decltype(r)>>) {
      using E = typename std::remove_reference_t<decltype(s.*r.sym)>::value_type;
      for (uint32_t k = 0; k < count(r.per); ++k) {
        (s.*r.sym).push_back(declare<E>(c, r.fields, prefix + r.prefix + std::to_string(k) + ".", count));
      }
    }
  });
  return s;
}

// Every variable of s equal to the model state's value (repeated parts padded with the
// model's default entry), in declaration order.
template <class Sym, class Table, class Model>
void constrain(std::vector<z3::expr>& out, const Sym& s, const Table& table, const Model& m) {
  z3::context& c = out.front().ctx();
  rows(table, [&](const auto& r) {
    using R = std::decay_t<decltype(r)>;
    if constexpr (CountRow<R>) {
      out.push_back(s.*r.sym == c.bv_val(static_cast<uint64_t>((m.*r.of).size()), r.width));
    } else if constexpr (!GroupRow<R>) {
      const auto& value = m.*r.model;
      if (r.width == kBoolSort) {
        out.push_back(static_cast<bool>(value) ? s.*r.sym : !(s.*r.sym));
      } else {
        out.push_back(s.*r.sym == c.bv_val(static_cast<uint64_t>(value), r.width));
      }
    }
  });
  rows(table, [&](const auto& r) {
    if constexpr (GroupRow<std::decay_t<decltype(r)>>) {
      const auto& from = m.*r.model;
      using ME = typename std::decay_t<decltype(from)>::value_type;
      const auto& entries = s.*r.sym;
      for (size_t k = 0; k < entries.size(); ++k)
        constrain(out, entries[k], r.fields, k < from.size() ? from[k] : ME{});
    }
  });
}

// Numerals for a model state; repeated parts padded with the model's default entry.
template <class Sym, class Table, class Model, class CountFn>
Sym numerals(z3::context& c, const Table& table, const Model& m, const CountFn& count) {
  Sym s = blank<Sym>(c, table);
  rows(table, [&](const auto& r) {
    using R = std::decay_t<decltype(r)>;
    if constexpr (GroupRow<R>) {
      using E = typename std::remove_reference_t<decltype(s.*r.sym)>::value_type;
      const auto& from = m.*r.model;
      for (uint32_t k = 0; k < count(r.per); ++k) {
        using ME = typename std::decay_t<decltype(from)>::value_type;
        (s.*r.sym).push_back(numerals<E>(c, r.fields, k < from.size() ? from[k] : ME{}, count));
      }
    } else if constexpr (CountRow<R>) {
      s.*r.sym = c.bv_val(static_cast<uint64_t>((m.*r.of).size()), r.width);
    } else {
      s.*r.sym = numeral(c, m.*r.model, r.width);
    }
  });
  return s;
}

template <class Sym, class Table, class Model>
void read_back(const z3::model& zm, const Sym& s, const Table& table, Model& m) {
  rows(table, [&](const auto& r) {
    using R = std::decay_t<decltype(r)>;
    if constexpr (GroupRow<R>) {
      const auto& entries = s.*r.sym;
      uint64_t n = entries.size();
      if (r.live) n = std::min<uint64_t>(num(zm.eval(s.*r.live, true)), n);
      auto& to = m.*r.model;
      to.clear();
      for (uint64_t k = 0; k < n; ++k) {
        to.emplace_back();
        read_back(zm, entries[k], r.fields, to.back());
      }
    } else if constexpr (!CountRow<R>) {  // a count is its entries' number
      using M = std::remove_reference_t<decltype(m.*r.model)>;
      const z3::expr v = zm.eval(s.*r.sym, true);
      if (r.width == kBoolSort) {
        m.*r.model = static_cast<M>(truth(v));
      } else {
        m.*r.model = static_cast<M>(num(v));
      }
    }
  });
}

// a == b, variable by variable; entries of a repeated part at or past its live count are not compared.
template <class Sym, class Table>
void equal_into(z3::expr& e, const SymState& top_a, const Sym& a, const Sym& b, const Table& table,
                const z3::expr* live_below) {
  rows(table, [&](const auto& r) {
    if constexpr (GroupRow<std::decay_t<decltype(r)>>) {
      const auto &ea = a.*r.sym, &eb = b.*r.sym;
      for (size_t k = 0; k < ea.size(); ++k) {
        std::optional<z3::expr> below;
        if (r.live) {
          const z3::expr& n = top_a.*r.live;
          below = z3::ult(n.ctx().bv_val(static_cast<uint64_t>(k), n.get_sort().bv_size()), n);
        }
        equal_into(e, top_a, ea[k], eb[k], r.fields, below ? &*below : live_below);
      }
    } else {
      const z3::expr same = a.*r.sym == b.*r.sym;
      e = e && (live_below ? z3::implies(*live_below, same) : same);
    }
  });
}

}  // namespace

SymState AqlEncoding::fresh_state(const std::string& p) const {
  return declare<SymState>(ctx_, kStateFields, p, [&](Per per) { return count(per); });
}

SymState AqlEncoding::concrete(const model::AqlState& st) const {
  return numerals<SymState>(ctx_, kStateFields, st, [&](Per per) { return count(per); });
}

z3::expr AqlEncoding::initial(const SymState& s, uint64_t start) const {
  model::AqlState st = model::initial_state(config_);
  st.write_index = st.read_index = st.launched = start;
  std::vector<z3::expr> terms{ctx_.bool_val(true)};  // gives constrain its context; dropped below
  constrain(terms, s, kStateFields, st);
  z3::expr e = terms[1];
  for (size_t i = 2; i < terms.size(); ++i) e = e && terms[i];
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
    n.in_flight[j] = select(first_half, half, from, kInFlightFields);
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
  // The next state from the merged variable list (vars() order).
  size_t i = 0;
  assign(merged.next, kStateFields, next_vars, i);
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
  equal_into(e, a, a, b, kStateFields, nullptr);
  return e;
}

model::AqlState AqlEncoding::decode(const z3::model& m, const SymState& s) const {
  model::AqlState st;
  read_back(m, s, kStateFields, st);
  return st;
}

}  // namespace rocref::proofs
