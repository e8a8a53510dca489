// gpu/packet_processor.cpp - the AQL packet processor of one hardware queue (see packet_processor.h).
//
// Fetch side: Launch -> ResetHeader -> AdvanceRead, one action per step, as the
// model's processor (models/aql_queue_model.h). Completion side: any launched
// packet whose rule holds completes, in any order unless barriers forbid it.
// A queue in error launches nothing more; packets it already launched may still
// complete (AQL-ERR-2 forbids launches, the PRM's "no further packets launch").
#include "gpu/packet_processor.h"

#include <algorithm>
#include <atomic>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "common/aql_packet.h"
#include "common/aql_protocol.h"
#include "common/expected.h"
#include "common/memory_order.h"
#include "common/model_clock.h"
#include "common/mutant.h"
#include "common/owner_counter.h"
#include "common/prefetch.h"
#include "common/signal.h"
#include "common/trace.h"
#include "common/trace_checks.h"
#include "common/tsan_sync.h"
#include "gpu/adversarial_queue.h"
#include "gpu/adversary.h"
#include "gpu/foreign_blit/foreign_kernel.h"
#include "gpu/isa/agent_cache.h"
#include "gpu/isa/dispatch.h"
#include "gpu/kernel_executor.h"
#include "gpu/packet_checks.h"
#include "gpu/pm4/vendor_packet.h"

namespace rocref::gpu {
namespace {

// ISA-TRACE-1: one "dispatch stats" trace event per kernel dispatch: work-groups and wave64 waves from
// the packet's geometry; for gfx9 code the interpreter's instruction counts as well (`rocref trace`).
void record_dispatch_stats(uint64_t id, const hsa_kernel_dispatch_packet_t& p, const isa::IsaStats* isa) {
  const uint32_t dims = p.setup & 3;
  const uint64_t grid[3] = {p.grid_size_x, dims > 1 ? p.grid_size_y : 1u, dims > 2 ? p.grid_size_z : 1u};
  const uint64_t wg[3] = {std::max<uint64_t>(p.workgroup_size_x, 1),
                          dims > 1 ? std::max<uint64_t>(p.workgroup_size_y, 1) : 1,
                          dims > 2 ? std::max<uint64_t>(p.workgroup_size_z, 1) : 1};
  uint64_t groups = 1, waves = 0;
  for (int d = 0; d < 3; ++d) groups *= (grid[d] + wg[d] - 1) / wg[d];
  if (isa != nullptr) {
    groups = isa->work_groups;
    waves = isa->waves;
  } else {  // host-compiled kernels: each work-group's items in waves of 64 (partial groups at the edges)
    const uint64_t full[3] = {grid[0] / wg[0], grid[1] / wg[1], grid[2] / wg[2]};
    const uint64_t rest[3] = {grid[0] % wg[0], grid[1] % wg[1], grid[2] % wg[2]};
    for (int mx = 0; mx < 2; ++mx) {
      for (int my = 0; my < 2; ++my) {
        for (int mz = 0; mz < 2; ++mz) {
          const uint64_t n =
              (mx ? rest[0] != 0 : full[0]) * (my ? rest[1] != 0 : full[1]) * (mz ? rest[2] != 0 : full[2]);
          const uint64_t items = (mx ? rest[0] : wg[0]) * (my ? rest[1] : wg[1]) * (mz ? rest[2] : wg[2]);
          waves += n * ((items + 63) / 64);
        }
      }
    }
  }
  std::string detail = "id=" + std::to_string(id) + " code=" + (isa != nullptr ? "gfx900" : "host") +
                       " work-groups=" + std::to_string(groups) + " waves=" + std::to_string(waves);
  if (isa != nullptr) {
    detail += " instructions=" + std::to_string(isa->instructions) +
              " scalar=" + std::to_string(isa->scalar_instructions) +
              " vector=" + std::to_string(isa->instructions - isa->scalar_instructions) +
              " lane-instructions=" + std::to_string(isa->lane_instructions);
  }
  ROCREF_TRACE_EVENT(trace::Layer::Gpu, "dispatch stats", detail);
}

// Inline: with tracing off, a dispatch pays one load instead of a call.
inline void trace_dispatch_stats(uint64_t id, const hsa_kernel_dispatch_packet_t& p, const isa::IsaStats* isa) {
  if (trace::enabled()) record_dispatch_stats(id, p, isa);
}

static_assert(offsetof(hsa_amd_barrier_value_packet_t, signal) == 8);
static_assert(offsetof(hsa_amd_barrier_value_packet_t, value) == 16);
static_assert(offsetof(hsa_amd_barrier_value_packet_t, mask) == 24);
static_assert(offsetof(hsa_amd_barrier_value_packet_t, cond) == 32);
static_assert(offsetof(hsa_amd_barrier_value_packet_t, completion_signal) == 56);
static_assert(offsetof(hsa_amd_vendor_packet_header_t, AmdFormat) == 2);
// Every packet type keeps its completion signal at byte 56.
constexpr size_t kCompletionSignalOffset = 56;

enum class Kind : uint8_t {
  Kernel,
  BarrierAnd,
  BarrierOr,
  BarrierValue,
  Agent,
  Pm4Ib,            // ROCR's PM4-IB vendor packet, run by gpu/pm4 (PM4-AQL-1)
  ForeignKernel,    // a ROCR or ROCclr blit kernel, emulated by gpu/foreign_blit (BLIT-REC-1, BLIT-REC-3)
  IsaKernel,        // an AMDHSA kernel descriptor: gfx900 code run by gpu/isa (ISA-DISP-1)
  NoOp,             // mutant VendorTypeAcceptedAsValid: a type-0 slot taken as a packet
  ConsumedInvalid,  // mutant InvalidHeaderConsumed: an INVALID slot taken as a packet
};

const char* kind_name(Kind kind) {
  static constexpr const char* kNames[] = {"KERNEL_DISPATCH", "BARRIER_AND", "BARRIER_OR", "BARRIER_VALUE",
                                           "AGENT_DISPATCH",  "PM4_IB",      "ROCR_BLIT",  "ISA_KERNEL",
                                           "VENDOR(0)",       "INVALID"};
  return kNames[static_cast<int>(kind)];
}

bool blocks_launches(Kind kind) {
  // PRM 2.9.x: barrier packets hold back every later packet until they complete.
  return kind == Kind::BarrierAnd || kind == Kind::BarrierOr || kind == Kind::BarrierValue;
}

std::string hex(uint64_t value) {
  char text[24];
  std::snprintf(text, sizeof text, "0x%llx", static_cast<unsigned long long>(value));
  return text;
}

uint64_t* translate_mailbox(uint64_t va, void* memory) {
  ROCREF_CHECKED("AQL-SIG-6");
  if (va % alignof(uint64_t) != 0) return nullptr;  // AQL-SIG-6: never an atomic on a misaligned word
  return static_cast<MemoryAccess*>(memory)->as<uint64_t>(va, Access::Write);
}

// AQL-FEN-1. ThreadSanitizer does not model fences (and gcc warns about them);
// for it the acquire load of the header and the acq_rel decrement of the
// completion signal carry the same ordering.
void fence(std::memory_order order) {
#if !defined(__SANITIZE_THREAD__)
  std::atomic_thread_fence(order);
#else
  (void)order;
#endif
}

template <typename T>
T packet_as(const uint8_t* bytes) {
  static_assert(sizeof(T) == aql::kPacketBytes);
  T packet;
  std::memcpy(&packet, bytes, sizeof packet);
  return packet;
}

}  // namespace

struct PacketProcessor::Impl {
  struct InFlight {
    // The packet fetched from the ring slot at `va`: its header word as acquire-loaded, the rest
    // of the slot after it. Copied straight into `bytes`, which are therefore not zeroed first.
    InFlight(uint64_t packet_id, uint32_t header_word, const uint8_t* slot, uint64_t va)
        : id(packet_id), header(static_cast<uint16_t>(header_word)), packet_va(va) {
      std::memcpy(bytes, &header_word, sizeof header_word);
      std::memcpy(bytes + sizeof header_word, slot + sizeof header_word, aql::kPacketBytes - sizeof header_word);
    }

