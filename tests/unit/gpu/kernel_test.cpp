// tests/unit/gpu/kernel_test.cpp - kernels on the GPU model: ids, shared memory, __syncthreads on fibers.
#include <gtest/gtest.h>

#include <atomic>
#include <cfenv>
#include <cmath>
#include <numeric>
#include <stdexcept>
#include <vector>

#include "gpu/kernel_executor.h"
#include "gpu/packet_processor.h"
#include "gpu/work_group_fibers.h"
#include "queue_fixture.h"

namespace rocref::gpu {
namespace {

using testing::dispatch_packet;
using testing::TestKernelObject;
using testing::TestQueue;
using testing::TestSignal;

// Tree reduction in shared memory, the classic __syncthreads kernel.
struct ReduceArgs {
  const int* in;
  int* out;  // one sum per work-group
};
void reduce_kernel(const void* kernarg) {
  const auto* a = static_cast<const ReduceArgs*>(kernarg);
  const auto& ctx = kernel_abi::current();
  int* shared = static_cast<int*>(ctx.group_segment);
  const uint32_t t = ctx.work_item_id.x;
  const uint32_t n = ctx.work_group_size.x;
  shared[t] = a->in[ctx.work_group_id.x * n + t];
  kernel_abi::work_group_barrier();
  for (uint32_t stride = n / 2; stride > 0; stride /= 2) {
    if (t < stride) shared[t] += shared[t + stride];
    kernel_abi::work_group_barrier();
  }
  if (t == 0) a->out[ctx.work_group_id.x] = shared[0];
}

// Records every work-item's coordinates; checks shared memory starts zeroed.
struct IdArgs {
  std::vector<uint32_t>* seen;  // flat global id -> count
  uint32_t grid_x, grid_y;
  std::atomic<int>* dirty_shared;
};
void id_kernel(const void* kernarg) {
  const auto* a = static_cast<const IdArgs*>(kernarg);
  const auto& c = kernel_abi::current();
  const uint32_t gx = c.work_group_id.x * c.work_group_size.x + c.work_item_id.x;
  const uint32_t gy = c.work_group_id.y * c.work_group_size.y + c.work_item_id.y;
  const uint32_t gz = c.work_group_id.z * c.work_group_size.z + c.work_item_id.z;
  (*a->seen)[(gz * a->grid_y + gy) * a->grid_x + gx] += 1;
  auto* shared = static_cast<uint8_t*>(c.group_segment);
  kernel_abi::work_group_barrier();
  if (c.work_item_id.x == 0 && c.work_item_id.y == 0 && c.work_item_id.z == 0) {
    for (uint32_t i = 0; i < c.group_segment_size; ++i) {
      if (shared[i] != 0) a->dirty_shared->fetch_add(1);
    }
  }
  kernel_abi::work_group_barrier();
  if (shared != nullptr) std::memset(shared, 0xAB, c.group_segment_size);  // the next work-group must not see this
}

// Work-items that finish early must not hold the barrier of the others.
struct EarlyArgs {
  std::atomic<int>* after_barrier;
};
void early_exit_kernel(const void* kernarg) {
  const auto* a = static_cast<const EarlyArgs*>(kernarg);
  if (kernel_abi::current().work_item_id.x % 2 == 0) return;
  kernel_abi::work_group_barrier();
  kernel_abi::work_group_barrier();
  a->after_barrier->fetch_add(1);
}

uint64_t id_of(const char* name, kernel_abi::KernelEntry entry) { return kernel_abi::register_kernel(name, entry); }

class KernelTest : public ::testing::Test {
 protected:
  QueueBinding binding() {
    QueueBinding b;
    b.queue = &q.queue;
    b.memory = &memory;
    b.on_error = [this](hsa_status_t s, uint64_t) { status = s; };
    return b;
  }
  TestQueue q;
  FlatMemory memory;
  hsa_status_t status = HSA_STATUS_SUCCESS;
};

TEST_F(KernelTest, WorkGroupReductionWithSyncthreadsAndSharedMemory) {
  static const uint64_t id = id_of("reduce", &reduce_kernel);
  constexpr uint32_t kGroups = 4, kGroupSize = 256;
  std::vector<int> in(kGroups * kGroupSize);
  std::iota(in.begin(), in.end(), 1);
  std::vector<int> out(kGroups, -1);
  ReduceArgs args{in.data(), out.data()};
  TestKernelObject object(id, 0, sizeof args);
  auto packet = dispatch_packet(object.address(), hsa_signal_t{0}, kGroups * kGroupSize, kGroupSize, &args);
  packet.group_segment_size = kGroupSize * sizeof(int);
  PacketProcessor p(binding());
  q.submit(packet);
  p.drain();
  ASSERT_FALSE(p.in_error()) << p.last_error()->what;
  for (uint32_t g = 0; g < kGroups; ++g) {
    const int first = static_cast<int>(g * kGroupSize + 1), last = static_cast<int>((g + 1) * kGroupSize);
    EXPECT_EQ(out[g], (first + last) * static_cast<int>(kGroupSize) / 2) << g;
  }
}

TEST_F(KernelTest, ThreeDimensionalGridWithPartialWorkGroupsRunsEachWorkItemOnce) {
  static const uint64_t id = id_of("ids", &id_kernel);
  const uint32_t gx = 10, gy = 5, gz = 3;
  std::vector<uint32_t> seen(gx * gy * gz, 0);
  std::atomic<int> dirty{0};
  IdArgs args{&seen, gx, gy, &dirty};
  TestKernelObject object(id, /*group_fixed=*/16, sizeof args);
  hsa_kernel_dispatch_packet_t packet = dispatch_packet(object.address(), hsa_signal_t{0}, gx, 4, &args);
  packet.setup = 3;
  packet.workgroup_size_y = 2;
  packet.workgroup_size_z = 2;
  packet.grid_size_y = gy;
  packet.grid_size_z = gz;
  packet.group_segment_size = 48;
  PacketProcessor p(binding());
  q.submit(packet);
  p.drain();
  ASSERT_FALSE(p.in_error()) << p.last_error()->what;
  for (uint32_t i = 0; i < seen.size(); ++i) EXPECT_EQ(seen[i], 1u) << i;
  EXPECT_EQ(dirty.load(), 0);
}

TEST_F(KernelTest, SetupLimitsTheDimensionsUsed) {
  static const uint64_t id = id_of("ids-1d", &id_kernel);
  std::vector<uint32_t> seen(7, 0);
  std::atomic<int> dirty{0};
  IdArgs args{&seen, 7, 1, &dirty};
  TestKernelObject object(id, 0, sizeof args);
  auto packet = dispatch_packet(object.address(), hsa_signal_t{0}, 7, 3, &args);
  packet.grid_size_y = 9;  // ignored: setup says one dimension
  packet.workgroup_size_z = 5;
  PacketProcessor p(binding());
  q.submit(packet);
  p.drain();
  ASSERT_FALSE(p.in_error());
  for (uint32_t v : seen) EXPECT_EQ(v, 1u);
}

TEST_F(KernelTest, FinishedWorkItemsDoNotHoldTheBarrier) {
  static const uint64_t id = id_of("early", &early_exit_kernel);
  std::atomic<int> after{0};
  EarlyArgs args{&after};
  TestKernelObject object(id, 0, sizeof args);
  PacketProcessor p(binding());
  q.submit(dispatch_packet(object.address(), hsa_signal_t{0}, 64, 64, &args));
  p.drain();
  EXPECT_FALSE(p.in_error());
  EXPECT_EQ(after.load(), 32);
}

TEST(WorkGroupFibers, BarrierInterleavesWorkItemsAndStacksAreReused) {
  static std::vector<int> order;
  order.clear();
  WorkGroupFibers fibers;
  std::vector<kernel_abi::WorkItemContext> items(3);
  for (uint32_t i = 0; i < 3; ++i) items[i].work_item_id.x = i;
  auto entry = [](const void*) {
    const int t = static_cast<int>(kernel_abi::current().work_item_id.x);
    order.push_back(t);
    kernel_abi::work_group_barrier();
    order.push_back(10 + t);
  };
  for (int run = 0; run < 3; ++run) {
    order.clear();
    EXPECT_FALSE(fibers.run(entry, nullptr, items).has_value());
    EXPECT_EQ(order, (std::vector<int>{0, 1, 2, 10, 11, 12}));
  }
  EXPECT_EQ(&kernel_abi::current(), &kernel_abi::current());  // no dangling work-item after the run
  EXPECT_EQ(kernel_abi::current().work_item_id.x, 1u);         // the empty context's default
  EXPECT_THROW(kernel_abi::work_group_barrier(), std::logic_error);
}

TEST(WorkGroupFibers, ThrowingWorkItemIsReportedAndOthersFinish) {
  static std::atomic<int> finished{0};
  finished = 0;
  WorkGroupFibers fibers;
  std::vector<kernel_abi::WorkItemContext> items(4);
  for (uint32_t i = 0; i < 4; ++i) items[i].work_item_id.x = i;
  auto entry = [](const void*) {
    if (kernel_abi::current().work_item_id.x == 1) throw std::runtime_error("boom");
    kernel_abi::work_group_barrier();
    finished.fetch_add(1);
  };
  auto failure = fibers.run(entry, nullptr, items);
  ASSERT_TRUE(failure.has_value());
  EXPECT_NE(failure->find("boom"), std::string::npos);
  EXPECT_EQ(finished.load(), 3);
  // The runner is reusable after a failure.
  EXPECT_FALSE(fibers.run([](const void*) {}, nullptr, items).has_value());
}

TEST(WorkGroupFibers, EachWorkItemKeepsItsOwnFloatingPointModeAcrossSwitches) {
  static std::atomic<int> wrong{0};
  wrong = 0;
  WorkGroupFibers fibers;
  std::vector<kernel_abi::WorkItemContext> items(4);
  for (uint32_t i = 0; i < 4; ++i) items[i].work_item_id.x = i;
  auto entry = [](const void*) {
    const bool up = kernel_abi::current().work_item_id.x % 2 == 0;
    if (fegetround() != FE_TONEAREST) wrong.fetch_add(1);  // a fresh work-item starts in the default mode
    if (up) fesetround(FE_UPWARD);
    volatile double third = 1.0;
    for (int k = 0; k < 3; ++k) {
      kernel_abi::work_group_barrier();
      if (fegetround() != (up ? FE_UPWARD : FE_TONEAREST)) wrong.fetch_add(1);
      third = 1.0 / 3.0;
    }
    (void)third;
  };
  EXPECT_FALSE(fibers.run(entry, nullptr, items).has_value());
  EXPECT_EQ(wrong.load(), 0);
  EXPECT_EQ(fegetround(), FE_TONEAREST);  // the caller's mode is untouched
}

TEST(WorkGroupFibers, DeepStacksAndManyWorkItems) {
  static std::atomic<uint64_t> sum{0};
  sum = 0;
  WorkGroupFibers fibers;
#if defined(__SANITIZE_THREAD__) || defined(__SANITIZE_ADDRESS__)
  constexpr uint32_t kItems = 256;  // each TSan fiber costs milliseconds to create
#else
  constexpr uint32_t kItems = 1024;
#endif
  std::vector<kernel_abi::WorkItemContext> items(kItems);
  for (uint32_t i = 0; i < items.size(); ++i) items[i].work_item_id.x = i;
  auto entry = [](const void*) {
    volatile char frame[16 * 1024];  // a large frame on every fiber's stack
    frame[0] = 1;
    frame[sizeof frame - 1] = 1;
    kernel_abi::work_group_barrier();
    sum.fetch_add(kernel_abi::current().work_item_id.x + frame[0] + frame[sizeof frame - 1] - 2);
  };
  EXPECT_FALSE(fibers.run(entry, nullptr, items).has_value());
  EXPECT_EQ(sum.load(), uint64_t{kItems} * (kItems - 1) / 2);
}

TEST(WorkGroupFibers, SingleWorkItemRunsWithoutFibers) {
  WorkGroupFibers fibers;
  std::vector<kernel_abi::WorkItemContext> items(1);
  static int calls = 0;
  calls = 0;
  EXPECT_FALSE(fibers.run([](const void*) {
                      kernel_abi::work_group_barrier();
                      ++calls;
                    },
                    nullptr, items)
                   .has_value());
  EXPECT_EQ(calls, 1);
  EXPECT_EQ(fibers.switches(), 0u);
}

}  // namespace
}  // namespace rocref::gpu
