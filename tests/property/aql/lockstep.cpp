// tests/property/aql/lockstep.cpp - real code and model in lockstep (see lockstep.h).
#include "lockstep.h"

#include <algorithm>
#include <cstring>
#include <sstream>

#include "common/aql_packet.h"
#include "world.h"

namespace rocref::prop {
namespace {

using model::Action;
using model::Actor;

std::string num(uint64_t v) {
  std::ostringstream out;
  out << v;
  return out.str();
}

gpu::ProcessorAction real_action(Action a) {
  switch (a) {
    case Action::Launch: return gpu::ProcessorAction::Launch;
    case Action::ResetHeader: return gpu::ProcessorAction::ResetHeader;
    case Action::AdvanceRead: return gpu::ProcessorAction::AdvanceRead;
    default: return gpu::ProcessorAction::None;
  }
}

gpu::ProcessorPhase real_phase(model::ProcessorPc pc) {
  switch (pc) {
    case model::ProcessorPc::Fetch: return gpu::ProcessorPhase::Fetch;
    case model::ProcessorPc::Launched: return gpu::ProcessorPhase::Launched;
    case model::ProcessorPc::HeaderReset: return gpu::ProcessorPhase::HeaderReset;
    case model::ProcessorPc::ReadAdvanced: return gpu::ProcessorPhase::ReadAdvanced;
  }
  return gpu::ProcessorPhase::Fetch;
}

bool packet_has_barrier(const model::AqlConfig& c, uint64_t m) {
  return c.barrier_every != 0 && m % c.barrier_every == 0;
}

// An idle poll: the processor is asked to step when the model allows it nothing.
constexpr model::Step kIdlePoll{Actor::Processor, Action::Complete, UINT32_MAX};

class Runner {
 public:
  explicit Runner(const LockstepConfig& config)
      : c_(config.model),
        s_(config.start),
        world_(WorldOptions{c_.ring_size, s_, uint64_t{c_.producers} * c_.packets_per_producer}),
        state_(model::initial_state(c_)),
        signal_(state_.signal) {}

  std::vector<model::Step> options() const {
    std::vector<model::Step> steps = model::enabled_steps(c_, state_);
    bool processor = false;
    for (const model::Step& st : steps) processor |= st.actor == Actor::Processor;
    if (!processor) steps.push_back(kIdlePoll);
    return steps;
  }

  bool take(const model::Step& st) {
    check_guards();
    if (st == kIdlePoll) {
      idle_poll();
    } else {
      const model::StepResult r = model::step(c_, state_, st);
      if (r.violation) fail(r.violation->clause + " (model): " + r.violation->message);
      const model::AqlState before = state_;
      state_ = r.next;
      real_step(st, before);
      if (auto v = model::check_invariants(c_, state_)) fail(v->clause + " (model): " + v->message);
    }
    trace_.steps.push_back(st);
    project();
    return trace_.failures.empty();
  }

  Trace finish() {
    trace_.final = model::is_final(c_, state_);
    trace_.kernel_log = world_.kernel_log();
    return std::move(trace_);
  }

  bool is_final() const { return model::is_final(c_, state_); }
  void note(const std::string& what) { fail(what); }

 private:
  void fail(const std::string& what) {
    trace_.failures.push_back(what + " [after " + num(trace_.steps.size()) + " steps: " +
                              (trace_.steps.empty() ? std::string("-") : model::describe(trace_.steps.back())) + "; " +
                              model::describe(c_, state_) + "]");
  }

  aql::DoorbellStore bell() const {
    return c_.doorbell == model::DoorbellStore::Max ? aql::DoorbellStore::Max : aql::DoorbellStore::Plain;
  }