    uint64_t id = 0;
    Kind kind = Kind::NoOp;
    uint16_t header = 0;
    uint8_t deps = 0;      // barrier-AND/OR: bit i set for each non-null dependency
    uint8_t observed = 0;  // bit i set once dependency i was seen 0 after launch
    uint64_t launch_ticks = 0;  // GPU clock at launch: the completion signal's start_ts
    uint64_t packet_va = 0;     // the ring slot: an ISA kernel's dispatch ptr
    alignas(64) uint8_t bytes[aql::kPacketBytes];  // the packet as fetched (set by the constructor)
    hsa_kernel_dispatch_packet_t dispatch{};  // Kind::Kernel: the packet the work-items see
    ResolvedKernel kernel;
    // AQL-FEN-6 (adversarial mode): the kernarg bytes the kernel reads instead of memory
    // (an older copy); shared, as copies of this record (deferred) point into it.
    std::shared_ptr<std::vector<uint8_t>> kernarg_view;
  };

  QueueBinding binding;
  ProcessorPhase phase = ProcessorPhase::Fetch;
  uint64_t read = 0;       // next packet id to fetch
  uint64_t launching = 0;  // packet between Launch and the end of its retirement
  std::vector<InFlight> in_flight;  // launch order
  KernelExecutor executor;
  KernelLookup kernel_lookup;  // the last registered kernel resolved (kernel_executor.h)

  std::atomic<bool> error{false};
  std::atomic<bool> inactive{false};
  std::atomic<uint32_t> status{HSA_STATUS_SUCCESS};
  QueueError detail;  // written once before `error` is released
  OwnerCounter launched, completed, interrupts;  // the stepping thread counts

  // Adversarial mode (gpu/adversary.h): null in the fast mode.
  std::unique_ptr<AdversarialQueue> adv;
  uint64_t adv_id = 0;
  std::vector<InFlight> deferred;  // AQL-FEN-4: completed dispatches whose writes are not yet visible
  std::shared_ptr<isa::AgentCache> l2;    // GPU-GRAIN-*: the agent's L2 (adversarial mode)
  uint64_t* cached_read_index = nullptr;  // mutant ReadIndexTranslatedOnce only

  explicit Impl(QueueBinding b) : binding(std::move(b)) {}
  ~Impl() {
    // Unregistered first: the doorbell observer and the scheduler stop reaching this queue.
    // Writes still deferred are dropped with the queue (never made visible).
    if (adv_id != 0) adversary::unregister_queue(adv_id);
  }

  amd_queue_t* queue() const { return binding.queue; }
  uint32_t size() const { return queue() ? queue()->hsa_queue.size : binding.ring_packets; }
  uint64_t slot_va(uint64_t id) const {
    const uint64_t base = queue() ? reinterpret_cast<uint64_t>(queue()->hsa_queue.base_address) : binding.ring_va;
    return base + (id & (size() - 1)) * aql::kPacketBytes;
  }

