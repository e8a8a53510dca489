// tests/property/aql/properties.h - property bodies shared by the property tests and the mutant checks.
//
// Each function draws its inputs with RapidCheck (*rc::gen) and RC_ASSERTs its
// clause; call it inside RC_GTEST_PROP or rc::check. On failure the first
// broken check is also left in last_failure() so that a mutant check can assert
// which clause caught the mutant.
#pragma once

#include <string>

namespace rocref::prop {

std::string& last_failure();

void property_refinement();             // REFINE and every clause the lockstep runner checks
void property_barrier_and();            // AQL-BAR-2
void property_barrier_or();             // AQL-BAR-3
void property_barrier_value();          // AQL-BAR-4
void property_malformed_packet();       // AQL-ERR-1, AQL-FEN-2
void property_error_stops_queue();      // AQL-ERR-2
void property_other_queues_unaffected();  // AQL-ERR-3
void property_unknown_vendor_packet();  // AQL-INV-2
void property_signal_arithmetic();      // AQL-SIG-1
void property_mailbox_interrupt();      // AQL-SIG-3
void property_signal_wait();            // AQL-SIG-4
void property_failed_cas();             // AQL-SIG-5
void property_decrement_composes();     // AQL-SIG-2, with host updates between read and write (mutable builds)

}  // namespace rocref::prop