  // The real guards must agree with the model's, also for steps not taken.
  void check_guards() {
    aql::QueueRing ring = world_.ring();
    for (uint32_t i = 0; i < state_.producers.size(); ++i) {
      const model::Producer& p = state_.producers[i];
      if (p.pc == model::ProducerPc::Reserved) {
        const bool model_room = model::is_enabled(c_, state_, model::Step{Actor::Producer, Action::CheckRoom, i});
        if (ring.has_room(p.id + s_, 1) != model_room) {
          fail("AQL-IDX-2: has_room(" + num(p.id) + ") is " + (model_room ? "false" : "true") + ", the model says " +
               (model_room ? "room" : "full"));
        }
      }
      if (p.pc == model::ProducerPc::Idle && c_.reservation == model::Reservation::Cas) {
        const bool model_room = model::is_enabled(c_, state_, model::Step{Actor::Producer, Action::Reserve, i});
        if (ring.has_room(state_.write_index + s_, 1) != model_room) {
          fail("AQL-IDX-3: CAS room check disagrees with the model at write " + num(state_.write_index));
        }
      }
    }
  }

  void idle_poll() {
    const uint16_t header_before = world_.queue().header(state_.read_index + s_);
    const bool busy = world_.processor().in_flight() != 0;
    const gpu::ProcessorStep r = world_.processor().step_fetch();
    if (r.action == gpu::ProcessorAction::Launch && aql::header_type(header_before) == HSA_PACKET_TYPE_INVALID) {
      fail("AQL-INV-1: packet " + num(r.packet_id - s_) + " launched from an INVALID header");
    } else if (r.action == gpu::ProcessorAction::Launch && aql::header_barrier(header_before) && busy) {
      fail("AQL-BAR-1: barrier packet " + num(r.packet_id - s_) + " launched with packets in flight");
    } else if (r.action != gpu::ProcessorAction::None) {
      fail("REFINE: processor acted (" + num(static_cast<int>(r.action)) + " on " + num(r.packet_id - s_) +
           ") where the model allows it nothing");
    }
  }