  ProcessorStep fail(PacketFault fault, uint64_t id) {
    if (!error.load(std::memory_order_relaxed)) {
      detail = QueueError{fault.status, id, fault.address, std::move(fault.what)};
      if (adv && detail.what.find("ROCREF_GPU_SEED") == std::string::npos) detail.what += adversary::seed_note();
      status.store(fault.status, std::memory_order_relaxed);
      error.store(true, std::memory_order_release);
      ROCREF_TRACE_EVENT(trace::Layer::Gpu, "queue error", "packet " + std::to_string(id) + ": " + detail.what);
      if (binding.on_error) binding.on_error(fault.status, id);
    }
    return ProcessorStep{ProcessorAction::Error, id};
  }

  amd_signal_t* signal_at(uint64_t handle, Access access) {
    // AQL-SIG-6: a signal off amd_signal_t's 64-byte alignment (AMD_SIGNAL_ALIGN) is a memory
    // violation, never an access through the type: its words would be misaligned or the object
    // would not be the one its handle names.
    if (handle % alignof(amd_signal_t) != 0) {
      if (!mutant_active(Mutant::MisalignedSignalUsed)) return nullptr;
      handle &= ~uint64_t{alignof(amd_signal_t) - 1};  // the planted bug: the low bits dropped, as a bus would
    }
    return binding.memory->as<amd_signal_t>(handle, access);
  }

  bool blocked_by_barrier_packet() const {
    for (const InFlight& f : in_flight) {
      if (blocks_launches(f.kind)) return true;
    }
    return false;
  }

  // AQL-ERR-1 and friends: classify the fetched packet; a fault means queue error.
  std::optional<PacketFault> classify(InFlight& f) {
    const uint8_t type = aql::header_type(f.header);
    if (type == HSA_PACKET_TYPE_INVALID) {  // only reached under InvalidHeaderConsumed
      f.kind = Kind::ConsumedInvalid;
      return std::nullopt;
    }
    ROCREF_CHECKED("AQL-FEN-2");
    if (auto fault = check_fence_scopes(f.header)) return fault;
    switch (type) {
      case HSA_PACKET_TYPE_VENDOR_SPECIFIC: {
        // AQL-INV-2: type 0 is what a zeroed or half-written header reads as
        // (ROCm/librocdxg#68); only a format this processor knows launches.
        if (mutant_active(Mutant::VendorTypeAcceptedAsValid)) {
          f.kind = Kind::NoOp;
          break;
        }
        if (pm4::is_pm4_ib_packet(f.bytes)) {
          // AQL-INV-2, AQL-ERR-1: a known format launches only when well formed.
          if (!pm4::pm4_ib_jump_is_valid(f.bytes)) {
            return PacketFault{HSA_STATUS_ERROR_INVALID_PACKET_FORMAT,
                               "AQL-ERR-1: PM4-IB vendor packet without a valid INDIRECT_BUFFER jump (PM4-AQL-1)", 0};
          }
          f.kind = Kind::Pm4Ib;
          break;
        }
        const auto packet = packet_as<hsa_amd_barrier_value_packet_t>(f.bytes);
        ROCREF_CHECKED("AQL-INV-2");
        if (auto fault = check_vendor_packet(packet)) return fault;
        if (packet.signal.handle != 0 && signal_at(packet.signal.handle, Access::Read) == nullptr) {
          return PacketFault{kStatusApertureViolation,
                             "AQL-BAR-4: BARRIER_VALUE signal " + hex(packet.signal.handle) + " is not mapped",
                             packet.signal.handle};
        }
        f.kind = Kind::BarrierValue;
        break;
      }
      case HSA_PACKET_TYPE_KERNEL_DISPATCH: {
        f.dispatch = packet_as<hsa_kernel_dispatch_packet_t>(f.bytes);
        ROCREF_CHECKED("AQL-ERR-1");
        if (auto fault = check_kernel_dispatch(f.dispatch)) return fault;
        if (auto fault = resolve_kernel(f.dispatch, *binding.memory, &f.kernel, &kernel_lookup)) {
          if (fault->status != HSA_STATUS_ERROR_INVALID_PACKET_FORMAT) return fault;
          // BLIT-REC-2: not a rocref kernel; launch it only if it is a ROCR or ROCclr blit kernel.
          const foreign_blit::ForeignResult r = foreign_blit::recognise_foreign_kernel(f.dispatch, *binding.memory);
          if (r.outcome != foreign_blit::ForeignOutcome::Completed) {
            std::string why;
            if (isa::is_isa_kernel(f.dispatch, *binding.memory, &why)) {
              f.kind = Kind::IsaKernel;  // ISA-DISP-1: real gfx900 code
              break;
            }
            fault->what += "; " + r.what + "; ISA-DISP-1: not gfx900 code (" + why + ")";
            return fault;
          }
          f.kind = Kind::ForeignKernel;
          break;
        }
        f.kind = Kind::Kernel;
        // The host wrote the segment just before the packet: its line crosses cores while the
        // slot is retired, not when the grid first reads an argument.
        if (f.kernel.kernarg != nullptr) prefetch_for_read(f.kernel.kernarg);
        break;
      }
      case HSA_PACKET_TYPE_BARRIER_AND:
      case HSA_PACKET_TYPE_BARRIER_OR: {
        const auto packet = packet_as<hsa_barrier_and_packet_t>(f.bytes);  // same layout as OR
        for (uint8_t i = 0; i < aql::kBarrierDependencies; ++i) {
          const uint64_t handle = packet.dep_signal[i].handle;
          if (handle == 0) continue;  // AQL-BAR-2/3: null dependencies are ignored
          if (signal_at(handle, Access::Read) == nullptr) {
            return PacketFault{kStatusApertureViolation,
                               "AQL-BAR-2: dependency signal " + hex(handle) + " is not mapped", handle};
          }
          f.deps |= static_cast<uint8_t>(1u << i);
        }
        f.kind = type == HSA_PACKET_TYPE_BARRIER_AND ? Kind::BarrierAnd : Kind::BarrierOr;
        break;
      }
      case HSA_PACKET_TYPE_AGENT_DISPATCH:
        f.kind = Kind::Agent;
        break;
      default:
        return PacketFault{HSA_STATUS_ERROR_INVALID_PACKET_FORMAT,
                           "AQL-ERR-1: reserved packet type " + std::to_string(type), 0};
    }
    const uint64_t completion = completion_handle(f);
    if (completion != 0 && signal_at(completion, Access::ReadWrite) == nullptr) {
      return PacketFault{kStatusApertureViolation,
                         "AQL-SIG-2: completion signal " + hex(completion) + " is not mapped", completion};
    }
    return std::nullopt;
  }

