// tests/unit/kfd/hw_scheduler_test.cpp - slot mapping, priorities, oversubscription, preemption (KFD-HWS-*).
#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <vector>

#include "gpu/adversary.h"
#include "kfd/hw_scheduler.h"

namespace rocref::kfd {
namespace {

// A queue with `work` units left; every step does one. It records the scheduler's map and
// unmap calls and whether it was ever stepped off its slot.
struct FakeQueue : HwQueue {
  FakeQueue(uint32_t prio, int w, uint32_t proc = 0) : prio_(prio), work(w), proc_(proc) {}
  uint32_t priority() const noexcept override { return prio_; }
  uint32_t process() const noexcept override { return proc_; }
  bool runnable() noexcept override { return work > 0; }
  bool step() noexcept override {
    if (!on_slot) stepped_off_slot = true;
    if (work <= 0) return false;
    --work;
    ++done;
    return true;
  }
  void map() noexcept override {
    if (on_slot) double_map = true;
    on_slot = true;
    ++mapped_calls;
  }
  void unmap() noexcept override {
    if (!on_slot) double_unmap = true;
    on_slot = false;
    ++unmapped_calls;
  }
  uint32_t prio_;
  int work;
  uint32_t proc_;
  int done = 0;
  bool on_slot = false;
  bool stepped_off_slot = false, double_map = false, double_unmap = false;
  int mapped_calls = 0, unmapped_calls = 0;
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

// KFD-HWS-5: the queue that leaves the slot is preempted (unmap) before the one that enters is
// mapped; a queue that keeps its slot is neither; a queue is only ever stepped while mapped.
TEST(HwScheduler, KFD_HWS_5_LeavingQueuesAreUnmappedAndEnteringOnesMapped) {
  HwScheduler s(1, 1, 2);
  FakeQueue a(5, 4), b(5, 4);
  s.add(&a);
  s.add(&b);
  s.run_slice();
  EXPECT_TRUE(a.on_slot);
  EXPECT_FALSE(b.on_slot);
  EXPECT_EQ(a.done, 2);
  s.run_slice();  // oversubscribed: a leaves, b enters
  EXPECT_FALSE(a.on_slot);
  EXPECT_TRUE(b.on_slot);
  EXPECT_EQ(a.unmapped_calls, 1);
  EXPECT_EQ(b.mapped_calls, 1);
  EXPECT_EQ(a.unmaps, 1u);
  EXPECT_EQ(b.maps, 1u);
  s.run_slice();
  s.run_slice();  // a finishes, b finishes; both idle now
  EXPECT_EQ(a.done, 4);
  EXPECT_EQ(b.done, 4);
  s.run_slice();  // nothing runnable: the last mapped queue is unmapped too
  EXPECT_TRUE(s.mapped().empty());
  EXPECT_FALSE(a.on_slot || b.on_slot);
  for (FakeQueue* q : {&a, &b}) {
    EXPECT_FALSE(q->stepped_off_slot);
    EXPECT_FALSE(q->double_map);
    EXPECT_FALSE(q->double_unmap);
  }
  // A queue alone on the scheduler keeps its slot from slice to slice: mapped once.
  HwScheduler t(1, 1, 1);
  FakeQueue c(5, 5);
  t.add(&c);
  for (int i = 0; i < 5; ++i) t.run_slice();
  EXPECT_EQ(c.mapped_calls, 1);
  EXPECT_EQ(c.unmapped_calls, 0);
}

// KFD-HWS-5: unmap_now preempts a mapped queue at once (eviction) and it is not stepped again
// until a later slice maps it.
TEST(HwScheduler, KFD_HWS_5_UnmapNowPreemptsAMappedQueue) {
  HwScheduler s(1, 2, 1);
  FakeQueue a(5, 10);
  s.add(&a);
  s.run_slice();
  ASSERT_TRUE(a.on_slot);
  s.unmap_now(&a);
  EXPECT_FALSE(a.on_slot);
  EXPECT_TRUE(s.mapped().empty());
  s.unmap_now(&a);  // not mapped: nothing happens
  EXPECT_EQ(a.unmapped_calls, 1);
  s.run_slice();
  EXPECT_TRUE(a.on_slot);
  EXPECT_EQ(a.mapped_calls, 2);
  EXPECT_FALSE(a.stepped_off_slot);
}

// KFD-HWS-3: more runnable queues than slots, or queues of more processes than
// max_proc_per_quantum, is an over-subscribed runlist; at most that many processes are mapped.
TEST(HwScheduler, KFD_HWS_3_OversubscriptionByQueuesOrByProcesses) {
  HwScheduler s(1, 4, 1, 2);
  FakeQueue p0a(5, 100, 10), p0b(5, 100, 10), p1(5, 100, 11);
  for (HwQueue* q : std::initializer_list<HwQueue*>{&p0a, &p0b, &p1}) s.add(q);
  s.run_slice();
  EXPECT_EQ(s.mapped().size(), 3u);
  EXPECT_FALSE(s.oversubscribed()) << "3 queues of 2 processes on 4 slots";
  FakeQueue p2(5, 100, 12);
  s.add(&p2);
  for (int slice = 0; slice < 6; ++slice) {
    s.run_slice();
    EXPECT_TRUE(s.oversubscribed()) << "a third process";
    std::vector<uint32_t> procs;
    for (HwQueue* q : s.mapped()) procs.push_back(q->process());
    std::sort(procs.begin(), procs.end());
    procs.erase(std::unique(procs.begin(), procs.end()), procs.end());
    EXPECT_LE(procs.size(), 2u) << slice;
  }
  EXPECT_GT(p2.done, 0) << "the process left out rotates in";
  FakeQueue more[3] = {FakeQueue(5, 100, 10), FakeQueue(5, 100, 10), FakeQueue(5, 100, 10)};
  HwScheduler t(1, 2, 1);
  for (FakeQueue& q : more) t.add(&q);
  t.run_slice();
  EXPECT_TRUE(t.oversubscribed()) << "3 queues on 2 slots";
}

// KFD-HWS-4: with N queues on S slots, a queue that stays runnable at the top priority is
// mapped within ceil(N / S) slices: here 7 queues on 3 slots, every queue within 3.
TEST(HwScheduler, KFD_HWS_4_EveryRunnableQueueIsMappedWithinTheBound) {
  HwScheduler s(1, 3, 1);
  std::vector<std::unique_ptr<FakeQueue>> qs;
  for (int i = 0; i < 7; ++i) {
    qs.push_back(std::make_unique<FakeQueue>(9, 1000));
    s.add(qs.back().get());
  }
  std::vector<int> waited(qs.size(), 0);
  for (int slice = 0; slice < 30; ++slice) {
    s.run_slice();
    for (size_t i = 0; i < qs.size(); ++i) {
      waited[i] = qs[i]->on_slot ? 0 : waited[i] + 1;
      EXPECT_LT(waited[i], 3) << "queue " << i << " slice " << slice;
    }
  }
}

// KFD-HWS-7: on the adversarial GPU the seed picks each slice's length in [1, quantum]: the
// same seed gives the same preemption points, another seed others.
std::vector<int> slice_lengths(uint64_t seed) {
  gpu::adversary::enable(seed);
  HwScheduler s(1, 1, 8);
  FakeQueue a(5, 1 << 20), b(5, 1 << 20);
  s.add(&a);
  s.add(&b);
  std::vector<int> lengths;
  for (int slice = 0; slice < 24; ++slice) {
    const int before = a.done + b.done;
    s.run_slice();
    lengths.push_back(a.done + b.done - before);
  }
  gpu::adversary::disable();
  return lengths;
}

TEST(HwScheduler, KFD_HWS_7_AdversarialSeedPicksTheSliceLengths) {
  const std::vector<int> x = slice_lengths(7), y = slice_lengths(7), z = slice_lengths(8);
  EXPECT_EQ(x, y);
  EXPECT_NE(x, z);
  for (int n : x) {
    EXPECT_GE(n, 1);
    EXPECT_LE(n, 8);
  }
  EXPECT_NE(std::count(x.begin(), x.end(), 8), static_cast<std::ptrdiff_t>(x.size())) << "not the fixed quantum";
  // Off, every slice is the quantum.
  HwScheduler s(1, 1, 8);
  FakeQueue a(5, 100);
  s.add(&a);
  s.run_slice();
  EXPECT_EQ(a.done, 8);
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
