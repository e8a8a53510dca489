// tests/property/aql/signal_properties.cpp - HSA signal operations against a sequential model, and
// the completion path's decrement, mailbox and interrupt (AQL-SIG-1..5), on the real code.
#include <rapidcheck.h>

#include <atomic>
#include <chrono>
#include <thread>

#include "common/mutant.h"
#include "common/signal.h"
#include "properties.h"
#include "world.h"

namespace rocref::prop {
namespace {

constexpr MemoryOrder kOrders[] = {MemoryOrder::Relaxed, MemoryOrder::Acquire, MemoryOrder::Release,
                                   MemoryOrder::AcqRel};

int64_t wrap_add(int64_t a, int64_t b) { return static_cast<int64_t>(static_cast<uint64_t>(a) + static_cast<uint64_t>(b)); }

struct WakeCount {
  static void wake(amd_signal_t*, void* context) { ++*static_cast<int*>(context); }
};

}  // namespace

std::string& last_failure() {
  static std::string failure;
  return failure;
}

void property_signal_arithmetic() {
  TestSignal raw(*rc::gen::arbitrary<int64_t>());
  int wakes = 0;
  sig::Signal s(raw.raw(), sig::SignalHooks{&WakeCount::wake, nullptr, &wakes});
  int64_t model = raw.value();
  const auto ops = *rc::gen::container<std::vector<std::tuple<int, int, int64_t, int64_t>>>(
      rc::gen::tuple(rc::gen::inRange(0, 10), rc::gen::inRange(0, 4), rc::gen::arbitrary<int64_t>(),
                     rc::gen::inRange<int64_t>(-3, 4)));
  last_failure() = "AQL-SIG-1: a signal operation disagrees with the sequential model";
  for (const auto& [op, o, operand, small] : ops) {
    const MemoryOrder order = kOrders[o];
    switch (op) {
      case 0: RC_ASSERT(s.load(order) == model); break;
      case 1: s.store(operand, order); model = operand; break;
      case 2: s.add(operand, order); model = wrap_add(model, operand); break;
      case 3:
        s.subtract(operand, order);
        model = static_cast<int64_t>(static_cast<uint64_t>(model) - static_cast<uint64_t>(operand));
        break;
      case 4: s.bit_and(operand, order); model &= operand; break;
      case 5: s.bit_or(operand, order); model |= operand; break;
      case 6: s.bit_xor(operand, order); model ^= operand; break;
      case 7: RC_ASSERT(s.exchange(operand, order) == model); model = operand; break;
      case 8: {  // CAS with an expected value that matches about half the time
        const int64_t expected = small % 2 == 0 ? model : wrap_add(model, small | 1);
        RC_ASSERT(s.cas(expected, operand, order) == model);
        if (expected == model) model = operand;
        break;
      }
      default: {
        const sig::WaitResult w = s.wait(HSA_SIGNAL_CONDITION_EQ, model, std::chrono::nanoseconds(0), order);
        RC_ASSERT(w.satisfied);
        RC_ASSERT(w.value == model);
      }
    }
    RC_ASSERT(raw.value() == model);
  }
  last_failure().clear();
}

void property_failed_cas() {
  TestSignal raw(*rc::gen::inRange<int64_t>(-3, 4));
  int wakes = 0;
  sig::Signal s(raw.raw(), sig::SignalHooks{&WakeCount::wake, nullptr, &wakes});
  const int64_t before = raw.value();
  const int64_t expected = *rc::gen::inRange<int64_t>(-3, 4);
  const int64_t desired = *rc::gen::inRange<int64_t>(-3, 4);
  const MemoryOrder order = kOrders[*rc::gen::inRange(0, 4)];
  const int64_t seen = s.cas(expected, desired, order);
  last_failure() = "AQL-SIG-5: CAS result, value or wake-ups wrong";
  RC_ASSERT(seen == before);
  RC_ASSERT(raw.value() == (expected == before ? desired : before));
  RC_ASSERT(wakes == (expected == before ? 1 : 0));  // a failed CAS wakes nobody
  last_failure().clear();
}

void property_signal_wait() {
  const auto condition = static_cast<hsa_signal_condition_t>(*rc::gen::inRange(0, 4));
  const int64_t compare = *rc::gen::inRange<int64_t>(-2, 3);
  TestSignal raw(*rc::gen::inRange<int64_t>(-2, 3));
  sig::Signal s(raw.raw());
  const int64_t initial = raw.value();
  const sig::WaitResult now = s.wait(condition, compare, std::chrono::microseconds(50));
  last_failure() = "AQL-SIG-4: wait result disagrees with the condition";
  RC_ASSERT(now.satisfied == sig::condition_holds(condition, initial, compare));
  RC_ASSERT(now.value == initial);
  if (!now.satisfied) {
    // Another thread makes the condition true: the wait returns satisfied with that value.
    const int64_t target = condition == HSA_SIGNAL_CONDITION_EQ ? compare
                           : condition == HSA_SIGNAL_CONDITION_NE ? compare + 1
                           : condition == HSA_SIGNAL_CONDITION_LT ? compare - 1
                                                                  : compare;
    std::thread setter([&] {
      std::this_thread::sleep_for(std::chrono::microseconds(200));
      sig::Signal(raw.raw()).store(target, MemoryOrder::Release);
    });
    const sig::WaitResult later = s.wait(condition, compare, std::chrono::seconds(20));
    setter.join();
    RC_ASSERT(later.satisfied);
    RC_ASSERT(later.value == target);
  }
  // An invalid condition is never satisfied and changes nothing.
  const sig::WaitResult bad = s.wait(static_cast<hsa_signal_condition_t>(4), compare, std::chrono::nanoseconds(0));
  RC_ASSERT(!bad.satisfied);
  last_failure().clear();
}

void property_mailbox_interrupt() {
  World world(WorldOptions{8, 0, 8});
  const uint64_t n = *rc::gen::inRange<uint64_t>(1, 8);
  TestSignal with_event(static_cast<int64_t>(n));
  uint64_t mailbox = ~uint64_t{0};  // event slots start at all ones
  const bool has_event = *rc::gen::arbitrary<bool>();
  if (has_event) {
    with_event.raw()->event_mailbox_ptr = reinterpret_cast<uintptr_t>(&mailbox);
    with_event.raw()->event_id = *rc::gen::inRange<uint32_t>(1, 4096);
  }
  world.set_interrupt_probe(with_event.raw());
  for (uint64_t m = 0; m < n; ++m) {
    const auto p = world.dispatch(m, false, with_event.handle());
    world.ring().submit(&p);
  }
  world.processor().drain(1000);
  last_failure() = "AQL-SIG-3: mailbox or interrupt wrong after completion";
  RC_ASSERT(with_event.value() == 0);
  if (!has_event) {
    RC_ASSERT(world.interrupts().empty());
    RC_ASSERT(mailbox == ~uint64_t{0});
  } else {
    RC_ASSERT(world.interrupts().size() == n);
    for (uint32_t id : world.interrupts()) RC_ASSERT(id == with_event.raw()->event_id);
    RC_ASSERT(mailbox == with_event.raw()->event_id);
    // Each interrupt follows its decrement: the k-th saw the value n - k.
    for (uint64_t k = 0; k < n; ++k) RC_ASSERT(world.probe_values()[k] == static_cast<int64_t>(n - k - 1));
  }
  last_failure().clear();
}

void property_decrement_composes() {
  World world(WorldOptions{8, 0, 8});
  const uint64_t n = *rc::gen::inRange<uint64_t>(1, 8);
  TestSignal completion(static_cast<int64_t>(n));
  static std::atomic<int64_t> host_adds{0};
  host_adds = 0;
#ifdef ROCREF_ENABLE_MUTANTS
  // A host update lands between the mutant's read and write (a no-op for the atomic decrement).
  sig::set_decrement_window_hook([](amd_signal_t* s) {
    sig::Signal(s).add(1, MemoryOrder::AcqRel);
    host_adds.fetch_add(1);
  });
#endif
  for (uint64_t m = 0; m < n; ++m) {
    const auto p = world.dispatch(m, false, completion.handle());
    world.ring().submit(&p);
  }
  world.processor().drain(1000);
#ifdef ROCREF_ENABLE_MUTANTS
  sig::set_decrement_window_hook(nullptr);
#endif
  last_failure() = "AQL-SIG-2: a concurrent signal update was lost by the completion decrement";
  RC_ASSERT(completion.value() == static_cast<int64_t>(n) - static_cast<int64_t>(n) + host_adds.load());
  last_failure().clear();
}

}  // namespace rocref::prop
