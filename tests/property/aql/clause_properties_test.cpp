// tests/property/aql/clause_properties_test.cpp - barrier, error and signal properties of
// spec/aql-queue.md on the real packet processor and signals.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include "properties.h"
#include "world.h"

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

// Once every producer is done, the processor alone retires each packet in at most 4 of its
// steps (launch, header reset, read advance, completion): no step of it is wasted waiting.
RC_GTEST_PROP(AqlProperty, AQL_RET_3_ProcessorRetiresRungPacketsWithinFourStepsEach, ()) {
  const uint32_t size = *rc::gen::element<uint32_t>(2, 4, 8, 16);
  const uint64_t n = *rc::gen::inRange<uint64_t>(1, size + 1);
  World world(WorldOptions{size, *rc::gen::element<uint64_t>(0, 0 - uint64_t{16}), n});
  TestSignal done(static_cast<int64_t>(n));
  for (uint64_t m = 0; m < n; ++m) {
    const auto p = world.dispatch(m, *rc::gen::arbitrary<bool>(), done.handle());
    world.ring().submit(&p);
  }
  uint64_t steps = 0;
  while (done.value() != 0 && steps <= 4 * n) {
    RC_ASSERT(world.processor().step().action != gpu::ProcessorAction::None);
    ++steps;
  }
  RC_ASSERT(done.value() == 0);
  RC_ASSERT(steps <= 4 * n);
  RC_ASSERT(world.kernel_log().size() == n);
}

}  // namespace
}  // namespace rocref::prop
