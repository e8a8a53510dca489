// tests/unit/pm4/pm4_queue_test.cpp - a PM4 compute queue's ring: pointers, wrap-around, waits, errors.
#include <gtest/gtest.h>

#include <array>
#include <string>
#include <vector>

#include "pm4_ring.h"

namespace rocref::gpu::pm4 {
namespace {

TEST(Pm4Queue, PM4_Q_2_PacketsWrapAroundAndTheReadPointerIsTheDwordOffset) {
  Ring r(64);  // 16 dwords: the third 5-dword packet wraps
  std::array<uint32_t, 5> out{};
  for (uint32_t i = 0; i < 5; ++i) {
    r.submit(write_data(&out[i], 100 + i));
    EXPECT_EQ(r.drain(), 1u) << i;
    EXPECT_EQ(out[i], 100 + i) << i;
    EXPECT_EQ(r.rptr, (5 * (i + 1)) % 16) << "dwords consumed modulo the ring";
  }
  EXPECT_EQ(r.queue->consumed(), 25u);
  EXPECT_TRUE(r.errors.empty());
}

TEST(Pm4Queue, PM4_Q_2_IncompletePacketWaitsAndConsumesNothing) {
  Ring r(256);
  std::array<uint32_t, 1> out{};
  const auto pkt = write_data(&out[0], 7);
  r.put(pkt);
  r.doorbell = 3;  // three of five dwords published
  EXPECT_EQ(r.queue->step(), Pm4QueueAction::None);
  EXPECT_EQ(r.rptr, 0u);
  EXPECT_EQ(out[0], 0u);
  r.doorbell = 5;
  EXPECT_EQ(r.drain(), 1u);
  EXPECT_EQ(out[0], 7u);
}

TEST(Pm4Queue, PM4_Q_2_ReleaseMemWritesTheFenceThenInterrupts) {
  Ring r(256);
  alignas(8) uint64_t fence = 0;
  r.submit(release_mem(&fence, 0x1122334455667788ull, 42));
  EXPECT_EQ(r.drain(), 1u);
  EXPECT_EQ(fence, 0x1122334455667788ull);
  EXPECT_EQ(r.interrupts, std::vector<uint32_t>{42});
  EXPECT_EQ(r.rptr, 8u);
}

TEST(Pm4Queue, PM4_Q_2_BadWritePointersAndUnknownPacketsAreErrors) {
  {
    Ring r(64);
    r.doorbell = 17;  // more than a ring ahead
    EXPECT_EQ(r.queue->step(), Pm4QueueAction::Error);
    EXPECT_EQ(r.errors.size(), 1u);
    EXPECT_EQ(r.queue->step(), Pm4QueueAction::None) << "a queue in error runs nothing";
  }
  {
    Ring r(64);
    r.submit({make_header(0x7f, 2), 0});
    EXPECT_EQ(r.queue->step(), Pm4QueueAction::Error);
    EXPECT_EQ(r.rptr, 0u) << "nothing consumed";
  }
  {
    Ring r(64);
    r.submit({0x12345678});  // a type-0 packet
    EXPECT_EQ(r.queue->step(), Pm4QueueAction::Error);
  }
}

TEST(Pm4Queue, PM4_Q_1_BadBindingsAreErrorsNotCrashes) {
  std::vector<std::string> errors;
  alignas(8) uint64_t doorbell = 0;
  FlatMemory memory;
  Pm4QueueBinding b;
  b.ring_va = 0x100140;  // not 256-byte aligned
  b.ring_bytes = 4096;
  b.doorbell = &doorbell;
  b.memory = &memory;
  b.on_error = [&errors](const std::string& w) { errors.push_back(w); };
  Pm4Queue q(b);
  EXPECT_TRUE(q.in_error());
  EXPECT_EQ(errors.size(), 1u);
}

}  // namespace
}  // namespace rocref::gpu::pm4
