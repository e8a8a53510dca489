// tests/conformance/kfd/event_test.cpp - CREATE/DESTROY/SET/RESET_EVENT and WAIT_EVENTS (KFD-EVT-*).
#include <chrono>
#include <thread>

#include "kfd_fixture.h"

namespace kfdconf {
namespace {

struct EventTest : KfdTest {
  uint32_t signal(bool auto_reset) {
    kfd_ioctl_create_event_args a{};
    EXPECT_EQ(create_event(proc, KFD_IOC_EVENT_SIGNAL, auto_reset, &a), 0);
    return a.event_id;
  }
  uint32_t wait(std::vector<uint32_t> ids, bool all, uint32_t timeout, int* ret = nullptr) {
    std::vector<kfd_event_data> d(ids.size());
    for (size_t i = 0; i < ids.size(); ++i) d[i].event_id = ids[i];
    uint32_t result = 99;
    const int r = wait_events(proc, d, all, timeout, &result);
    if (ret) *ret = r;
    else EXPECT_EQ(r, 0);
    return result;
  }
  int set(uint32_t id) {
    kfd_ioctl_set_event_args a{id, 0};
    return io(AMDKFD_IOC_SET_EVENT, &a);
  }
  int reset(uint32_t id) {
    kfd_ioctl_reset_event_args a{id, 0};
    return io(AMDKFD_IOC_RESET_EVENT, &a);
  }
  int destroy(uint32_t id) {
    kfd_ioctl_destroy_event_args a{id, 0};
    return io(AMDKFD_IOC_DESTROY_EVENT, &a);
  }
};

TEST_F(EventTest, KFD_EVT_1_SignalEventsOwnSlotsOtherTypesDoNot) {
  kfd_ioctl_create_event_args s{}, m{};
  ASSERT_EQ(create_event(proc, KFD_IOC_EVENT_SIGNAL, true, &s), 0);
  EXPECT_LT(s.event_id, uint32_t(KFD_SIGNAL_EVENT_LIMIT));
  EXPECT_EQ(s.event_slot_index, s.event_id);
  EXPECT_EQ(s.event_trigger_data, s.event_id);
  ASSERT_EQ(create_event(proc, KFD_IOC_EVENT_MEMORY, false, &m), 0);
  EXPECT_GE(m.event_id, uint32_t(KFD_SIGNAL_EVENT_LIMIT));
  EXPECT_EQ(set(m.event_id), -EINVAL) << "only signal events are set from the CPU";
  EXPECT_EQ(destroy(s.event_id), 0);
  EXPECT_EQ(destroy(s.event_id), -EINVAL);
  EXPECT_EQ(destroy(m.event_id), 0);
  EXPECT_EQ(set(12345), -EINVAL);
  EXPECT_EQ(reset(12345), -EINVAL);
}

TEST_F(EventTest, KFD_EVT_1_UserEventPageRules) {
  uint64_t page = 0;
  ASSERT_EQ(proc.alloc(KFD_IOC_ALLOC_MEM_FLAGS_GTT | KFD_IOC_ALLOC_MEM_FLAGS_WRITABLE, 32768, reserve_va(32768), &page), 0);
  uint64_t vram = 0;
  ASSERT_EQ(proc.alloc(KFD_IOC_ALLOC_MEM_FLAGS_VRAM, 32768, reserve_va(32768), &vram), 0);
  kfd_ioctl_create_event_args a{};
  EXPECT_EQ(create_event(proc, KFD_IOC_EVENT_SIGNAL, false, &a, vram), -EINVAL) << "event page must be GTT";
  EXPECT_EQ(create_event(proc, KFD_IOC_EVENT_SIGNAL, false, &a, page + 77), -EINVAL) << "bad handle";
  ASSERT_EQ(create_event(proc, KFD_IOC_EVENT_SIGNAL, false, &a, page), 0);
  EXPECT_EQ(create_event(proc, KFD_IOC_EVENT_SIGNAL, false, &a, page), -EINVAL) << "page already set";
  EXPECT_EQ(proc.free(page), -EPERM) << "the event page cannot be freed";
  EXPECT_EQ(proc.free(vram), 0);
}

TEST_F(EventTest, KFD_EVT_2_SetThenWaitCompletes) {
  const uint32_t e = signal(false);
  EXPECT_EQ(wait({e}, false, 0), uint32_t(KFD_IOC_WAIT_RESULT_TIMEOUT));
  ASSERT_EQ(set(e), 0);
  EXPECT_EQ(wait({e}, false, 0), uint32_t(KFD_IOC_WAIT_RESULT_COMPLETE));
  EXPECT_EQ(wait({e}, false, 0), uint32_t(KFD_IOC_WAIT_RESULT_COMPLETE)) << "manual reset stays signaled";
  ASSERT_EQ(reset(e), 0);
  EXPECT_EQ(wait({e}, false, 0), uint32_t(KFD_IOC_WAIT_RESULT_TIMEOUT));
}

TEST_F(EventTest, KFD_EVT_3_AutoResetIsConsumedByOneWait) {
  const uint32_t e = signal(true);
  ASSERT_EQ(set(e), 0);
  EXPECT_EQ(wait({e}, false, 0), uint32_t(KFD_IOC_WAIT_RESULT_COMPLETE));
  EXPECT_EQ(wait({e}, false, 0), uint32_t(KFD_IOC_WAIT_RESULT_TIMEOUT));
}

TEST_F(EventTest, KFD_EVT_3_AnyVersusAll) {
  const uint32_t a = signal(false), b = signal(false);
  ASSERT_EQ(set(a), 0);
  EXPECT_EQ(wait({a, b}, false, 0), uint32_t(KFD_IOC_WAIT_RESULT_COMPLETE));
  EXPECT_EQ(wait({a, b}, true, 10), uint32_t(KFD_IOC_WAIT_RESULT_TIMEOUT));
  ASSERT_EQ(set(b), 0);
  EXPECT_EQ(wait({a, b}, true, 0), uint32_t(KFD_IOC_WAIT_RESULT_COMPLETE));
}

TEST_F(EventTest, KFD_EVT_4_SetFromAnotherThreadWakesAnInfiniteWait) {
  const uint32_t e = signal(true);
  std::thread setter([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    EXPECT_EQ(set(e), 0);
  });
  EXPECT_EQ(wait({e}, false, 0xffffffffu), uint32_t(KFD_IOC_WAIT_RESULT_COMPLETE));
  setter.join();
  EXPECT_EQ(wait({e}, false, 0), uint32_t(KFD_IOC_WAIT_RESULT_TIMEOUT)) << "consumed by the woken waiter";
}

TEST_F(EventTest, KFD_EVT_4_TimeoutIsHonoured) {
  const uint32_t e = signal(false);
  const auto t0 = std::chrono::steady_clock::now();
  EXPECT_EQ(wait({e}, false, 30), uint32_t(KFD_IOC_WAIT_RESULT_TIMEOUT));
  EXPECT_GE(std::chrono::steady_clock::now() - t0, std::chrono::milliseconds(30));
}

TEST_F(EventTest, KFD_EVT_5_WaitingOnDestroyedOrUnknownEvents) {
  const uint32_t e = signal(false);
  ASSERT_EQ(destroy(e), 0);
  int ret = 0;
  wait({e}, false, 0, &ret);
  EXPECT_EQ(ret, -EINVAL);
  kfd_ioctl_wait_events_args w{};
  w.num_events = 1;
  w.events_ptr = 0;
  EXPECT_EQ(io(AMDKFD_IOC_WAIT_EVENTS, &w), -EFAULT);
}

TEST_F(EventTest, KFD_EVT_5_DestroyWhileWaitingFailsTheWait) {
  const uint32_t e = signal(false);
  std::thread killer([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    EXPECT_EQ(destroy(e), 0);
  });
  EXPECT_EQ(wait({e}, false, 5000), uint32_t(KFD_IOC_WAIT_RESULT_FAIL));
  killer.join();
}

// KFD 1.14 event age: a waiter that saw age N learns of a set that happened before it called.
TEST_F(EventTest, KFD_EVT_6_EventAgeCatchesAnEarlierSet) {
  if (!kfdport::is_model()) GTEST_SKIP() << "event age needs KFD 1.14";
  const uint32_t e = signal(true);
  std::vector<kfd_event_data> d(1);
  d[0].event_id = e;
  uint64_t age = 1;  // the age a new event starts with
  std::memcpy(&d[0], &age, sizeof age);
  uint32_t result = 0;
  ASSERT_EQ(wait_events(proc, d, false, 0, &result), 0);
  EXPECT_EQ(result, uint32_t(KFD_IOC_WAIT_RESULT_TIMEOUT));
  std::memcpy(&age, &d[0], sizeof age);
  EXPECT_EQ(age, 1u);
  ASSERT_EQ(set(e), 0);
  ASSERT_EQ(reset(e), 0);  // the set is gone from `signaled`, but not from the age
  ASSERT_EQ(wait_events(proc, d, false, 0, &result), 0);
  EXPECT_EQ(result, uint32_t(KFD_IOC_WAIT_RESULT_COMPLETE));
  std::memcpy(&age, &d[0], sizeof age);
  EXPECT_EQ(age, 2u);
}

}  // namespace
}  // namespace kfdconf
