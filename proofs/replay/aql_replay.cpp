// proofs/replay/aql_replay.cpp - step-by-step replay of a model interleaving on QueueRing + PacketProcessor.
#include "proofs/replay/aql_replay.h"

#include <hsa/amd_hsa_queue.h>
#include <hsa/amd_hsa_signal.h>

#include <cstdlib>
#include <cstring>
#include <map>
#include <memory>
#include <set>
#include <sstream>

#include "common/aql_packet.h"
#include "common/aql_ring.h"
#include "common/host_aql_queue.h"
#include "gpu/memory_access.h"
#include "gpu/packet_processor.h"

namespace rocref::proofs {
namespace {

using model::Action;
using model::Actor;

const char* action_name(gpu::ProcessorAction a) {
  switch (a) {
    case gpu::ProcessorAction::None: return "nothing";
    case gpu::ProcessorAction::Launch: return "launch";
    case gpu::ProcessorAction::ResetHeader: return "reset-header";
    case gpu::ProcessorAction::AdvanceRead: return "advance-read";
    case gpu::ProcessorAction::Complete: return "complete";
    case gpu::ProcessorAction::Error: return "queue error";
  }
  return "?";
}

gpu::ProcessorAction expected(Action a) {
  switch (a) {
    case Action::Launch: return gpu::ProcessorAction::Launch;
    case Action::ResetHeader: return gpu::ProcessorAction::ResetHeader;
    case Action::AdvanceRead: return gpu::ProcessorAction::AdvanceRead;
    default: return gpu::ProcessorAction::Complete;
  }
}


}  // namespace

ReplayResult replay_on_real_code(const AqlTrace& trace) {
  ReplayResult result;
  const model::AqlConfig& cfg = trace.config;
  aql::HostAqlQueue q(cfg.ring_size);
  aql::QueueRing ring(&q.queue);
  amd_signal_t completion{};
  completion.kind = AMD_SIGNAL_KIND_USER;
  completion.value = static_cast<int64_t>(cfg.producers) * cfg.packets_per_producer;
  gpu::FlatMemory memory;
  gpu::QueueBinding binding;
  binding.queue = &q.queue;
  binding.memory = &memory;
  gpu::PacketProcessor processor(binding);

  const auto how = cfg.doorbell == model::DoorbellStore::Max ? aql::DoorbellStore::Max : aql::DoorbellStore::Plain;
  std::map<uint32_t, uint64_t> owned;  // producer -> packet id
  std::set<uint64_t> published, launched;
  std::vector<uint64_t> in_flight;     // launch order, as the processor keeps it
  std::ostringstream log;

  // AGENT_DISPATCH packets: a barrier-AND would block later launches until it completes (a rule
  // the queue model does not have), a kernel dispatch would need a kernel; an agent packet with
  // no handler just completes.
  auto packet_for = [&](uint64_t id) {
    hsa_agent_dispatch_packet_t p{};
    const bool barrier = cfg.barrier_every != 0 && id % cfg.barrier_every == 0;
    const uint16_t header = aql::make_header(HSA_PACKET_TYPE_AGENT_DISPATCH, barrier, HSA_FENCE_SCOPE_SYSTEM,
                                             HSA_FENCE_SCOPE_SYSTEM);
    const uint32_t word = aql::make_header_setup(header, 0);
    std::memcpy(&p, &word, sizeof word);
    p.type = static_cast<uint16_t>(id);  // the body names its packet
    p.completion_signal.handle = reinterpret_cast<uint64_t>(&completion);
    return p;
  };
  auto header_type_at = [&](uint64_t id) {
    uint16_t h;
    std::memcpy(&h, ring.slot(id), sizeof h);
    return aql::header_type(h);
  };
  auto fail = [&](std::string clause_and_what) {
    if (!result.violation) result.violation = std::move(clause_and_what);
  };

  for (const model::Step& step : trace.steps) {
    if (result.violation) break;
    log << "  " << result.steps_run + 1 << ". " << model::describe(step);
    if (step.actor == Actor::Producer) {
      uint64_t& id = owned[step.index];
      switch (step.action) {
        case Action::Reserve:
          if (cfg.reservation == model::Reservation::Plain) {
            id = ring.load_write_index(MemoryOrder::Relaxed);  // AQL-IDX-7: the load
          } else if (cfg.reservation == model::Reservation::FetchAdd) {
            id = ring.reserve_fetch_add(1);
          } else if (auto got = ring.try_reserve_cas(1)) {
            id = *got;
          } else {
            result.diverged = true;
            result.divergence = "CAS reservation refused: the ring is full";
          }
          break;
        case Action::StoreWriteIndex: ring.store_write_index(id + 1, MemoryOrder::Relaxed); break;
        case Action::CheckRoom:
          if (!ring.has_room(id, 1)) {
            result.diverged = true;
            result.divergence = "has_room(" + std::to_string(id) + ") is false: the producer keeps waiting";
          } else if (aql::index_distance(ring.load_read_index(MemoryOrder::Acquire), id) >= ring.size()) {
            fail("AQL-IDX-4: producer writes packet " + std::to_string(id) + " outside [read_index, read_index + size)");
          }
          break;
        case Action::WriteBody: {
          if (header_type_at(id) != HSA_PACKET_TYPE_INVALID) {
            fail("AQL-IDX-2: slot " + std::to_string(id & (ring.size() - 1)) +
                 " still holds an unconsumed packet when packet " + std::to_string(id) + " is written");
          }
          const hsa_agent_dispatch_packet_t p = packet_for(id);
          if (cfg.mutants.body_write_clears_header) {
            // The producer of librocdxg#68: the whole 64 bytes, header word zero (type 0) first.
            hsa_agent_dispatch_packet_t zeroed = p;
            std::memset(&zeroed, 0, sizeof(uint32_t));
            std::memcpy(ring.slot(id), &zeroed, sizeof zeroed);
          } else {
            ring.write_body(id, &p);
          }
          break;
        }
        case Action::Publish: {
          const hsa_agent_dispatch_packet_t p = packet_for(id);
          uint32_t word;
          std::memcpy(&word, &p, sizeof word);
          ring.publish(id, word);
          published.insert(id);
          break;
        }
        case Action::RingDoorbell: {
          ring.ring_doorbell(id, how);
          const uint64_t bell = ring.load_doorbell();
          if (!published.count(bell)) {
            fail("AQL-DB-3: doorbell " + std::to_string(bell) + " names a packet nobody published");
          }
          break;
        }
        default:
          break;
      }
    } else {
      gpu::ProcessorStep got = step.actor == Actor::Processor ? processor.step_fetch() : processor.step_complete(step.index);
      if (got.action != expected(step.action)) {
        result.diverged = true;
        result.divergence = std::string("the processor did '") + action_name(got.action) + "' instead";
      } else if (got.action == gpu::ProcessorAction::Launch) {
        const uint64_t id = got.packet_id;
        if (!published.count(id)) {
          fail(std::string(header_type_at(id) == HSA_PACKET_TYPE_INVALID ? "AQL-INV-1" : "AQL-INV-2") +
               ": packet " + std::to_string(id) + " launched though no producer published it");
        } else if (cfg.barrier_every != 0 && id % cfg.barrier_every == 0 && !in_flight.empty()) {
          fail("AQL-BAR-1: barrier packet " + std::to_string(id) + " launched before earlier packets completed");
        }
        launched.insert(id);
        in_flight.push_back(id);
      } else if (got.action == gpu::ProcessorAction::Complete && step.index < in_flight.size()) {
        in_flight.erase(in_flight.begin() + static_cast<long>(step.index));
      }
    }
    if (result.diverged) {
      log << ": diverged, " << result.divergence << "\n";
      break;
    }
    ++result.steps_run;
    // AQL-RET-1: a published packet not yet launched must still have its header.
    for (uint64_t id : published) {
      if (!launched.count(id) && header_type_at(id) == HSA_PACKET_TYPE_INVALID) {
        fail("AQL-RET-1: the published header of packet " + std::to_string(id) + " was erased before it was consumed");
      }
    }
    log << "   read=" << ring.load_read_index(MemoryOrder::Relaxed) << " write=" << ring.load_write_index(MemoryOrder::Relaxed)
        << " doorbell=" << ring.load_doorbell() << "\n";
  }
  if (result.violation) log << "  ^ reproduced " << *result.violation << "\n";
  result.log = log.str();
  return result;
}

}  // namespace rocref::proofs
