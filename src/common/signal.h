// common/signal.h - HSA signal operations over the real amd_signal_t.
//
// The value lives at offset 8 of ROCR's amd_signal_t, the event mailbox pointer
// at 16 and the event id at 24 (amd_hsa_signal.h). Every operation is one
// std::atomic_ref access in the HSA memory order the caller names
// (AQL-SIG-1). Interrupt signals (event_mailbox_ptr != 0) tell the host side
// about each change through a wake hook, as ROCR's InterruptSignal calls
// hsaKmtSetEvent after every store; a waiter spins, then yields, then may sleep
// through a sleep hook (the KFD's WAIT_EVENTS) until its timeout.
#pragma once

#include <hsa/amd_hsa_signal.h>
#include <hsa/hsa.h>

#include <chrono>
#include <cstddef>
#include <cstdint>

#include "common/memory_order.h"

namespace rocref::sig {

static_assert(offsetof(amd_signal_t, kind) == 0);
static_assert(offsetof(amd_signal_t, value) == 8);
static_assert(offsetof(amd_signal_t, event_mailbox_ptr) == 16);
static_assert(offsetof(amd_signal_t, event_id) == 24);
static_assert(sizeof(amd_signal_t) == 64);
static_assert(alignof(amd_signal_t) == 64);  // AMD_SIGNAL_ALIGN: the GPU model requires it of every handle (AQL-SIG-6)
static_assert(sizeof(hsa_signal_value_t) == sizeof(int64_t));

// Called after a store or read-modify-write changed (or may have changed) the value.
using WakeHook = void (*)(amd_signal_t* signal, void* context);
// Called by a waiter whose spin phase ended: block up to `timeout` for a change
// (a wake or the value no longer equal to `observed`); may return early.
using SleepHook = void (*)(amd_signal_t* signal, int64_t observed, std::chrono::nanoseconds timeout,
                           void* context);

struct SignalHooks {
  WakeHook wake = nullptr;
  SleepHook sleep = nullptr;
  void* context = nullptr;
};

// AQL-SIG-4: the four conditions of hsa_signal_condition_t; false for any other value.
// `condition` as its 32-bit ABI value: one past GTE (a caller's bad value) never holds.
bool condition_holds(uint32_t condition, int64_t value, int64_t compare) noexcept;
bool is_valid_condition(uint32_t condition) noexcept;

struct WaitResult {
  int64_t value = 0;       // last value observed, what hsa_signal_wait_* returns
  bool satisfied = false;  // false: the timeout expired first (or the condition is not valid)
};

// One signal as the host and the GPU model see it. Cheap to copy; owns nothing.
class Signal {
 public:
  explicit Signal(amd_signal_t* signal, SignalHooks hooks = {}) noexcept : signal_(signal), hooks_(hooks) {}

  amd_signal_t* raw() const noexcept { return signal_; }
  bool has_event() const noexcept { return signal_->event_mailbox_ptr != 0; }

  int64_t load(MemoryOrder order) const noexcept;
  void store(int64_t value, MemoryOrder order) noexcept;
  void add(int64_t value, MemoryOrder order) noexcept;
  void subtract(int64_t value, MemoryOrder order) noexcept;
  void bit_and(int64_t value, MemoryOrder order) noexcept;
  void bit_or(int64_t value, MemoryOrder order) noexcept;
  void bit_xor(int64_t value, MemoryOrder order) noexcept;
  // Returns the previous value.
  int64_t exchange(int64_t value, MemoryOrder order) noexcept;
  // Returns the value observed (== expected on success), as hsa_signal_cas_* does.
  // AQL-SIG-5: only a successful CAS changes the value, so only it wakes waiters.
  int64_t cas(int64_t expected, int64_t desired, MemoryOrder order) noexcept;

  // AQL-SIG-4: waits until condition(value, compare) holds or `timeout` passes.
  // Loads use `order` (Acquire for hsa_signal_wait_scacquire, Relaxed for _relaxed).
  WaitResult wait(hsa_signal_condition_t condition, int64_t compare, std::chrono::nanoseconds timeout,
                  MemoryOrder order = MemoryOrder::Acquire) const noexcept;

 private:
  void changed() noexcept {
    if (hooks_.wake != nullptr) hooks_.wake(signal_, hooks_.context);
  }

  amd_signal_t* signal_;
  SignalHooks hooks_;
};

// What the GPU's completion of a packet did to its completion signal.
struct CompletionOutcome {
  int64_t value_after = 0;
  bool interrupt = false;   // the signal has an event: mailbox written, interrupt to raise
  uint32_t event_id = 0;
  bool mailbox_fault = false;  // event_mailbox_ptr did not translate: nothing written
};

// Maps the signal's event_mailbox_ptr (a GPU address) to a host pointer; nullptr = fault.
using MailboxTranslate = uint64_t* (*)(uint64_t mailbox_va, void* context);

// AQL-SIG-2, AQL-SIG-3: the GPU's end of a packet. Atomic decrement (acq_rel,
// so the release fence before it reaches any acquiring waiter), then, if the
// signal carries an event mailbox, event_id stored there with release order.
CompletionOutcome complete_signal(amd_signal_t* signal, MailboxTranslate translate, void* context) noexcept;

#ifdef ROCREF_ENABLE_MUTANTS
// Test-only: runs between the read and the write of the NonAtomicSignalDecrement
// mutant, so a test can place a concurrent update exactly in that window.
void set_decrement_window_hook(void (*hook)(amd_signal_t* signal)) noexcept;
#endif

}  // namespace rocref::sig
