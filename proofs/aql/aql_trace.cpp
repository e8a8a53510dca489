// proofs/aql/aql_trace.cpp - prints a counterexample as a numbered interleaving, re-run on the C++ model.
#include <sstream>

#include "proofs/aql/aql_check.h"

namespace rocref::proofs {
namespace {

using model::Action;

std::string what(const model::AqlConfig& cfg, const model::AqlState& pre, const model::AqlState& post,
                 const model::Step& step) {
  std::ostringstream o;
  const uint32_t mask = cfg.ring_size - 1;
  if (step.actor == model::Actor::Producer) {
    const model::Producer& p = post.producers[step.index];
    const uint64_t id = p.id;
    switch (step.action) {
      case Action::Reserve:
        if (cfg.reservation == model::Reservation::Plain) {
          o << "loads write_index " << pre.write_index << ": packet " << id;
          break;
        }
        o << (cfg.reservation == model::Reservation::Cas ? "CAS" : "fetch_add") << " write_index " << pre.write_index
          << "->" << post.write_index << ", owns packet " << id;
        break;
      case Action::StoreWriteIndex: o << "stores write_index " << post.write_index << ", owns packet " << id; break;
      case Action::CheckRoom:
        o << "reads read_index=" << pre.read_index << ": room for packet " << id;
        break;
      case Action::WriteBody:
        o << "writes body of packet " << id << " into slot " << (id & mask);
        break;
      case Action::Publish:
        o << "release-stores header of packet " << id << " in slot " << (id & mask);
        break;
      case Action::RingDoorbell:
        o << "stores doorbell " << post.doorbell;
        break;
      default:
        break;
    }
    return o.str();
  }
  if (step.actor == model::Actor::Processor) {
    switch (step.action) {
      case Action::Launch: {
        const model::Slot& s = pre.slots[pre.read_index & mask];
        o << "acquire-reads slot " << (pre.read_index & mask) << " header="
          << (s.header == model::SlotHeader::Invalid ? "INVALID"
              : s.header == model::SlotHeader::Zeroed ? "type0"
                                                      : "packet " + std::to_string(s.header_id))
          << " body=" << (s.has_body ? std::to_string(s.body_id) : "-") << ", launches packet " << pre.read_index;
        break;
      }
      case Action::ResetHeader:
        o << "sets slot " << (pre.launching & mask) << " header INVALID";
        break;
      case Action::AdvanceRead:
        o << "release-stores read_index " << post.read_index;
        break;
      default:
        break;
    }
    return o.str();
  }
  if (step.actor == model::Actor::Host) return "stores 0 to the BARRIER_VALUE dependency signal";
  const model::InFlight& f = pre.in_flight[step.index];
  if (cfg.mutants.non_atomic_signal_decrement && !f.decrement_read) {
    o << "packet " << f.id << " reads signal=" << pre.signal;
  } else {
    o << "packet " << f.id << " writes signal=" << post.signal;
  }
  return o.str();
}

}  // namespace

std::string format_trace(const AqlTrace& trace) {
  std::ostringstream out;
  const model::AqlConfig& cfg = trace.config;
  out << "  counterexample for " << trace.clause << " (" << cfg.producers << " producers, ring " << cfg.ring_size << ")\n";
  model::AqlState state = trace.initial;
  out << "     0. initial                     " << model::describe(cfg, state) << "\n";
  for (size_t i = 0; i < trace.steps.size(); ++i) {
    const model::Step& step = trace.steps[i];
    if (!model::is_enabled(cfg, state, step)) {
      out << "    " << i + 1 << ". " << model::describe(step) << ": NOT ENABLED in the C++ model (encoding mismatch)\n";
      return out.str();
    }
    const model::StepResult r = model::step(cfg, state, step);
    char num[32];
    std::snprintf(num, sizeof num, "%6zu. ", i + 1);
    std::string actor = model::describe(step);
    actor.resize(std::max<size_t>(actor.size(), 26), ' ');
    out << num << actor << what(cfg, state, r.next, step) << "\n            " << model::describe(cfg, r.next) << "\n";
    state = r.next;
    if (r.violation) out << "            ^ breaks " << r.violation->clause << ": " << r.violation->message << "\n";
    if (auto inv = model::check_invariants(cfg, state)) {
      out << "            ^ breaks " << inv->clause << ": " << inv->message << "\n";
    }
  }
  return out.str();
}

}  // namespace rocref::proofs