  static uint64_t completion_handle(const InFlight& f) {
    if (f.kind == Kind::ConsumedInvalid) return 0;  // nothing was published there
    uint64_t handle;
    std::memcpy(&handle, f.bytes + kCompletionSignalOffset, sizeof handle);
    return handle;
  }

  ProcessorStep try_launch() {
    if (error.load(std::memory_order_relaxed) || inactive.load(std::memory_order_relaxed)) return {};
    // AQL-BAR-2..4: a launched barrier packet holds back later ones (aql::may_launch, the
    // guard the proofs check), before the adversary is asked about the doorbell.
    const bool blocked = blocked_by_barrier_packet();
    if (blocked && !aql::may_launch(aql::ConcreteDomain{}, false, false, true, blocked)) return {};
    if (adv && !adv->rung(read)) return {};      // AQL-ADV-2: only packets a delivered doorbell covers
    const uint64_t va = slot_va(read);
    auto* slot = static_cast<uint8_t*>(binding.memory->translate(va, aql::kPacketBytes, Access::ReadWrite));
    if (slot == nullptr) {
      return fail(PacketFault{kStatusApertureViolation,
                              "AQL-ERR-1: ring slot " + hex(va) + " is not mapped", va},
                  read);
    }
    // AQL-PUB-3: the acquire pairs with the producer's release of header+setup.
    const uint32_t word = std::atomic_ref<uint32_t>(*reinterpret_cast<uint32_t*>(slot)).load(aql::kHeaderLoadOrder);
    tsan::acquire(reinterpret_cast<const void*>(static_cast<uintptr_t>(va)));  // the slot at the producer's address (tsan_sync.h)
    const auto header = static_cast<uint16_t>(word);
    // AQL-INV-1 (INVALID means the producer has not published yet: wait), AQL-BAR-1
    // (a barrier-bit packet waits for every earlier packet to complete) and AQL-BAR-2..4
    // (a launched barrier packet holds back later ones): the launch guard of
    // common/aql_protocol.h, the one the proofs check.
    const bool header_invalid = aql::header_type(header) == HSA_PACKET_TYPE_INVALID;
    if (!aql::may_launch(aql::ConcreteDomain{}, header_invalid, aql::header_barrier(header), in_flight.empty(),
                         blocked)) {
      if (header_invalid && adv) adv->fetched_invalid();
      return {};
    }
    // Built in place: the record is a few hundred bytes, copied once per launch otherwise.
    InFlight& f = in_flight.emplace_back(read, word, slot, va);
    if (auto fault = classify(f)) {
      in_flight.pop_back();
      return fail(std::move(*fault), read);
    }
    if (adv) {
      adversary::flush_all();  // AQL-FEN-4: the agent's earlier writes are visible to its next launch
      acquire_kernarg(f);      // AQL-FEN-6: what the kernel reads of its kernarg segment
      // GPU-GRAIN-3: a system-scope acquire makes host writes to coarse memory visible; a
      // narrower one keeps the L2's lines, however old.
      if (l2 && aql::header_acquire_scope(header) == HSA_FENCE_SCOPE_SYSTEM &&
          !mutant_active(Mutant::SystemAcquireKeepsL2Lines)) {
        l2->acquire_system();
      }
    }
    // AQL-FEN-1: launch ends with an acquire fence at the packet's acquire scope.
    if (aql::header_acquire_scope(header) != HSA_FENCE_SCOPE_NONE) fence(std::memory_order_acquire);
    f.launch_ticks = gpu_clock_ticks();
    ROCREF_TRACE_EVENT(trace::Layer::Gpu, "packet processor: launch",
                       std::string(kind_name(f.kind)) + " id=" + std::to_string(read) + " header=" + hex(header) +
                           " (header acquire-loaded)");
    launching = read;
    if (adv) adv->launched(read);
    phase = ProcessorPhase::Launched;
    launched.add();
    return ProcessorStep{ProcessorAction::Launch, launching};
  }

  // AQL-RET-1: one 32-bit store puts the slot back to INVALID.
  void reset_header() {
    const uint64_t va = slot_va(launching);
    auto* slot = static_cast<uint32_t*>(binding.memory->translate(va, sizeof(uint32_t), Access::Write));
    if (slot == nullptr) {
      fail(PacketFault{kStatusApertureViolation,
                       "AQL-RET-1: ring slot " + hex(va) + " is not mapped", va},
           launching);
      return;
    }
    std::atomic_ref<uint32_t>(*slot).store(aql::make_header_setup(aql::kInvalidHeader, 0), std::memory_order_release);
  }

