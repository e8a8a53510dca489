// common/mutant.cpp - the switchboard for planted bugs (see mutant.h).
#include "common/mutant.h"

namespace rocref {

std::string_view mutant_name(Mutant m) noexcept {
  switch (m) {
    case Mutant::RelaxedHeaderStore: return "relaxed-header-store";
    case Mutant::DoorbellBeforeHeader: return "doorbell-before-header";
    case Mutant::HeaderResetAfterReadIndex: return "header-reset-after-read-index";
    case Mutant::SkipFullCheck: return "skip-full-check";
    case Mutant::NonAtomicSignalDecrement: return "non-atomic-signal-decrement";
    case Mutant::VendorTypeAcceptedAsValid: return "vendor-type-accepted-as-valid";
    case Mutant::DoorbellOverAdvance: return "doorbell-over-advance";
    case Mutant::CasWakesOnFailure: return "cas-wakes-on-failure";
    case Mutant::IgnoreBarrierBit: return "ignore-barrier-bit";
    case Mutant::BarrierOrNeedsAll: return "barrier-or-needs-all";
    case Mutant::InvalidHeaderConsumed: return "invalid-header-consumed";
    case Mutant::BarrierPacketDoesNotBlock: return "barrier-packet-does-not-block";
    case Mutant::BarrierValueIgnoresCondition: return "barrier-value-ignores-condition";
    case Mutant::MisalignedSignalUsed: return "misaligned-signal-used";
    case Mutant::ReadIndexTranslatedOnce: return "read-index-translated-once";
    case Mutant::CompletionBeforeWork: return "completion-before-work";
    case Mutant::SystemReleaseSkipsL2WriteBack: return "system-release-skips-l2-write-back";
    case Mutant::SystemAcquireKeepsL2Lines: return "system-acquire-keeps-l2-lines";
    case Mutant::BypassingEngineSkipsL2WriteBack: return "bypassing-engine-skips-l2-write-back";
    case Mutant::IdleReaderPollsSlot: return "idle-reader-polls-slot";
    case Mutant::RoomLimitPastRing: return "room-limit-past-ring";
    case Mutant::KernelLookupByObject: return "kernel-lookup-by-object";
    case Mutant::BlitKernelRawAddresses: return "blit-kernel-raw-addresses";
    case Mutant::kCount: break;
  }
  return "unknown";
}

#ifdef ROCREF_ENABLE_MUTANTS
namespace {
MutantSwitchboard<Mutant> g_switches;
}

bool mutant_active(Mutant m) noexcept { return g_switches.active(m); }

void set_mutant(Mutant m, bool on) noexcept { g_switches.set(m, on); }
#endif

}  // namespace rocref

// The link-time guard of mutant.h: this configuration's symbol, and one both define.
extern "C" {
#ifdef ROCREF_ENABLE_MUTANTS
const int rocref_abi_mutants_enabled = 1;
#else
const int rocref_abi_mutants_disabled = 0;
#endif
const int rocref_mutant_switchboard = 0;
}
