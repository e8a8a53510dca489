// proofs/memory/publication.h - weak-memory checks of packet publication and of the engine wake-up.
#pragma once

#include <string>

#include "proofs/common/verdict.h"

namespace rocref::proofs {

// AQL-PUB-1 / AQL-PUB-3: producer writes the body, stores the header, stores the doorbell;
// processor reads the doorbell, then the header, then the body. Bad: a valid header with a stale body.
enum class PublicationVariant {
  ReleaseAcquire,        // release header store, acquire header load, SYSTEM scope: proved
  FenceThenRelaxedStore, // release fence, relaxed header store: proved (TSan still reports a race)
  RelaxedHeaderStore,    // mutant: counterexample
  RelaxedHeaderLoad,     // mutant: counterexample
  AgentScopeRelease,     // mutant: host producer releases at AGENT scope, the GPU never synchronises
  RecycledSlot,          // a reused slot: processor resets the header and releases read_index;
                         // the producer acquires read_index before writing: no stale or torn body
  RecycledSlotEarlyRelease, // mutant: read_index released before the processor read the body
};

// AQL-DB-4: a producer stores the doorbell then checks "sleeping"; the engine stores "sleeping"
// then re-checks the doorbell (store buffering). Bad: the engine sleeps and nobody wakes it.
enum class WakeVariant {
  ReleaseAcquireOnly,    // mutant: the lost wake-up
  SeqCstFences,          // src/common/engine_wake.cpp: seq_cst fence on both sides: proved
  FenceOnEngineOnly,     // mutant: one fence is not enough
  SingleWordRmw,         // both sides read-modify-write one word (doorbell count | sleeping bit): proved
};

std::string variant_name(PublicationVariant v);
std::string variant_name(WakeVariant v);
Verdict check_publication(PublicationVariant v);
Verdict check_wakeup(WakeVariant v);

}  // namespace rocref::proofs