  // AQL-RET-2: read_index + 1 with a release store: the slot is the producers' again.
  void advance_read() {
    read = launching + 1;
    if (queue()) {
      atomic_field(queue()->read_dispatch_id).store(read, aql::kReadIndexStoreOrder);
      return;
    }
    // AQL-MEM-1: the read index is reached through translation at every store.
    auto* index = mutant_active(Mutant::ReadIndexTranslatedOnce) && cached_read_index != nullptr
                      ? cached_read_index
                      : binding.memory->as<uint64_t>(binding.read_index_va, Access::Write);
    if (index == nullptr) {
      fail(PacketFault{kStatusApertureViolation, "AQL-MEM-1: read index " + hex(binding.read_index_va) + " is not mapped",
                       binding.read_index_va},
           launching);
      return;
    }
    std::atomic_ref<uint64_t>(*index).store(read, aql::kReadIndexStoreOrder);
  }

  ProcessorStep step_fetch() {
    switch (phase) {
      case ProcessorPhase::Fetch:
        return try_launch();
      case ProcessorPhase::Launched:
        // AQL-RET-1: common/aql_protocol.h's retirement order.
        if (aql::retire_order(aql::ConcreteDomain{}).first == aql::RetireStep::AdvanceRead) {
          advance_read();
          phase = ProcessorPhase::ReadAdvanced;
          return ProcessorStep{ProcessorAction::AdvanceRead, launching};
        }
        reset_header();
        phase = ProcessorPhase::HeaderReset;
        return ProcessorStep{ProcessorAction::ResetHeader, launching};
      case ProcessorPhase::HeaderReset:
        advance_read();
        ROCREF_TRACE_EVENT(trace::Layer::Gpu, "header INVALID, read_index advanced",
                           "read_index=" + std::to_string(launching + 1));
        phase = ProcessorPhase::Fetch;
        return ProcessorStep{ProcessorAction::AdvanceRead, launching};
      case ProcessorPhase::ReadAdvanced:
        reset_header();
        phase = ProcessorPhase::Fetch;
        return ProcessorStep{ProcessorAction::ResetHeader, launching};
    }
    return {};
  }

  // Whether in_flight[index]'s completion rule holds, or the fault that ends the queue in error.
  Expected<bool, PacketFault> ready(InFlight& f) {
    // GPU-GRAIN-5: host-compiled and emulated bodies reach memory directly, not through the
    // agent's L2: they see what gfx900 code wrote, and later gfx900 code re-reads theirs.
    if (l2 && (f.kind == Kind::Kernel || f.kind == Kind::ForeignKernel || f.kind == Kind::Pm4Ib) &&
        !mutant_active(Mutant::BypassingEngineSkipsL2WriteBack)) {
      l2->write_back_invalidate();
    }
    switch (f.kind) {
      case Kind::BarrierAnd:
      case Kind::BarrierOr: {
        const auto packet = packet_as<hsa_barrier_and_packet_t>(f.bytes);
        for (uint8_t i = 0; i < aql::kBarrierDependencies; ++i) {
          const uint8_t bit = static_cast<uint8_t>(1u << i);
          if ((f.deps & bit) == 0 || (f.observed & bit) != 0) continue;
          amd_signal_t* dep = signal_at(packet.dep_signal[i].handle, Access::Read);
          if (dep == nullptr) {
            return unexpected(
                PacketFault{kStatusApertureViolation,
                            "AQL-BAR-2: dependency signal " + hex(packet.dep_signal[i].handle) + " is not mapped",
                            packet.dep_signal[i].handle});
          }
          if (sig::Signal(dep).load(MemoryOrder::Acquire) == 0) f.observed |= bit;
        }
        // AQL-BAR-2: every dependency seen 0 (not necessarily at once). AQL-BAR-3:
        // any one; with no non-null dependency there is nothing to wait for.
        if (f.kind == Kind::BarrierAnd || mutant_active(Mutant::BarrierOrNeedsAll)) return f.observed == f.deps;
        return f.deps == 0 || f.observed != 0;
      }
      case Kind::BarrierValue: {
        const auto packet = packet_as<hsa_amd_barrier_value_packet_t>(f.bytes);
        if (packet.signal.handle == 0) return true;  // AQL-BAR-4: null is satisfied
        amd_signal_t* s = signal_at(packet.signal.handle, Access::Read);
        if (s == nullptr) {
          return unexpected(
              PacketFault{kStatusApertureViolation,
                          "AQL-BAR-4: BARRIER_VALUE signal " + hex(packet.signal.handle) + " is not mapped",
                          packet.signal.handle});
        }
        const int64_t value = sig::Signal(s).load(MemoryOrder::Acquire);
        // AQL-BAR-4: the completion rule of common/aql_protocol.h, the one the proofs check.
        return aql::barrier_value_satisfied(aql::ConcreteDomain{}, packet.cond, static_cast<uint64_t>(value),
                                            static_cast<uint64_t>(packet.mask), static_cast<uint64_t>(packet.value));
      }
      case Kind::Kernel: {
        std::optional<PacketFault> fault;
        {
          std::optional<trace::Span> span;  // made only when tracing: saves building an empty detail
          if (trace::enabled()) {
            span.emplace(trace::Layer::Gpu, "dispatch: run the grid",
                         "id=" + std::to_string(f.id) + " work-items=" +
                             std::to_string(uint64_t{f.dispatch.grid_size_x} * f.dispatch.grid_size_y *
                                            f.dispatch.grid_size_z));
          }
          fault = executor.run(f.dispatch, f.kernel);
          trace_dispatch_stats(f.id, f.dispatch, nullptr);
        }
        if (fault) return unexpected(std::move(*fault));
        return true;
      }
      case Kind::Pm4Ib: {
        const pm4::Pm4Context ctx{binding.memory, binding.on_interrupt, nullptr};
        const pm4::VendorResult r = pm4::run_vendor_packet(f.bytes, ctx);
        if (r.outcome != pm4::VendorOutcome::Completed) {
          return unexpected(PacketFault{HSA_STATUS_ERROR_INVALID_PACKET_FORMAT, r.what, 0});
        }
        return true;
      }
      case Kind::ForeignKernel: {
        const foreign_blit::ForeignResult r = foreign_blit::run_foreign_kernel(f.dispatch, *binding.memory);
        if (r.outcome == foreign_blit::ForeignOutcome::Fault) {  // BLIT-FAULT-1: a GPU page fault, as a kernel's
          return unexpected(PacketFault{kStatusApertureViolation, r.what, r.address});
        }
        if (r.outcome != foreign_blit::ForeignOutcome::Completed) {
          return unexpected(PacketFault{HSA_STATUS_ERROR_INVALID_PACKET_FORMAT, r.what, f.dispatch.kernel_object});
        }
        return true;
      }
      case Kind::IsaKernel: {
        const isa::IsaDispatch d{&f.dispatch, f.packet_va,    reinterpret_cast<uintptr_t>(binding.queue),
                                 f.id,        binding.memory, l2.get()};
        isa::IsaStats stats;
        std::optional<PacketFault> fault = isa::run_isa_dispatch(d, &stats);
        trace_dispatch_stats(f.id, f.dispatch, &stats);
        if (fault) return unexpected(std::move(*fault));
        return true;
      }
      case Kind::Agent:
        if (binding.on_agent_dispatch && !binding.on_agent_dispatch(packet_as<hsa_agent_dispatch_packet_t>(f.bytes))) {
          return unexpected(PacketFault{HSA_STATUS_ERROR_EXCEPTION, "agent dispatch failed", 0});
        }
        return true;
      case Kind::NoOp:
      case Kind::ConsumedInvalid:
        return true;
    }
    return false;
  }

