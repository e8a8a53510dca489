// common/signal.cpp - HSA signal operations and the GPU completion path (see signal.h).
#include "common/signal.h"

#include <sched.h>

#include <atomic>

#include "common/backoff.h"
#include "common/mutant.h"
#include "common/prefetch.h"
#include "common/tsan_sync.h"

namespace rocref::sig {
namespace {

// amd_signal_t declares the value volatile; every access is an atomic_ref over it.
std::atomic_ref<int64_t> value_of(amd_signal_t* signal) noexcept { return atomic_field(signal->value); }

#ifdef ROCREF_ENABLE_MUTANTS
std::atomic<void (*)(amd_signal_t*)> g_decrement_window{nullptr};
#endif

// Spinning is cheap only while the writer runs on another core; after this
// many checks the waiter yields, and after kYieldChecks it may sleep.
constexpr int kSpinChecks = 256;
constexpr int kYieldChecks = 64;

}  // namespace

bool is_valid_condition(uint32_t condition) noexcept { return condition <= HSA_SIGNAL_CONDITION_GTE; }

bool condition_holds(uint32_t condition, int64_t value, int64_t compare) noexcept {
  switch (condition) {
    case HSA_SIGNAL_CONDITION_EQ: return value == compare;
    case HSA_SIGNAL_CONDITION_NE: return value != compare;
    case HSA_SIGNAL_CONDITION_LT: return value < compare;
    case HSA_SIGNAL_CONDITION_GTE: return value >= compare;
  }
  return false;
}

int64_t Signal::load(MemoryOrder order) const noexcept {
  const int64_t value = value_of(signal_).load(load_order(order));
  // On the host signal_ is the handle: pairs with the GPU model's release (tsan_sync.h).
  if (load_order(order) != std::memory_order_relaxed) tsan::acquire(signal_);
  return value;
}

void Signal::store(int64_t value, MemoryOrder order) noexcept {
  value_of(signal_).store(value, store_order(order));
  changed();
}

// Wrap-around on overflow is what the hardware's 64-bit atomics do: compute in uint64_t.
void Signal::add(int64_t value, MemoryOrder order) noexcept {
  value_of(signal_).fetch_add(value, rmw_order(order));
  changed();
}

void Signal::subtract(int64_t value, MemoryOrder order) noexcept {
  value_of(signal_).fetch_sub(value, rmw_order(order));
  changed();
}

void Signal::bit_and(int64_t value, MemoryOrder order) noexcept {
  value_of(signal_).fetch_and(value, rmw_order(order));
  changed();
}

void Signal::bit_or(int64_t value, MemoryOrder order) noexcept {
  value_of(signal_).fetch_or(value, rmw_order(order));
  changed();
}

void Signal::bit_xor(int64_t value, MemoryOrder order) noexcept {
  value_of(signal_).fetch_xor(value, rmw_order(order));
  changed();
}

int64_t Signal::exchange(int64_t value, MemoryOrder order) noexcept {
  const int64_t previous = value_of(signal_).exchange(value, rmw_order(order));
  changed();
  return previous;
}

int64_t Signal::cas(int64_t expected, int64_t desired, MemoryOrder order) noexcept {
  const bool swapped = value_of(signal_).compare_exchange_strong(expected, desired, rmw_order(order),
                                                                  load_order(order));
  // AQL-SIG-5 (ROCm/ROCR-Runtime#317): a failed compare changed nothing; waking
  // waiters for it costs a system call and, with auto-reset events, can eat a real wake.
  if (swapped || mutant_active(Mutant::CasWakesOnFailure)) changed();
  return expected;
}

WaitResult Signal::wait(hsa_signal_condition_t condition, int64_t compare, std::chrono::nanoseconds timeout,
                        MemoryOrder order) const noexcept {
  WaitResult result;
  result.value = load(order);
  if (!is_valid_condition(condition)) return result;
  if (condition_holds(condition, result.value, compare)) {
    result.satisfied = true;
    return result;
  }
  using Clock = std::chrono::steady_clock;
  const Clock::time_point start = Clock::now();
  // Saturate: an "infinite" timeout (UINT64_MAX ticks) must not overflow the deadline.
  const Clock::duration max_wait = Clock::time_point::max() - start;
  const Clock::time_point deadline =
      timeout >= max_wait ? Clock::time_point::max() : start + std::chrono::duration_cast<Clock::duration>(timeout);
  for (int check = 0;; ++check) {
    if (check < kSpinChecks) {
#if defined(__x86_64__) || defined(__i386__)
      __builtin_ia32_pause();
#endif
    } else if (check < kSpinChecks + kYieldChecks || hooks_.sleep == nullptr) {
      sched_yield();
    } else {
      const Clock::time_point now = Clock::now();
      if (now >= deadline) return result;
      hooks_.sleep(signal_, result.value, std::chrono::duration_cast<std::chrono::nanoseconds>(deadline - now),
                   hooks_.context);
    }
    result.value = load(order);
    if (condition_holds(condition, result.value, compare)) {
      result.satisfied = true;
      return result;
    }
    // Checking the clock on every spin would dominate a short wait.
    if ((check & 15) == 15 && Clock::now() >= deadline) return result;
  }
}

CompletionOutcome complete_signal(amd_signal_t* signal, MailboxTranslate translate, void* context) noexcept {
  CompletionOutcome outcome;
  // One transfer of the line, owned, for the reads and the decrement below (a waiter polls it).
  prefetch_for_write(signal);
  // Read the event fields before the decrement: a waiter that sees the new value
  // may destroy the signal at once, so the signal must not be touched after it.
  const uint64_t mailbox_va = std::atomic_ref<uint64_t>(signal->event_mailbox_ptr).load(std::memory_order_relaxed);
  const uint32_t event_id = std::atomic_ref<uint32_t>(signal->event_id).load(std::memory_order_relaxed);
  std::atomic_ref<int64_t> value = value_of(signal);
  if (mutant_active(Mutant::NonAtomicSignalDecrement)) {
    // gem5's "HACK": a read, then a write; a concurrent update in between is lost.
    const int64_t read = value.load(std::memory_order_acquire);
#ifdef ROCREF_ENABLE_MUTANTS
    if (auto hook = g_decrement_window.load(std::memory_order_acquire)) hook(signal);
#endif
    value.store(read - 1, std::memory_order_release);
    outcome.value_after = read - 1;
  } else {
    outcome.value_after = value.fetch_sub(1, std::memory_order_acq_rel) - 1;
  }
  if (mailbox_va == 0) return outcome;
  outcome.event_id = event_id;
  uint64_t* mailbox = translate != nullptr ? translate(mailbox_va, context) : nullptr;
  if (mailbox == nullptr) {
    outcome.mailbox_fault = true;
    return outcome;
  }
  // The KFD scans its event page for slots that are no longer all ones.
  std::atomic_ref<uint64_t>(*mailbox).store(outcome.event_id, std::memory_order_release);
  outcome.interrupt = true;
  return outcome;
}

#ifdef ROCREF_ENABLE_MUTANTS
void set_decrement_window_hook(void (*hook)(amd_signal_t* signal)) noexcept {
  g_decrement_window.store(hook, std::memory_order_release);
}
#endif

}  // namespace rocref::sig