  void real_step(const model::Step& st, const model::AqlState& before) {
    aql::QueueRing ring = world_.ring();
    if (st.actor == Actor::Producer) {
      const model::Producer& p = state_.producers[st.index];
      const uint64_t m = p.id;  // model id the producer owns after this step
      switch (st.action) {
        case Action::Reserve: {
          uint64_t real = 0;
          if (c_.reservation == model::Reservation::Plain) {
            real = ring.load_write_index(MemoryOrder::Relaxed);  // AQL-IDX-7: the load
          } else if (c_.reservation == model::Reservation::FetchAdd) {
            real = ring.reserve_fetch_add(1);
          } else {
            std::optional<uint64_t> got = ring.try_reserve_cas(1);
            if (!got) return fail("AQL-IDX-3: CAS reservation failed where the model has room");
            real = *got;
          }
          if (real != m + s_) fail("REFINE: reserved id " + num(real - s_) + ", the model " + num(m));
          break;
        }
        case Action::StoreWriteIndex: ring.store_write_index(m + s_ + 1, MemoryOrder::Relaxed); break;
        case Action::CheckRoom:
          if (!ring.has_room(m + s_, 1)) fail("AQL-IDX-2: has_room false where the model passes the full check");
          break;
        case Action::WriteBody: {
          const uint64_t read = ring.load_read_index(MemoryOrder::Relaxed);
          if (aql::index_distance(read, m + s_) >= c_.ring_size) {
            fail("AQL-IDX-4: producer writes packet " + num(m) + " outside [read, read + size)");
          }
          const hsa_kernel_dispatch_packet_t packet = world_.dispatch(m, packet_has_barrier(c_, m), signal_.handle());
          ring.write_body(m + s_, &packet);
          break;
        }
        case Action::Publish: {
          const uint64_t read = ring.load_read_index(MemoryOrder::Relaxed);
          if (aql::index_distance(read, m + s_) >= c_.ring_size) {
            fail("AQL-IDX-4: producer publishes packet " + num(m) + " outside [read, read + size)");
          }
          const hsa_kernel_dispatch_packet_t packet = world_.dispatch(m, packet_has_barrier(c_, m), signal_.handle());
          ring.publish(m + s_, aql::make_header_setup(packet.header, packet.setup));
          ++trace_.published;
          break;
        }
        case Action::RingDoorbell: {
          const uint64_t id = before.producers[st.index].id;
          ring.ring_doorbell(id + s_, bell());
          const uint64_t value = ring.load_doorbell();
          trace_.doorbells.push_back(value);
          // AQL-DB-3: the value names a packet that is published or already consumed.
          const uint64_t named = value - s_;
          const bool consumed = aql::index_distance(named, state_.launched) - 1 < (uint64_t{1} << 63);
          const model::Slot& slot = state_.slots[named & (c_.ring_size - 1)];
          const bool published = slot.header == model::SlotHeader::Published && slot.header_id == named;
          if (!consumed && !published) fail("AQL-DB-3: doorbell names packet " + num(named) + ", which is not published");
          break;
        }
        default:
          break;
      }
      return;
    }
    if (st.actor == Actor::Processor) {
      const uint64_t read = before.read_index + s_;
      const uint16_t header_before = world_.queue().header(read);
      const std::vector<uint64_t> in_flight_before = world_.processor().in_flight_ids();
      const gpu::ProcessorStep r = world_.processor().step_fetch();
      if (r.action != real_action(st.action)) {
        return fail("REFINE: processor did action " + num(static_cast<int>(r.action)) + ", the model " +
                    model::describe(st));
      }
      if (st.action == Action::Launch) {
        trace_.launches.push_back(r.packet_id);
        if (r.packet_id != read) fail("AQL-RET-2: launched " + num(r.packet_id - s_) + " at read " + num(read - s_));
        if (aql::header_type(header_before) == HSA_PACKET_TYPE_INVALID) {
          fail("AQL-INV-1: packet " + num(read - s_) + " launched from an INVALID header");
        }
        if (aql::header_barrier(header_before) && !in_flight_before.empty()) {
          fail("AQL-BAR-1: barrier packet " + num(read - s_) + " launched with " + num(in_flight_before.size()) +
               " packets in flight");
        }
      }
      return;
    }
    // Completion of before.in_flight[st.index].
    const uint64_t m = before.in_flight[st.index].id;
    const size_t logged = world_.kernel_log().size();
    const gpu::ProcessorStep r = world_.processor().step_complete(st.index);
    if (r.action != gpu::ProcessorAction::Complete || r.packet_id != m + s_) {
      return fail("REFINE: completing in-flight #" + num(st.index) + " (packet " + num(m) + ") did action " +
                  num(static_cast<int>(r.action)) + " on " + num(r.packet_id - s_));
    }
    trace_.completions.push_back(m);
    if (world_.kernel_log().size() != logged + 1) {
      fail("AQL-RET-2: packet " + num(m) + " completed after " + num(world_.kernel_log().size() - logged) +
           " kernel runs");
    } else if (world_.kernel_log().back() != m) {
      fail("AQL-PUB-3: packet " + num(m) + " ran the body of packet " + num(world_.kernel_log().back()));
    }
  }

