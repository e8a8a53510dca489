// models/aql_queue_model.cpp - transitions of the AQL queue protocol (see the header).
#include "models/aql_queue_model.h"

#include <algorithm>
#include <sstream>

namespace rocref::model {
namespace {

Slot& slot_of(const AqlConfig& config, AqlState& state, uint64_t id) {
  return state.slots[id & (config.ring_size - 1)];
}
const Slot& slot_of(const AqlConfig& config, const AqlState& state, uint64_t id) {
  return state.slots[id & (config.ring_size - 1)];
}

bool packet_has_barrier(const AqlConfig& config, uint64_t id) {
  return config.barrier_every != 0 && id % config.barrier_every == 0;
}

bool packet_is_barrier_value(const AqlConfig& config, uint64_t id) {
  return config.barrier_value_every != 0 && id % config.barrier_value_every == 1 % config.barrier_value_every;
}

bool barrier_packet_in_flight(const AqlState& state) {
  return std::any_of(state.in_flight.begin(), state.in_flight.end(), [](const InFlight& f) { return f.barrier_packet; });
}

bool room_for(const AqlConfig& config, const AqlState& state, uint64_t id) {
  return config.mutants.skip_full_check || index_distance(state.read_index, id) < config.ring_size;
}

// The last producer step of a packet hands the producer its next packet.
void finish_packet(Producer& producer) {
  producer.remaining -= 1;
  producer.pc = producer.remaining == 0 ? ProducerPc::Done : ProducerPc::Idle;
}

Violation violation(std::string clause, std::string message) {
  return Violation{std::move(clause), std::move(message)};
}

}  // namespace

AqlState initial_state(const AqlConfig& config) {
  AqlState state;
  state.slots.assign(config.ring_size, Slot{});  // AQL-INV-3: every header INVALID
  state.producers.assign(config.producers, Producer{ProducerPc::Idle, 0, config.packets_per_producer});
  for (Producer& p : state.producers) {
    if (p.remaining == 0) p.pc = ProducerPc::Done;
  }
  state.signal = static_cast<int64_t>(config.producers) * config.packets_per_producer;
  state.signal_initial = state.signal;
  return state;
}

bool is_enabled(const AqlConfig& config, const AqlState& state, const Step& s) {
  const AqlMutants& m = config.mutants;
  switch (s.actor) {
    case Actor::Producer: {
      if (s.index >= state.producers.size()) return false;
      const Producer& p = state.producers[s.index];
      switch (s.action) {
        case Action::Reserve:
          if (p.pc != ProducerPc::Idle) return false;
          return config.reservation != Reservation::Cas || room_for(config, state, state.write_index);
        case Action::StoreWriteIndex: return p.pc == ProducerPc::Loaded;
        case Action::CheckRoom:
          return p.pc == ProducerPc::Reserved && room_for(config, state, p.id);
        case Action::WriteBody:
          return p.pc == ProducerPc::HasRoom;
        case Action::Publish:
          return m.doorbell_before_header ? p.pc == ProducerPc::Rung : p.pc == ProducerPc::BodyWritten;
        case Action::RingDoorbell:
          return m.doorbell_before_header ? p.pc == ProducerPc::BodyWritten : p.pc == ProducerPc::Published;
        default:
          return false;
      }
    }
    case Actor::Processor: {
      switch (s.action) {
        case Action::Launch: {
          if (state.processor != ProcessorPc::Fetch) return false;
          const Slot& slot = slot_of(config, state, state.read_index);
          if (slot.header == SlotHeader::Invalid && !m.invalid_header_consumed) return false;
          // Consume only what was reserved: even a broken processor has nothing past write_index.
          if (index_distance(state.read_index, state.write_index) == 0) return false;
          const bool barrier = slot.header == SlotHeader::Published && slot.barrier;
          // AQL-BAR-4: a launched BARRIER_VALUE holds back every later packet until it completes.
          if (barrier_packet_in_flight(state) && !m.barrier_packet_does_not_block) return false;
          return !barrier || state.in_flight.empty() || m.ignore_barrier_bit;
        }
        case Action::ResetHeader:
          return m.header_reset_after_read_index ? state.processor == ProcessorPc::ReadAdvanced
                                                 : state.processor == ProcessorPc::Launched;
        case Action::AdvanceRead:
          return m.header_reset_after_read_index ? state.processor == ProcessorPc::Launched
                                                 : state.processor == ProcessorPc::HeaderReset;
        default:
          return false;
      }
    }
    case Actor::Completion:
      if (s.action != Action::Complete || s.index >= state.in_flight.size()) return false;
      // AQL-BAR-4: a BARRIER_VALUE completes once its condition (dependency == 0) holds.
      return !state.in_flight[s.index].barrier_packet || state.dependency == 0 || m.barrier_value_ignores_condition;
    case Actor::Host:
      return s.action == Action::SetDependency && config.barrier_value_every != 0 && state.dependency != 0;
  }
  return false;
}

std::vector<Step> enabled_steps(const AqlConfig& config, const AqlState& state) {
  std::vector<Step> steps;
  static constexpr Action kProducerActions[] = {Action::Reserve, Action::CheckRoom,    Action::WriteBody,
                                                Action::Publish, Action::RingDoorbell, Action::StoreWriteIndex};
  for (uint32_t i = 0; i < state.producers.size(); ++i) {
    for (Action a : kProducerActions) {
      Step s{Actor::Producer, a, i};
      if (is_enabled(config, state, s)) steps.push_back(s);
    }
  }
  for (Action a : {Action::Launch, Action::ResetHeader, Action::AdvanceRead}) {
    Step s{Actor::Processor, a, 0};
    if (is_enabled(config, state, s)) steps.push_back(s);
  }
  for (uint32_t k = 0; k < state.in_flight.size(); ++k) {
    Step s{Actor::Completion, Action::Complete, k};
    if (is_enabled(config, state, s)) steps.push_back(s);
  }
  if (const Step host{Actor::Host, Action::SetDependency, 0}; is_enabled(config, state, host)) steps.push_back(host);
  return steps;
}

StepResult step(const AqlConfig& config, const AqlState& state, const Step& s) {
  StepResult r{state, std::nullopt};
  AqlState& n = r.next;
  const AqlMutants& m = config.mutants;

  if (s.actor == Actor::Producer) {
    Producer& p = n.producers[s.index];
    switch (s.action) {
      case Action::Reserve:  // AQL-IDX-1
        p.id = n.write_index;
        if (config.reservation == Reservation::Plain) {  // AQL-IDX-7: the load; the store is its own step
          p.pc = ProducerPc::Loaded;
          break;
        }
        n.write_index += 1;
        p.pc = config.reservation == Reservation::Cas ? ProducerPc::HasRoom : ProducerPc::Reserved;
        break;
      case Action::StoreWriteIndex:  // AQL-IDX-7
        n.write_index = p.id + 1;
        p.pc = ProducerPc::Reserved;
        break;
      case Action::CheckRoom:  // AQL-IDX-2
        p.pc = ProducerPc::HasRoom;
        break;
      case Action::WriteBody: {  // AQL-PUB-2
        Slot& slot = slot_of(config, n, p.id);
        if (slot.header != SlotHeader::Invalid) {
          r.violation = violation("AQL-IDX-2", "producer " + std::to_string(s.index) + " overwrote slot of packet " +
                                                   std::to_string(slot.header_id) + " before it was consumed");
        }
        slot.body_id = p.id;
        slot.has_body = true;
        if (m.body_write_clears_header) slot.header = SlotHeader::Zeroed;
        p.pc = ProducerPc::BodyWritten;
        break;
      }
      case Action::Publish: {  // AQL-PUB-1
        Slot& slot = slot_of(config, n, p.id);
        slot.header = SlotHeader::Published;
        slot.header_id = p.id;
        slot.barrier = packet_has_barrier(config, p.id);
        slot.barrier_value = packet_is_barrier_value(config, p.id);
        if (m.doorbell_before_header) {
          finish_packet(p);
        } else {
          p.pc = ProducerPc::Published;
        }
        break;
      }
      case Action::RingDoorbell: {  // AQL-DB-1..3
        const uint64_t value = m.doorbell_over_advance ? p.id + config.ring_size : p.id;
        const Slot& named = slot_of(config, n, value);
        // Launched packets may already have had their slot reset: they count as published.
        const uint64_t behind = index_distance(value, n.launched);
        const bool consumed = behind != 0 && behind < (uint64_t{1} << 63);
        const bool published = named.header == SlotHeader::Published && named.header_id == value;
        if (!consumed && !published) {
          r.violation = violation(m.doorbell_over_advance ? "AQL-DB-3" : "AQL-DB-1",
                                  "doorbell set to " + std::to_string(value) + ", a packet not yet published");
        }
        // AQL-IDX-5: "newer" by modular distance, so order survives 2^64 wrap-around.
        auto newer = [](uint64_t earlier, uint64_t later) { return static_cast<int64_t>(later - earlier) > 0; };
        const bool max = config.doorbell == DoorbellStore::Max;
        const uint64_t stored = max && n.doorbell_rung && !newer(n.doorbell, value) ? n.doorbell : value;
        if ((config.single_queue || max) && !r.violation) {
          if (n.doorbell_rung && newer(stored, n.doorbell)) {
            r.violation = violation("AQL-DB-2", "doorbell went back from " + std::to_string(n.doorbell) + " to " +
                                                    std::to_string(stored));
          } else if (max && newer(stored, value)) {
            r.violation = violation("AQL-DB-2", "doorbell " + std::to_string(stored) + " stays behind packet " +
                                                    std::to_string(value) + " it was rung for");
          }
        }
        n.doorbell = stored;
        n.doorbell_rung = true;
        if (m.doorbell_before_header) {
          p.pc = ProducerPc::Rung;
        } else {
          finish_packet(p);
        }
        break;
      }
      default:
        break;
    }
    return r;
  }

  if (s.actor == Actor::Processor) {
    switch (s.action) {
      case Action::Launch: {  // AQL-INV-1, AQL-PUB-3, AQL-BAR-1
        const Slot& slot = slot_of(config, n, n.read_index);
        const std::string id = std::to_string(n.read_index);
        if (slot.header == SlotHeader::Invalid) {
          r.violation = violation("AQL-INV-1", "packet " + id + " launched while its header is INVALID");
        } else if (slot.header != SlotHeader::Published || slot.header_id != n.read_index) {
          r.violation = violation("AQL-INV-2", "packet " + id + " launched from a header no producer published for it");
        } else if (!slot.has_body || slot.body_id != n.read_index) {
          r.violation = violation("AQL-PUB-3", "packet " + id + " launched with a stale body");
        } else if (slot.barrier && !n.in_flight.empty()) {
          r.violation = violation("AQL-BAR-1", "barrier packet " + id + " launched before earlier packets completed");
        } else if (barrier_packet_in_flight(n)) {
          r.violation = violation("AQL-BAR-4", "packet " + id + " launched while a BARRIER_VALUE had not completed");
        }
        n.in_flight.push_back(InFlight{n.read_index, slot.barrier_value, false, 0});
        n.launching = n.read_index;
        n.launched += 1;
        n.processor = ProcessorPc::Launched;
        break;
      }
      case Action::ResetHeader: {  // AQL-RET-1
        Slot& slot = slot_of(config, n, n.launching);
        if (slot.header == SlotHeader::Published && slot.header_id != n.launching) {
          r.violation = violation("AQL-RET-1", "resetting the slot of packet " + std::to_string(n.launching) +
                                                   " erased the published header of packet " +
                                                   std::to_string(slot.header_id));
        }
        slot.header = SlotHeader::Invalid;
        n.processor = m.header_reset_after_read_index ? ProcessorPc::Fetch : ProcessorPc::HeaderReset;
        break;
      }
      case Action::AdvanceRead:  // AQL-RET-2
        n.read_index += 1;
        n.processor = m.header_reset_after_read_index ? ProcessorPc::ReadAdvanced : ProcessorPc::Fetch;
        break;
      default:
        break;
    }
    return r;
  }

  if (s.actor == Actor::Host) {  // SetDependency
    n.dependency = 0;
    return r;
  }

  // Completion of in_flight[s.index]: release fence, then the signal decrement (AQL-SIG-2).
  InFlight& f = n.in_flight[s.index];
  if (f.barrier_packet && n.dependency != 0) {
    r.violation = violation("AQL-BAR-4", "BARRIER_VALUE " + std::to_string(f.id) + " completed while its condition fails");
  }
  if (m.non_atomic_signal_decrement && !f.decrement_read) {
    f.decrement_read = true;
    f.observed = n.signal;
    return r;
  }
  n.signal = m.non_atomic_signal_decrement ? f.observed - 1 : n.signal - 1;
  n.completed += 1;
  n.in_flight.erase(n.in_flight.begin() + s.index);
  return r;
}

std::optional<Violation> check_invariants(const AqlConfig& config, const AqlState& state) {
  if (index_distance(state.read_index, state.write_index) > (uint64_t{1} << 63)) {
    return violation("AQL-IDX-1", "read_index passed write_index");
  }
  if (config.reservation == Reservation::Cas &&
      index_distance(state.read_index, state.write_index) > config.ring_size) {
    return violation("AQL-IDX-3", "write_index " + std::to_string(state.write_index) + " is more than a ring past read_index " +
                                      std::to_string(state.read_index));
  }
  for (uint32_t i = 0; i < state.producers.size(); ++i) {
    const Producer& p = state.producers[i];
    const bool writing = p.pc == ProducerPc::HasRoom || p.pc == ProducerPc::BodyWritten ||
                         (p.pc == ProducerPc::Rung && config.mutants.doorbell_before_header);
    if (writing && index_distance(state.read_index, p.id) >= config.ring_size) {
      return violation("AQL-IDX-4", "producer " + std::to_string(i) + " writes packet " + std::to_string(p.id) +
                                        " outside [read_index, read_index + size)");
    }
  }
  const bool decrement_pending = std::any_of(state.in_flight.begin(), state.in_flight.end(),
                                             [](const InFlight& f) { return f.decrement_read; });
  if (!decrement_pending && state.signal != state.signal_initial - static_cast<int64_t>(state.completed)) {
    return violation("AQL-SIG-2", "completion signal is " + std::to_string(state.signal) + " after " +
                                      std::to_string(state.completed) + " completions of " +
                                      std::to_string(state.signal_initial));
  }
  return std::nullopt;
}

bool is_final(const AqlConfig& config, const AqlState& state) {
  const uint64_t total = uint64_t{config.producers} * config.packets_per_producer;
  return state.completed == total && state.processor == ProcessorPc::Fetch &&
         std::all_of(state.producers.begin(), state.producers.end(),
                     [](const Producer& p) { return p.pc == ProducerPc::Done; });
}

std::string describe(const Step& s) {
  static constexpr const char* kActions[] = {"reserve", "check-room", "write-body", "publish", "ring-doorbell",
                                             "launch",  "reset-header", "advance-read", "complete", "set-dependency"};
  std::ostringstream out;
  switch (s.actor) {
    case Actor::Producer: out << "producer " << s.index; break;
    case Actor::Processor: out << "processor"; break;
    case Actor::Completion: out << "completion #" << s.index; break;
    case Actor::Host: out << "host"; break;
  }
  out << ' ' << kActions[static_cast<int>(s.action)];
  return out.str();
}

std::string describe(const AqlConfig& config, const AqlState& state) {
  std::ostringstream out;
  out << "write=" << state.write_index << " read=" << state.read_index << " doorbell=";
  if (state.doorbell_rung) out << state.doorbell; else out << '-';
  out << " signal=" << state.signal << " ring=[";
  for (uint32_t i = 0; i < config.ring_size; ++i) {
    const Slot& slot = state.slots[i];
    if (i) out << ' ';
    switch (slot.header) {
      case SlotHeader::Invalid: out << "INV"; break;
      case SlotHeader::Published: out << 'P' << slot.header_id; break;
      case SlotHeader::Zeroed: out << "T0"; break;
    }
    if (slot.has_body) out << '/' << slot.body_id;
    if (slot.header == SlotHeader::Published && slot.barrier_value) out << "(BV)";
  }
  out << ']';
  if (config.barrier_value_every != 0) out << " dependency=" << state.dependency;
  return out.str();
}

}  // namespace rocref::model