  ProcessorStep step_complete(size_t index) {
    if (index >= in_flight.size()) return {};
    InFlight& f = in_flight[index];
    const uint64_t id = f.id;
    bool done = false;
    // Mutant CompletionBeforeWork: the grid, run after the decrement. Held by pointer: the
    // record is a few hundred bytes, and an empty std::optional of it costs every completion.
    std::unique_ptr<InFlight> after_signal;
    if (mutant_active(Mutant::CompletionBeforeWork) && f.kind == Kind::Kernel) {
      after_signal = std::make_unique<InFlight>(f);
      done = true;
    } else if (adv && defers_writes(f)) {
      // AQL-FEN-4: released below system scope, so the host may see the signal before the writes.
      ROCREF_TRACE_EVENT(trace::Layer::Gpu, "adversary: writes deferred", "id=" + std::to_string(id));
      deferred.push_back(f);
      done = true;
    } else if (Expected<bool, PacketFault> r = ready(f)) {
      done = *r;
    } else {
      in_flight.erase(in_flight.begin() + static_cast<ptrdiff_t>(index));
      return fail(std::move(r.error()), id);
    }
    if (!done) return {};
    // AQL-FEN-4: a system-scope release makes the agent's deferred writes visible first.
    if (adv && aql::header_release_scope(f.header) == HSA_FENCE_SCOPE_SYSTEM) {
      adversary::flush_all();
      // GPU-GRAIN-2: and writes the L2's dirty coarse lines back; AGENT scope leaves them there.
      if (l2 && !mutant_active(Mutant::SystemReleaseSkipsL2WriteBack)) l2->write_back();
    }
    // AQL-FEN-1: the release fence at the packet's release scope, before the decrement.
    if (aql::header_release_scope(f.header) != HSA_FENCE_SCOPE_NONE) {
      fence(std::memory_order_release);
    }
    const uint64_t completion = completion_handle(f);
    const uint64_t launch_ticks = f.launch_ticks;
    in_flight.erase(in_flight.begin() + static_cast<ptrdiff_t>(index));
    completed.add();
    if (completion == 0) return ProcessorStep{ProcessorAction::Complete, id};
    amd_signal_t* signal = signal_at(completion, Access::ReadWrite);
    if (signal == nullptr) {
      fail(PacketFault{kStatusApertureViolation,
                       "AQL-SIG-2: completion signal " + hex(completion) + " is not mapped", completion},
           id);
      return ProcessorStep{ProcessorAction::Complete, id};
    }
    // HSA-PROF-1: dispatch start and end in the model clock, visible before the decrement.
    std::atomic_ref<uint64_t>(signal->start_ts).store(launch_ticks, std::memory_order_relaxed);
    std::atomic_ref<uint64_t>(signal->end_ts).store(gpu_clock_ticks(), std::memory_order_relaxed);
    // The decrement goes through the arena's mapping; tell TSan it releases at the handle (tsan_sync.h).
    tsan::release(reinterpret_cast<const void*>(static_cast<uintptr_t>(completion)));
    // AQL-SIG-2, AQL-SIG-3: atomic decrement, then mailbox and interrupt.
    const sig::CompletionOutcome outcome = sig::complete_signal(signal, &translate_mailbox, binding.memory);
    ROCREF_TRACE_EVENT(trace::Layer::Gpu, "completion: signal decremented",
                       "id=" + std::to_string(id) + " value=" + std::to_string(outcome.value_after));
    if (outcome.interrupt) {
      ROCREF_TRACE_EVENT(trace::Layer::Gpu, "interrupt", "event_id=" + std::to_string(outcome.event_id));
      interrupts.add();
      if (binding.on_interrupt) binding.on_interrupt(outcome.event_id);
    } else if (outcome.mailbox_fault) {
      fail(PacketFault{kStatusApertureViolation,
                       "AQL-SIG-3: event mailbox of signal " + hex(completion) + " is not mapped", completion},
           id);
    }
    if (after_signal) {
      if (Expected<bool, PacketFault> r = ready(*after_signal); !r) fail(std::move(r.error()), id);
    }
    return ProcessorStep{ProcessorAction::Complete, id};
  }

