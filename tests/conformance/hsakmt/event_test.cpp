// tests/conformance/hsakmt/event_test.cpp - CreateEvent / Set / Reset / WaitOn* / DestroyEvent.
#include <chrono>
#include <thread>

#include "hsakmt_fixture.h"

namespace hsakmt_conformance {
namespace {

using Hsakmt_Event = Hsakmt;

TEST_F(Hsakmt_Event, SignalEventHasAMailboxSlot) {
  HsaEvent* e = make_event();
  ASSERT_NE(e, nullptr);
  EXPECT_EQ(e->EventData.EventType, HSA_EVENTTYPE_SIGNAL);
  const HSAuint64 id = e->EventData.HWData1, slot = e->EventData.HWData2;  // packed: copy first
  EXPECT_EQ(id, e->EventId);
  EXPECT_NE(slot, 0u) << "the event page slot GPUs write the event id to";
}

TEST_F(Hsakmt_Event, BadTypeReturnsInvalidParameter) {
  HsaEventDescriptor d{};
  d.EventType = HSA_EVENTTYPE_MAXID;
  HsaEvent* e = nullptr;
  EXPECT_EQ(hsaKmtCreateEvent(&d, false, false, &e), HSAKMT_STATUS_INVALID_PARAMETER);
  EXPECT_EQ(e, nullptr);
}

TEST_F(Hsakmt_Event, NullDescriptorOrOutReturnsInvalidParameter) {
  ROCREF_ONLY("reads the descriptor unchecked");
  HsaEvent* e = nullptr;
  EXPECT_EQ(hsaKmtCreateEvent(nullptr, false, false, &e), HSAKMT_STATUS_INVALID_PARAMETER);
  HsaEventDescriptor d{};
  d.EventType = HSA_EVENTTYPE_SIGNAL;
  EXPECT_EQ(hsaKmtCreateEvent(&d, false, false, nullptr), HSAKMT_STATUS_INVALID_PARAMETER);
}

TEST_F(Hsakmt_Event, UnsignaledWaitTimesOut) {
  HsaEvent* e = make_event();
  ASSERT_NE(e, nullptr);
  EXPECT_EQ(hsaKmtWaitOnEvent(e, 10), HSAKMT_STATUS_WAIT_TIMEOUT);
}

TEST_F(Hsakmt_Event, AutoResetEventIsConsumedByOneWait) {
  HsaEvent* e = make_event(false);
  ASSERT_NE(e, nullptr);
  ASSERT_EQ(hsaKmtSetEvent(e), HSAKMT_STATUS_SUCCESS);
  EXPECT_EQ(hsaKmtWaitOnEvent(e, 1000), HSAKMT_STATUS_SUCCESS);
  EXPECT_EQ(hsaKmtWaitOnEvent(e, 10), HSAKMT_STATUS_WAIT_TIMEOUT);
}

TEST_F(Hsakmt_Event, ManualResetEventStaysSignaledUntilReset) {
  HsaEvent* e = make_event(true);
  ASSERT_NE(e, nullptr);
  ASSERT_EQ(hsaKmtSetEvent(e), HSAKMT_STATUS_SUCCESS);
  EXPECT_EQ(hsaKmtWaitOnEvent(e, 1000), HSAKMT_STATUS_SUCCESS);
  EXPECT_EQ(hsaKmtWaitOnEvent(e, 1000), HSAKMT_STATUS_SUCCESS);
  ASSERT_EQ(hsaKmtResetEvent(e), HSAKMT_STATUS_SUCCESS);
  EXPECT_EQ(hsaKmtWaitOnEvent(e, 10), HSAKMT_STATUS_WAIT_TIMEOUT);
}

TEST_F(Hsakmt_Event, CreatedSignaledIsSignaled) {
  HsaEvent* e = make_event(false, true);
  ASSERT_NE(e, nullptr);
  EXPECT_EQ(hsaKmtWaitOnEvent(e, 1000), HSAKMT_STATUS_SUCCESS);
}

TEST_F(Hsakmt_Event, SetFromAnotherThreadWakesTheWaiter) {
  HsaEvent* e = make_event();
  ASSERT_NE(e, nullptr);
  std::thread setter([e] {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    EXPECT_EQ(hsaKmtSetEvent(e), HSAKMT_STATUS_SUCCESS);
  });
  EXPECT_EQ(hsaKmtWaitOnEvent(e, 10000), HSAKMT_STATUS_SUCCESS);
  setter.join();
}

TEST_F(Hsakmt_Event, WaitOnMultipleAnyAndAll) {
  HsaEvent* a = make_event(true);
  HsaEvent* b = make_event(true);
  ASSERT_TRUE(a && b);
  HsaEvent* both[] = {a, b};
  ASSERT_EQ(hsaKmtSetEvent(b), HSAKMT_STATUS_SUCCESS);
  EXPECT_EQ(hsaKmtWaitOnMultipleEvents(both, 2, false, 1000), HSAKMT_STATUS_SUCCESS);
  EXPECT_EQ(hsaKmtWaitOnMultipleEvents(both, 2, true, 10), HSAKMT_STATUS_WAIT_TIMEOUT);
  ASSERT_EQ(hsaKmtSetEvent(a), HSAKMT_STATUS_SUCCESS);
  EXPECT_EQ(hsaKmtWaitOnMultipleEvents(both, 2, true, 1000), HSAKMT_STATUS_SUCCESS);
}

TEST_F(Hsakmt_Event, NullHandlesReturnInvalidHandle) {
  EXPECT_EQ(hsaKmtWaitOnEvent(nullptr, 0), HSAKMT_STATUS_INVALID_HANDLE);
  EXPECT_EQ(hsaKmtWaitOnMultipleEvents(nullptr, 1, true, 0), HSAKMT_STATUS_INVALID_HANDLE);
  EXPECT_EQ(hsaKmtSetEvent(nullptr), HSAKMT_STATUS_INVALID_HANDLE);
  EXPECT_EQ(hsaKmtResetEvent(nullptr), HSAKMT_STATUS_INVALID_HANDLE);
  EXPECT_EQ(hsaKmtDestroyEvent(nullptr), HSAKMT_STATUS_INVALID_HANDLE);
}

// Waiting on a destroyed event fails: the driver no longer knows its id (real libhsakmt:
// ERROR from the driver's EINVAL) or the thunk no longer knows the handle (rocref: INVALID_HANDLE).
TEST_F(Hsakmt_Event, WaitOnDestroyedEventFails) {
  HsaEventDescriptor d{};
  d.EventType = HSA_EVENTTYPE_SIGNAL;
  HsaEvent* e = nullptr;
  ASSERT_EQ(hsaKmtCreateEvent(&d, false, false, &e), HSAKMT_STATUS_SUCCESS);
  HsaEvent stale = *e;  // the caller's copy outlives the event
  ASSERT_EQ(hsaKmtDestroyEvent(e), HSAKMT_STATUS_SUCCESS);
#if defined(ROCREF_HSAKMT_IMPL_SYSTEM)
  EXPECT_EQ(hsaKmtWaitOnEvent(&stale, 10), HSAKMT_STATUS_ERROR);
  EXPECT_EQ(hsaKmtSetEvent(&stale), HSAKMT_STATUS_ERROR);
#else
  EXPECT_EQ(hsaKmtWaitOnEvent(&stale, 10), HSAKMT_STATUS_INVALID_HANDLE);
  EXPECT_EQ(hsaKmtSetEvent(&stale), HSAKMT_STATUS_INVALID_HANDLE);
  EXPECT_EQ(hsaKmtDestroyEvent(e), HSAKMT_STATUS_INVALID_HANDLE) << "double destroy";
#endif
}

// EVT-AGE-1 (on the driver's KFD-EVT-6): a wait that passes the age it last saw returns at once
// if the event fired since.
TEST_F(Hsakmt_Event, WaitExtWithStaleAgeDoesNotLoseAWakeUp) {
  if (!hsaKmtWaitOnEvent_Ext) GTEST_SKIP() << "hsaKmtWaitOnEvent_Ext is newer than this library";
  HsaEvent* e = make_event(false);
  ASSERT_NE(e, nullptr);
  uint64_t age = 1;  // as ROCR starts: 0 would switch age tracking off
  ASSERT_EQ(hsaKmtSetEvent(e), HSAKMT_STATUS_SUCCESS);
  ASSERT_EQ(hsaKmtWaitOnEvent_Ext(e, 1000, &age), HSAKMT_STATUS_SUCCESS);
  EXPECT_GT(age, 1u) << "the wait reports the age it observed";
  EXPECT_EQ(hsaKmtWaitOnEvent_Ext(e, 10, &age), HSAKMT_STATUS_WAIT_TIMEOUT);
  ASSERT_EQ(hsaKmtSetEvent(e), HSAKMT_STATUS_SUCCESS);
  EXPECT_EQ(hsaKmtWaitOnEvent_Ext(e, 1000, &age), HSAKMT_STATUS_SUCCESS);
  HsaEvent* list[] = {e};
  uint64_t ages[] = {age};
  EXPECT_EQ(hsaKmtWaitOnMultipleEvents_Ext(list, 1, true, 10, ages), HSAKMT_STATUS_WAIT_TIMEOUT);
}

}  // namespace
}  // namespace hsakmt_conformance
