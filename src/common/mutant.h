// common/mutant.h - planted bugs that tests and proofs must catch.
//
// A check that cannot fail proves nothing. Each Mutant is a known-bad variant
// of one protocol step. They are compiled in only when ROCREF_ENABLE_MUTANTS is
// defined (the test-only *_mutable libraries); elsewhere active() is a constant
// false and the optimiser removes every mutant branch from the hot path.
#pragma once

#include <cstdint>
#include <string_view>

#include "common/mutant_switch.h"

namespace rocref {

enum class Mutant : uint32_t {
  RelaxedHeaderStore,               // AQL-PUB-1: header+setup stored relaxed
  DoorbellBeforeHeader,             // AQL-DB-1: doorbell rung before the header is published
  HeaderResetAfterReadIndex,        // AQL-RET-1: read_index advanced before the slot goes INVALID
  SkipFullCheck,                    // AQL-IDX-2: producer writes without waiting for a free slot
  NonAtomicSignalDecrement,         // AQL-SIG-2: completion signal read, then written
  VendorTypeAcceptedAsValid,        // AQL-INV-2: type 0 on a recycled slot launched
  DoorbellOverAdvance,              // AQL-DB-3: doorbell stored past the published packets
  CasWakesOnFailure,                // AQL-SIG-5: failed signal CAS still wakes waiters
  IgnoreBarrierBit,                 // AQL-BAR-1: barrier bit not honoured
  BarrierOrNeedsAll,                // AQL-BAR-3: barrier-OR waits for every dependency
  InvalidHeaderConsumed,            // AQL-INV-1: INVALID slot consumed instead of waited on
  BarrierPacketDoesNotBlock,        // AQL-BAR-4: later packets launch past an incomplete BARRIER_VALUE
  BarrierValueIgnoresCondition,     // AQL-BAR-4: BARRIER_VALUE completes before its condition holds
  MisalignedSignalUsed,             // AQL-SIG-6: a misaligned signal handle used with its low bits dropped
  ReadIndexTranslatedOnce,          // AQL-MEM-1: the read index translated once and the pointer kept
  CompletionBeforeWork,             // AQL-FEN-1: a dispatch's completion signal decremented before its grid runs
  SystemReleaseSkipsL2WriteBack,    // GPU-GRAIN-2: a system-scope release leaves dirty coarse lines in the L2
  SystemAcquireKeepsL2Lines,        // GPU-GRAIN-3: a system-scope acquire keeps the L2's clean lines
  BypassingEngineSkipsL2WriteBack,  // GPU-GRAIN-5: a host-compiled or blit body runs under the L2's dirty lines
  IdleReaderPollsSlot,              // AQL-INV-4: a drained RingReader polls the slot producers write next
  RoomLimitPastRing,                // AQL-IDX-2: a producer's cached bound lets id read_index + size through
  KernelLookupByObject,             // AQL-ERR-1: the registered kernel remembered by kernel object, not code record
  BlitKernelRawAddresses,           // VM-XLATE-4: the copy and fill kernels dereference GPU addresses on the host
  kCount
};

std::string_view mutant_name(Mutant m) noexcept;

#ifdef ROCREF_ENABLE_MUTANTS
bool mutant_active(Mutant m) noexcept;
void set_mutant(Mutant m, bool on) noexcept;

using ScopedMutant = ScopedMutantSwitch<Mutant, set_mutant>;
#elif defined(ROCREF_MUTANTS_NEUTRAL)
// Objects that name mutants but run none (the Z3 encodings of proofs/aql) link with either
// configuration: no inline body here, and none of the guard below.
bool mutant_active(Mutant m) noexcept;
#else
constexpr bool mutant_active(Mutant) noexcept { return false; }
#endif

}  // namespace rocref

// Link-time guard, as LLVM's abi-breaking.h: ROCREF_ENABLE_MUTANTS changes inline bodies here
// and in aql_ring.h, aql_producer.h and aql_protocol.h, so objects of the two configurations
// must never meet in one program. Every object that includes this header refers to the symbol
// of its own configuration, and common/mutant.cpp defines only its own: a mutant object linked
// with rocref_common (or a normal one with rocref_common_mutable) leaves a symbol undefined,
// and both libraries in one link define rocref_mutant_switchboard twice.
extern "C" {
#if defined(ROCREF_ENABLE_MUTANTS)
extern const int rocref_abi_mutants_enabled;
__attribute__((weak, visibility("hidden"))) const int* rocref_abi_mutants_check = &rocref_abi_mutants_enabled;
#elif !defined(ROCREF_MUTANTS_NEUTRAL)
extern const int rocref_abi_mutants_disabled;
__attribute__((weak, visibility("hidden"))) const int* rocref_abi_mutants_check = &rocref_abi_mutants_disabled;
#endif
extern const int rocref_mutant_switchboard;
}