  // --- Adversarial mode (spec/aql-queue.md AQL-ADV-*, AQL-FEN-3..5) ---

  static bool defers_writes(const InFlight& f) {
    return (f.kind == Kind::Kernel || f.kind == Kind::ForeignKernel) &&
           aql::header_release_scope(f.header) != HSA_FENCE_SCOPE_SYSTEM;
  }

  // AQL-FEN-6: a system-scope acquire invalidates the agent's copies of kernarg segments;
  // a rocref kernel launched with a narrower one may read an earlier launch's copy of its
  // segment (adversary::kernarg_view). Only segments whose size the descriptor declares:
  // the model reads no byte the kernel does not own (a neighbour may be written meanwhile).
  void acquire_kernarg(InFlight& f) {
    const bool narrow = aql::header_acquire_scope(f.header) != HSA_FENCE_SCOPE_SYSTEM;
    if (!narrow) adversary::acquire_system();
    if (f.kind != Kind::Kernel || f.kernel.kernarg == nullptr || f.kernel.kernarg_bytes == 0) return;
    const auto va = reinterpret_cast<uint64_t>(f.dispatch.kernarg_address);
    std::vector<uint8_t> stale;
    if (!adversary::kernarg_view(va, static_cast<const uint8_t*>(f.kernel.kernarg), f.kernel.kernarg_bytes, narrow,
                                 adv->chooser(), &stale)) {
      return;
    }
    ROCREF_TRACE_EVENT(trace::Layer::Gpu, "adversary: kernarg read from an older copy",
                       "id=" + std::to_string(f.id) + " kernarg=" + hex(va));
    f.kernarg_view = std::make_shared<std::vector<uint8_t>>(std::move(stale));
    f.kernel.kernarg = f.kernarg_view->data();
  }

  // Runs the bodies of completed dispatches whose writes were deferred, oldest first.
  void flush_deferred() {
    if (deferred.empty()) return;
    std::vector<InFlight> run;
    run.swap(deferred);
    for (InFlight& d : run) {
      ROCREF_TRACE_EVENT(trace::Layer::Gpu, "adversary: deferred writes made visible", "id=" + std::to_string(d.id));
      if (Expected<bool, PacketFault> r = ready(d); !r) fail(std::move(r.error()), d.id);
    }
  }

  void start_adversary() {
    amd_queue_t* descriptor = queue();
    if (descriptor == nullptr && binding.amd_queue_va != 0 && binding.memory != nullptr) {
      descriptor = binding.memory->as<amd_queue_t>(binding.amd_queue_va, Access::Read);
    }
    adv = std::make_unique<AdversarialQueue>(descriptor, binding.memory);
    l2 = adversary::agent_cache();
    adversary::QueueHooks hooks;
    hooks.check = [this] { adv->check_doorbell(); };
    hooks.flush = [this] { flush_deferred(); };
    hooks.in_flight = [this] { return !in_flight.empty() || phase != ProcessorPhase::Fetch; };
    hooks.owes = [this] { return adv->owes(); };
    hooks.stuck = [this] {
      const bool idle_fetch = phase == ProcessorPhase::Fetch && in_flight.empty() &&
                              !error.load(std::memory_order_relaxed) && !inactive.load(std::memory_order_relaxed);
      return adv->stuck(read, idle_fetch);
    };
    adv_id = adversary::register_queue(std::move(hooks));
  }

