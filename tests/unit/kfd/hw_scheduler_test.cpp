// tests/unit/kfd/hw_scheduler_test.cpp - slot mapping, priorities and oversubscription (KFD-HWS-*).
#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <vector>

#include "kfd/hw_scheduler.h"

namespace rocref::kfd {
namespace {

// A queue with `work` units left; every step does one.
struct FakeQueue : HwQueue {
  FakeQueue(uint32_t prio, int w) : prio_(prio), work(w) {}
  uint32_t priority() const noexcept override { return prio_; }
  bool runnable() noexcept override { return work > 0; }
  bool step() noexcept override {
    if (work <= 0) return false;
    --work;
    ++done;
    return true;
  }
  uint32_t prio_;
  int work;
  int done = 0;
};

TEST(HwScheduler, KFD_HWS_1_NeverMapsMoreQueuesThanSlots) {
  HwScheduler s(2, 2, 1);
  std::vector<std::unique_ptr<FakeQueue>> qs;
  for (int i = 0; i < 7; ++i) {
    qs.push_back(std::make_unique<FakeQueue>(5, 100));
    s.add(qs.back().get());
  }
  ASSERT_TRUE(s.run_slice());
  EXPECT_EQ(s.mapped().size(), 4u);
  int stepped = 0;
  for (auto& q : qs) stepped += q->done > 0;
  EXPECT_EQ(stepped, 4);
}

TEST(HwScheduler, KFD_HWS_3_OversubscriptionRotatesEveryQueueIn) {
  HwScheduler s(1, 2, 4);
  std::vector<std::unique_ptr<FakeQueue>> qs;
  for (int i = 0; i < 5; ++i) {
    qs.push_back(std::make_unique<FakeQueue>(7, 1000));
    s.add(qs.back().get());
  }
  for (int slice = 0; slice < 10; ++slice) s.run_slice();
  // 10 slices x 2 slots x 4 steps = 80 steps spread evenly: every queue got 16.
  for (auto& q : qs) EXPECT_EQ(q->done, 16);
}

TEST(HwScheduler, KFD_HWS_2_HigherPriorityIsNeverLeftOutForALowerOne) {
  HwScheduler s(1, 2, 1);
  FakeQueue low(1, 1000), high1(9, 3), high2(9, 3), mid(5, 1000);
  for (HwQueue* q : std::initializer_list<HwQueue*>{&low, &high1, &mid, &high2}) s.add(q);
  for (int slice = 0; slice < 3; ++slice) {
    s.run_slice();
    auto m = s.mapped();
    EXPECT_TRUE(std::find(m.begin(), m.end(), &high1) != m.end());
    EXPECT_TRUE(std::find(m.begin(), m.end(), &high2) != m.end());
  }
  EXPECT_EQ(low.done, 0);
  EXPECT_EQ(mid.done, 0);
  s.run_slice();  // the high queues are done: now the middle one and then the low one run
  EXPECT_EQ(mid.done, 1);
  EXPECT_EQ(low.done, 1);
}

TEST(HwScheduler, KFD_HWS_1_RemovedQueueIsNeverSteppedAgain) {
  HwScheduler s(1, 1, 8);
  FakeQueue a(5, 100), b(5, 100);
  s.add(&a);
  s.add(&b);
  s.run_slice();
  s.remove(&a);
  const int before = a.done;
  for (int i = 0; i < 5; ++i) s.run_slice();
  EXPECT_EQ(a.done, before);
  EXPECT_GT(b.done, 0);
}

TEST(HwScheduler, AfterSliceHookRunsEverySlice) {
  HwScheduler s(1, 1);
  int calls = 0;
  s.set_after_slice([&] { ++calls; });
  s.run_slice();
  s.run_slice();
  EXPECT_EQ(calls, 2);
}

}  // namespace
}  // namespace rocref::kfd
