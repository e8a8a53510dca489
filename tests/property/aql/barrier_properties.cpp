// tests/property/aql/barrier_properties.cpp - barrier-AND, barrier-OR and BARRIER_VALUE on the
// real packet processor under random dependency-signal histories (AQL-BAR-2..4).
#include <rapidcheck.h>

#include <array>
#include <memory>
#include <vector>

#include "common/signal.h"
#include "properties.h"
#include "world.h"

namespace rocref::prop {
namespace {

constexpr int kSignals = 3;

// What the test has seen of each dependency since the barrier launched.
struct History {
  std::array<bool, kSignals> zero_since_launch{};
};

// A barrier-AND/OR packet with dependencies drawn from kSignals signals or null,
// followed by a kernel dispatch that must not launch before the barrier completes.
void barrier_property(hsa_packet_type_t type) {
  World world(WorldOptions{8, 0, 2});
  std::vector<std::unique_ptr<TestSignal>> signals;
  for (int i = 0; i < kSignals; ++i) signals.push_back(std::make_unique<TestSignal>(*rc::gen::inRange(0, 2)));
  const auto deps = *rc::gen::container<std::vector<int>>(5, rc::gen::inRange(-1, kSignals));  // -1: null
  TestSignal completion(1);

  hsa_barrier_and_packet_t barrier{};  // barrier-OR has the same layout
  barrier.header = aql::make_header(type, false, HSA_FENCE_SCOPE_SYSTEM, HSA_FENCE_SCOPE_SYSTEM);
  for (int i = 0; i < 5; ++i) barrier.dep_signal[i].handle = deps[i] < 0 ? 0 : signals[deps[i]]->handle().handle;
  barrier.completion_signal = completion.handle();
  aql::QueueRing ring = world.ring();
  ring.submit(&barrier);
  const hsa_kernel_dispatch_packet_t after = world.dispatch(1, false, hsa_signal_t{0});
  ring.submit(&after);

  auto rule_holds_now = [&] {
    bool any_dep = false, all = true, any = false;
    for (int d : deps) {
      if (d < 0) continue;
      any_dep = true;
      all &= signals[d]->value() == 0;
      any |= signals[d]->value() == 0;
    }
    return type == HSA_PACKET_TYPE_BARRIER_AND ? all : (!any_dep || any);
  };
  History seen;
  bool launched = false, completed = false, next_launched = false;
  auto note_values = [&] {
    for (int i = 0; i < kSignals; ++i) seen.zero_since_launch[i] |= launched && signals[i]->value() == 0;
  };
  const auto program = *rc::gen::container<std::vector<int>>(rc::gen::inRange(0, 2 + 2 * kSignals));
  for (int op : program) {
    if (op == 0) {
      const gpu::ProcessorStep s = world.processor().step_fetch();
      if (s.action == gpu::ProcessorAction::Launch && s.packet_id == 0) {
        launched = true;
        note_values();
      }
      if (s.action == gpu::ProcessorAction::Launch && s.packet_id == 1) next_launched = true;
    } else if (op == 1) {
      const bool holds_now = launched && !completed && rule_holds_now();
      const std::vector<uint64_t> ids = world.processor().in_flight_ids();
      if (ids.empty() || ids[0] != 0) continue;
      const gpu::ProcessorStep s = world.processor().step_complete(0);
      if (s.action == gpu::ProcessorAction::Complete) {
        // Safety: every (AND) / some (OR) dependency was 0 at some point since launch.
        bool all = true, any = false, any_dep = false;
        for (int d : deps) {
          if (d < 0) continue;
          any_dep = true;
          all &= seen.zero_since_launch[d];
          any |= seen.zero_since_launch[d];
        }
        last_failure() = type == HSA_PACKET_TYPE_BARRIER_AND ? "AQL-BAR-2: AND completed early"
                                                             : "AQL-BAR-3: OR completed with no dependency at 0";
        const bool rule_held = type == HSA_PACKET_TYPE_BARRIER_AND ? all : (!any_dep || any);
        RC_ASSERT(rule_held);
        completed = true;
        RC_ASSERT(completion.value() == 0);
      } else {
        // Liveness: a rule that holds on the current values completes the barrier.
        last_failure() = type == HSA_PACKET_TYPE_BARRIER_AND ? "AQL-BAR-2: AND not completed with all at 0"
                                                             : "AQL-BAR-3: OR not completed with one at 0";
        RC_ASSERT(!holds_now);
      }
    } else {
      const int i = (op - 2) / 2;
      signals[i]->set((op - 2) % 2 == 0 ? 0 : 1);
      note_values();
    }
    last_failure() = "AQL-BAR-2: a packet after the barrier launched before the barrier completed";
    RC_ASSERT(!next_launched || completed);
  }
  last_failure().clear();
}

}  // namespace

void property_barrier_and() { barrier_property(HSA_PACKET_TYPE_BARRIER_AND); }
void property_barrier_or() { barrier_property(HSA_PACKET_TYPE_BARRIER_OR); }

void property_barrier_value() {
  World world(WorldOptions{8, 0, 0});
  TestSignal watched(*rc::gen::inRange<int64_t>(-4, 8));
  TestSignal completion(1);
  hsa_amd_barrier_value_packet_t p{};
  p.header.header = aql::make_header(HSA_PACKET_TYPE_VENDOR_SPECIFIC, false, HSA_FENCE_SCOPE_SYSTEM,
                                     HSA_FENCE_SCOPE_SYSTEM);
  p.header.AmdFormat = HSA_AMD_PACKET_TYPE_BARRIER_VALUE;
  const bool null_signal = *rc::gen::inRange(0, 8) == 0;
  p.signal = null_signal ? hsa_signal_t{0} : watched.handle();
  p.value = *rc::gen::inRange<int64_t>(-4, 8);
  p.mask = *rc::gen::element<int64_t>(-1, 0x7, 0x3, 0x1);
  p.cond = *rc::gen::inRange<uint32_t>(0, 4);
  p.completion_signal = completion.handle();
  world.ring().submit(&p);
  auto holds = [&] {
    return null_signal || sig::condition_holds(static_cast<hsa_signal_condition_t>(p.cond),
                                               watched.value() & p.mask, p.value);
  };
  bool launched = false;
  for (int op : *rc::gen::container<std::vector<int>>(rc::gen::inRange(0, 10))) {
    if (op == 0) {
      launched |= world.processor().step_fetch().action == gpu::ProcessorAction::Launch;
    } else if (op == 1 && launched && completion.value() == 1) {
      const bool now = holds();
      const gpu::ProcessorStep s = world.processor().step_complete(0);
      last_failure() = "AQL-BAR-4: BARRIER_VALUE completion does not follow its condition";
      RC_ASSERT((s.action == gpu::ProcessorAction::Complete) == now);
    } else if (op >= 2) {
      watched.set(op - 6);
    }
  }
  last_failure().clear();
  RC_ASSERT(!world.processor().in_error());
}

}  // namespace rocref::prop
