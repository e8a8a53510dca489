// proofs/signals/signal_wait.h - the interrupt-signal wait/wake protocol over a KFD event.
//
// Waiters (hsa_signal_wait_*) read the event's age, check the signal value,
// and if unsatisfied call WAIT_EVENTS with that age; the KFD returns at once
// when the age moved, consumes an auto-reset event that is already signaled,
// or blocks. The setter stores the value, then SET_EVENT: age + 1, wakes every
// blocked waiter, or leaves the event signaled when nobody waits.
// AQL-SIG-4 (waits): no waiter sleeps forever after the value it waits for was stored
// (rocm-systems#10463: check-then-sleep without the age loses a wake-up).
// AQL-SIG-5: a signal CAS whose compare fails changes nothing, wakes nobody
// (ROCR-Runtime#317).
#pragma once

#include <cstdint>
#include <string>

#include "proofs/common/verdict.h"

namespace rocref::proofs {

enum class WaitVariant {
  EventAge,             // age read before the value check, passed to WAIT_EVENTS: proved
  NoAge,                // mutant: check-then-sleep on an auto-reset event
  AgeReadAfterCheck,    // mutant: the age is read after the value check
  CasFailureIsSilent,   // a failed CAS changes nothing: proved
  CasWakesOnFailure,    // mutant (ROCR#317)
};

std::string variant_name(WaitVariant v);
// Explores every interleaving of `waiters` waiters and one setter up to `depth` steps; PROVED
// when that depth also shows every execution has ended (the bound is complete).
Verdict check_signal_wait(WaitVariant v, uint32_t waiters = 2, uint32_t depth = 0);

}  // namespace rocref::proofs
