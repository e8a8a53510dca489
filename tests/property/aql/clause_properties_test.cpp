// tests/property/aql/clause_properties_test.cpp - barrier, error and signal properties of
// spec/aql-queue.md on the real packet processor and signals.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include "properties.h"

namespace rocref::prop {
namespace {

RC_GTEST_PROP(AqlProperty, AQL_BAR_2_BarrierAndCompletesOnlyWhenEveryDependencyIsZero, ()) { property_barrier_and(); }
RC_GTEST_PROP(AqlProperty, AQL_BAR_3_BarrierOrCompletesWhenAnyDependencyIsZero, ()) { property_barrier_or(); }
RC_GTEST_PROP(AqlProperty, AQL_BAR_4_BarrierValueCompletesOnlyWhenConditionHolds, ()) { property_barrier_value(); }
RC_GTEST_PROP(AqlProperty, AQL_ERR_1_MalformedPacketReportsInvalidPacketFormat, ()) { property_malformed_packet(); }
RC_GTEST_PROP(AqlProperty, AQL_ERR_2_NothingLaunchesAfterError, ()) { property_error_stops_queue(); }
RC_GTEST_PROP(AqlProperty, AQL_ERR_3_OtherQueuesUnaffectedByError, ()) { property_other_queues_unaffected(); }
RC_GTEST_PROP(AqlProperty, AQL_INV_2_UnknownVendorPacketIsNeverLaunched, ()) { property_unknown_vendor_packet(); }
RC_GTEST_PROP(AqlProperty, AQL_SIG_1_SignalArithmeticMatchesSequentialModel, ()) { property_signal_arithmetic(); }
RC_GTEST_PROP(AqlProperty, AQL_SIG_3_MailboxAndInterruptFollowDecrement, ()) { property_mailbox_interrupt(); }
RC_GTEST_PROP(AqlProperty, AQL_SIG_4_WaitReturnsOnceConditionHolds, ()) { property_signal_wait(); }
RC_GTEST_PROP(AqlProperty, AQL_SIG_5_FailedCasChangesNothingAndWakesNoWaiter, ()) { property_failed_cas(); }

}  // namespace
}  // namespace rocref::prop