  // AQL-ADV-1, AQL-ADV-3: a seeded choice among what the rules allow: idle this step,
  // launch before completing, and which launched packet to try to complete first.
  ProcessorStep adversarial_step() {
    if (std::optional<std::string> violation = adv->take_violation()) {
      return fail(PacketFault{HSA_STATUS_ERROR_INVALID_PACKET_FORMAT, std::move(*violation), 0}, read);
    }
    if (phase != ProcessorPhase::Fetch) return step_fetch();
    if (adv->delay()) return {};
    const bool launch_first = adv->chooser().one_in(2, "launch before completing");
    if (launch_first) {
      const ProcessorStep s = step_fetch();
      if (s.action != ProcessorAction::None) return s;
    }
    const size_t n = in_flight.size();
    if (n != 0) {
      const size_t start = adv->chooser().below(static_cast<uint32_t>(n), "completion order");
      for (size_t k = 0; k < n; ++k) {
        const ProcessorStep s = step_complete((start + k) % n);
        if (s.action != ProcessorAction::None) return s;
      }
    }
    return launch_first ? ProcessorStep{} : step_fetch();
  }
};

PacketProcessor::PacketProcessor(QueueBinding binding) : impl_(new Impl(std::move(binding))) {
  Impl& s = *impl_;
  if (s.binding.memory == nullptr) {
    s.fail(PacketFault{HSA_STATUS_ERROR_INVALID_ARGUMENT, "queue binding without memory access", 0}, 0);
    return;
  }
  const bool by_address = s.binding.queue == nullptr && s.binding.ring_va != 0;
  const uint32_t size = s.binding.queue != nullptr ? s.binding.queue->hsa_queue.size : s.binding.ring_packets;
  if ((s.binding.queue == nullptr && !by_address) || size == 0 || (size & (size - 1)) != 0 ||
      (s.binding.queue != nullptr &&
       (s.binding.queue->hsa_queue.base_address == nullptr ||
        reinterpret_cast<uintptr_t>(s.binding.queue->hsa_queue.base_address) % aql::kPacketBytes != 0)) ||
      (by_address && (s.binding.ring_va % aql::kPacketBytes != 0 || s.binding.read_index_va % 8 != 0))) {
    s.fail(PacketFault{HSA_STATUS_ERROR_INVALID_QUEUE, "queue binding without an aligned power-of-two ring", 0}, 0);
    return;
  }
  if (by_address) {
    const auto* index = s.binding.memory->as<uint64_t>(s.binding.read_index_va, Access::Read);
    if (index == nullptr) {
      s.fail(PacketFault{kStatusApertureViolation, "AQL-MEM-1: read index " + hex(s.binding.read_index_va) + " is not mapped",
                         s.binding.read_index_va},
             0);
      return;
    }
    s.read = std::atomic_ref<uint64_t>(*const_cast<uint64_t*>(index)).load(std::memory_order_acquire);
    if (mutant_active(Mutant::ReadIndexTranslatedOnce)) s.cached_read_index = const_cast<uint64_t*>(index);
  } else {
    s.read = atomic_field(s.binding.queue->read_dispatch_id).load(std::memory_order_acquire);
  }
  s.launching = s.read;
  if (adversary::enabled()) s.start_adversary();
}

PacketProcessor::~PacketProcessor() { delete impl_; }

ProcessorStep PacketProcessor::step_fetch() {
  if ((impl_->binding.queue == nullptr && impl_->binding.ring_va == 0) || impl_->binding.memory == nullptr) return {};
  return impl_->step_fetch();
}

ProcessorStep PacketProcessor::step_complete(size_t index) { return impl_->step_complete(index); }

ProcessorStep PacketProcessor::step() {
  if (impl_->adv) return impl_->adversarial_step();
  if (impl_->phase != ProcessorPhase::Fetch) return step_fetch();
  for (size_t i = 0; i < impl_->in_flight.size(); ++i) {
    const ProcessorStep s = impl_->step_complete(i);
    if (s.action != ProcessorAction::None) return s;
  }
  return step_fetch();
}

uint64_t PacketProcessor::drain(uint64_t max_steps) {
  uint64_t actions = 0;
  while (actions < max_steps && step().action != ProcessorAction::None) ++actions;
  return actions;
}

bool PacketProcessor::has_work() const {
  const Impl& s = *impl_;
  if ((s.binding.queue == nullptr && s.binding.ring_va == 0) || s.binding.memory == nullptr) return false;
  if (s.phase != ProcessorPhase::Fetch || !s.in_flight.empty()) return true;
  if (s.error.load(std::memory_order_relaxed) || s.inactive.load(std::memory_order_relaxed)) return false;
  const auto* slot = static_cast<uint32_t*>(s.binding.memory->translate(s.slot_va(s.read), sizeof(uint32_t), Access::Read));
  if (slot == nullptr) return true;  // stepping reports the fault
  const uint32_t word = std::atomic_ref<uint32_t>(*const_cast<uint32_t*>(slot)).load(std::memory_order_acquire);
  return aql::header_type(static_cast<uint16_t>(word)) != HSA_PACKET_TYPE_INVALID;
}

size_t PacketProcessor::in_flight() const { return impl_->in_flight.size(); }

std::vector<uint64_t> PacketProcessor::in_flight_ids() const {
  std::vector<uint64_t> ids;
  ids.reserve(impl_->in_flight.size());
  for (const auto& f : impl_->in_flight) ids.push_back(f.id);
  return ids;
}

bool PacketProcessor::in_error() const { return impl_->error.load(std::memory_order_acquire); }

hsa_status_t PacketProcessor::error_status() const {
  return static_cast<hsa_status_t>(impl_->status.load(std::memory_order_relaxed));
}

bool PacketProcessor::preemptible() const {
  return impl_->phase == ProcessorPhase::Fetch && impl_->in_flight.empty() && impl_->deferred.empty();
}

bool PacketProcessor::resume_at(uint64_t read) {
  if (!preemptible()) return false;
  impl_->read = read;
  impl_->launching = read;
  return true;
}

void PacketProcessor::inactivate() { impl_->inactive.store(true, std::memory_order_relaxed); }

ProcessorStats PacketProcessor::stats() const {
  return ProcessorStats{impl_->launched.load(), impl_->completed.load(), impl_->interrupts.load()};
}

ProcessorPhase PacketProcessor::phase() const { return impl_->phase; }
uint64_t PacketProcessor::fetch_index() const { return impl_->read; }

std::optional<QueueError> PacketProcessor::last_error() const {
  if (!impl_->error.load(std::memory_order_acquire)) return std::nullopt;
  return impl_->detail;
}

}  // namespace rocref::gpu