  // The real state, projected, must equal the model's.
  void project() {
    aql::QueueRing ring = world_.ring();
    const uint64_t write = ring.load_write_index(MemoryOrder::Relaxed);
    const uint64_t read = ring.load_read_index(MemoryOrder::Relaxed);
    if (write != state_.write_index + s_) fail("REFINE: write index " + num(write - s_));
    if (read != state_.read_index + s_) fail("REFINE: read index " + num(read - s_));
    trace_.max_write_lead = std::max(trace_.max_write_lead, aql::index_distance(read, write));
    if (c_.reservation == model::Reservation::Cas && aql::index_distance(read, write) > c_.ring_size) {
      fail("AQL-IDX-3: write " + num(write - s_) + " is more than a ring past read " + num(read - s_));
    }
    const uint64_t bell = ring.load_doorbell();
    if (state_.doorbell_rung ? bell != state_.doorbell + s_ : bell != s_ - 1) fail("REFINE: doorbell " + num(bell - s_));
    for (uint32_t i = 0; i < c_.ring_size; ++i) {
      const model::Slot& slot = state_.slots[i];
      const uint8_t* bytes = world_.queue().base() + i * aql::kPacketBytes;
      const uint32_t word = world_.queue().header_setup(i);
      if (slot.header == model::SlotHeader::Invalid) {
        if (aql::header_type(static_cast<uint16_t>(word)) != HSA_PACKET_TYPE_INVALID) {
          fail("REFINE: slot " + num(i) + " is not INVALID");
        }
      } else if (word != aql::make_header_setup(World::dispatch_header(slot.barrier), 1)) {
        fail("REFINE: slot " + num(i) + " header+setup differs from packet " + num(slot.header_id));
      }
      if (slot.has_body) {
        const hsa_kernel_dispatch_packet_t p = world_.dispatch(slot.body_id, false, signal_.handle());
        if (std::memcmp(bytes + 4, reinterpret_cast<const uint8_t*>(&p) + 4, aql::kPacketBytes - 4) != 0) {
          fail("REFINE: slot " + num(i) + " body is not packet " + num(slot.body_id) + "'s");
        }
      }
    }
    std::vector<uint64_t> expected;
    for (const model::InFlight& f : state_.in_flight) expected.push_back(f.id + s_);
    if (world_.processor().in_flight_ids() != expected) fail("REFINE: in-flight packets differ");
    if (world_.processor().phase() != real_phase(state_.processor)) fail("REFINE: processor phase differs");
    if (signal_.value() != state_.signal) {
      fail("AQL-SIG-2: completion signal " + num(signal_.value()) + ", the sequential model " + num(state_.signal));
    }
  }

  model::AqlConfig c_;
  uint64_t s_;
  World world_;
  model::AqlState state_;
  TestSignal signal_;
  Trace trace_;
};

}  // namespace

bool Trace::failed(const std::string& clause) const { return !first(clause).empty(); }

std::string Trace::first(const std::string& clause) const {
  for (const std::string& f : failures) {
    if (f.rfind(clause, 0) == 0) return f;
  }
  return "";
}

std::string Trace::all() const {
  std::string out;
  for (const std::string& f : failures) out += f + "\n";
  return out;
}

namespace {

void drain_fairly(const LockstepConfig& config, Runner& runner) {
  // Fair: rotate over the enabled steps; bounded, so a deadlock ends the run (AQL-LIVE-1).
  const uint64_t total = uint64_t{config.model.producers} * config.model.packets_per_producer;
  const uint64_t bound = 64 * (total + 1) * (config.model.producers + 2);
  for (uint64_t k = 0; k < bound && !runner.is_final(); ++k) {
    const std::vector<model::Step> options = runner.options();
    if (!runner.take(options[k % options.size()])) return;
  }
}

}  // namespace

Trace run_lockstep(const LockstepConfig& config, const std::vector<uint32_t>& choices, bool drain) {
  Runner runner(config);
  for (uint32_t choice : choices) {
    const std::vector<model::Step> options = runner.options();
    if (!runner.take(options[choice % options.size()])) return runner.finish();
  }
  if (drain) drain_fairly(config, runner);
  return runner.finish();
}

Trace run_script(const LockstepConfig& config, const std::vector<model::Step>& steps, bool drain) {
  Runner runner(config);
  for (const model::Step& st : steps) {
    const std::vector<model::Step> options = runner.options();
    if (std::find(options.begin(), options.end(), st) == options.end()) {
      runner.note("SCRIPT: " + model::describe(st) + " is not enabled");
      return runner.finish();
    }
    if (!runner.take(st)) return runner.finish();
  }
  if (drain) drain_fairly(config, runner);
  return runner.finish();
}

}  // namespace rocref::prop
