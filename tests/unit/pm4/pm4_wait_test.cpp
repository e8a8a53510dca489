// tests/unit/pm4/pm4_wait_test.cpp - WAIT_REG_MEM and EVENT_WRITE on a compute queue (spec/pm4.md
// PM4-WAIT-*, PM4-EVT-1), with their planted bugs. The packet layouts are MEC's (kfdtest's
// pm4_pkt_struct_common.h field widths); the IB tail is the one kfdtest's Dispatch::BuildIb writes.
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "gpu/pm4/pm4_executor.h"
#include "gpu/pm4/pm4_mutant.h"
#include "pm4_ring.h"

namespace rocref::gpu::pm4 {
namespace {

constexpr uint32_t kEqual = 3;

std::vector<uint32_t> wait_mem(const uint32_t* addr, uint32_t function, uint32_t ref, uint32_t mask = ~0u,
                               uint32_t space = kWaitMemSpaceMemory, uint32_t op = kWaitOperationWait) {
  return {make_header(kItWaitRegMem, 7), function | (space << 4) | (op << 6), lo(addr), hi(addr), ref, mask, 4};
}
std::vector<uint32_t> cs_partial_flush() { return {make_header(kItEventWrite, 2), kEventCsPartialFlush | (4u << 8)}; }
std::vector<uint32_t> indirect_buffer(const uint32_t* ib, uint32_t dwords) {
  return {make_header(kItIndirectBuffer, 4), lo(ib), hi(ib) & 0xffffu, dwords | (1u << 23)};
}

// One wait on `value` (function, ref, mask) followed by a marker write: did the marker run?
bool passes(uint32_t function, uint32_t value, uint32_t ref, uint32_t mask = ~0u) {
  Ring r(256);
  alignas(4) uint32_t word = value;
  alignas(4) uint32_t marker = 0;
  r.submit(wait_mem(&word, function, ref, mask));
  r.submit(write_data(&marker, 1));
  r.drain();
  return marker == 1 && r.errors.empty();
}

TEST(Pm4Wait, PM4_WAIT_1_FunctionsCompareTheMaskedWordWithTheReference) {
  EXPECT_TRUE(passes(0, 1, 2));  // always
  EXPECT_TRUE(passes(1, 1, 2));
  EXPECT_FALSE(passes(1, 2, 2));
  EXPECT_TRUE(passes(2, 2, 2));
  EXPECT_FALSE(passes(2, 3, 2));
  EXPECT_TRUE(passes(kEqual, 7, 7));
  EXPECT_FALSE(passes(kEqual, 7, 8));
  EXPECT_TRUE(passes(4, 7, 8));
  EXPECT_FALSE(passes(4, 8, 8));
  EXPECT_TRUE(passes(5, 8, 8));
  EXPECT_FALSE(passes(5, 7, 8));
  EXPECT_TRUE(passes(6, 9, 8));
  EXPECT_FALSE(passes(6, 8, 8));
  EXPECT_TRUE(passes(kEqual, 0xabcd0005u, 5, 0xffu)) << "only the masked bits are compared";
  EXPECT_FALSE(passes(1, 0xffffffffu, 1)) << "unsigned: 0xffffffff is not below 1";
}

TEST(Pm4Wait, PM4_WAIT_1_PlantedWholeWordCompareIsCaught) {
  set_pm4_mutant(Pm4Mutant::WaitIgnoresMask, true);
  const bool masked = passes(kEqual, 0xabcd0005u, 5, 0xffu);
  set_pm4_mutant(Pm4Mutant::WaitIgnoresMask, false);
  EXPECT_FALSE(masked);
}

TEST(Pm4Wait, PM4_WAIT_1_RegisterSpaceReservedFunctionsAndBadOperationsAreErrors) {
  alignas(4) uint32_t word = 0;
  for (const auto& pkt :
       {wait_mem(&word, kEqual, 0, ~0u, 0), wait_mem(&word, 7, 0),
        wait_mem(&word, kEqual, 0, ~0u, kWaitMemSpaceMemory, 1),
        wait_mem(reinterpret_cast<const uint32_t*>(reinterpret_cast<uintptr_t>(&word) + 2), kEqual, 0)}) {
    Ring r(256);
    r.submit(pkt);
    EXPECT_EQ(r.queue->step(), Pm4QueueAction::Error);
    EXPECT_EQ(r.rptr, 0u) << "nothing consumed";
  }
  Ring r(256);
  r.submit({make_header(kItWaitRegMem, 6), kEqual | (1u << 4), lo(&word), hi(&word), 0, ~0u});
  EXPECT_EQ(r.queue->step(), Pm4QueueAction::Error) << "WAIT_REG_MEM is 7 dwords";
}

// A wait that does not hold stalls the queue (no read pointer movement, no later packet) until
// the memory changes; the preemptable wait (operation 3) is the same wait.
void stall_then_release(uint32_t op, bool* stalled, bool* resumed) {
  Ring r(256);
  alignas(4) uint32_t flag = 0;
  alignas(4) uint32_t marker = 0;
  r.submit(wait_mem(&flag, kEqual, 5, ~0u, kWaitMemSpaceMemory, op));
  r.submit(write_data(&marker, 1));
  r.drain();
  const Pm4QueueAction again = r.queue->step();
  *stalled = marker == 0 && r.rptr == 0 && again == Pm4QueueAction::Waiting && r.queue->has_work();
  flag = 5;
  r.drain();
  *resumed = marker == 1 && r.rptr == 12 && r.errors.empty() && !r.queue->has_work();
}

TEST(Pm4Wait, PM4_WAIT_2_AnUnsatisfiedWaitStallsTheQueueUntilMemoryChanges) {
  for (uint32_t op : {kWaitOperationWait, kWaitOperationPreemptable}) {
    bool stalled = false, resumed = false;
    stall_then_release(op, &stalled, &resumed);
    EXPECT_TRUE(stalled) << "operation " << op;
    EXPECT_TRUE(resumed) << "operation " << op;
  }
}

TEST(Pm4Wait, PM4_WAIT_2_PlantedWaitThatNeverStallsIsCaught) {
  set_pm4_mutant(Pm4Mutant::WaitNeverStalls, true);
  bool stalled = false, resumed = false;
  stall_then_release(kWaitOperationWait, &stalled, &resumed);
  set_pm4_mutant(Pm4Mutant::WaitNeverStalls, false);
  EXPECT_FALSE(stalled);
}

// kfdtest's Dispatch::BuildIb ends its IB with NOP(2), RELEASE_MEM of 0xdeadbeef into the NOP's
// payload (in the IB itself) and WAIT_REG_MEM for that value: the IB runs past the wait, and a
// wait in an IB that does not hold yet stalls at that packet, then resumes after it.
TEST(Pm4Wait, PM4_WAIT_2_KfdtestDispatchTailAndWaitsInsideAnIb) {
  Ring r(256);
  alignas(256) uint32_t ib[32] = {};
  alignas(4) uint32_t flag = 0;
  alignas(4) uint32_t marker = 0;
  std::vector<uint32_t> body = {make_header(kItNop, 2), 0};
  const uint32_t* payload = &ib[1];
  for (uint32_t d : std::vector<uint32_t>{make_header(kItReleaseMem, 8), 0x7u << 8, (1u << 29), lo(payload),
                                          hi(payload), 0xdeadbeefu, 0, 0})
    body.push_back(d);
  for (uint32_t d : wait_mem(payload, kEqual, 0xdeadbeefu)) body.push_back(d);
  for (uint32_t d : cs_partial_flush()) body.push_back(d);
  for (uint32_t d : wait_mem(&flag, kEqual, 1)) body.push_back(d);
  for (uint32_t d : write_data(&marker, 7)) body.push_back(d);
  ASSERT_LE(body.size(), sizeof ib / 4);
  for (size_t i = 0; i < body.size(); ++i) ib[i] = body[i];
  r.submit(indirect_buffer(ib, static_cast<uint32_t>(body.size())));
  r.drain();
  EXPECT_EQ(ib[1], 0xdeadbeefu) << "the RELEASE_MEM wrote the IB's NOP payload";
  EXPECT_EQ(marker, 0u) << "stalled at the second wait";
  EXPECT_EQ(r.rptr, 0u) << "the ring's INDIRECT_BUFFER completes with its IB";
  EXPECT_TRUE(r.errors.empty()) << (r.errors.empty() ? "" : r.errors[0]);
  flag = 1;
  r.drain();
  EXPECT_EQ(marker, 7u);
  EXPECT_EQ(r.rptr, 4u);
  EXPECT_TRUE(r.errors.empty());
}

TEST(Pm4Wait, PM4_WAIT_2_AnAqlPm4IbCannotStallAndFails) {
  alignas(4) uint32_t flag = 0;
  alignas(256) uint32_t ib[8] = {};
  const std::vector<uint32_t> wait = wait_mem(&flag, kEqual, 1);
  for (size_t i = 0; i < wait.size(); ++i) ib[i] = wait[i];
  FlatMemory memory;
  Pm4Context ctx;
  ctx.memory = &memory;
  const Pm4Result r = execute_ib(reinterpret_cast<uintptr_t>(ib), 7, ctx);
  EXPECT_FALSE(r.ok);
  EXPECT_NE(r.what.find("PM4-WAIT-2"), std::string::npos) << r.what;
  flag = 1;
  EXPECT_TRUE(execute_ib(reinterpret_cast<uintptr_t>(ib), 7, ctx).ok) << "a wait that holds completes";
}

TEST(Pm4Wait, PM4_EVT_1_PartialFlushesRunAndOtherEventsAreErrors) {
  {
    Ring r(256);
    alignas(4) uint32_t marker = 0;
    r.submit(cs_partial_flush());
    r.submit({make_header(kItEventWrite, 2), kEventVsPartialFlush | (4u << 8)});
    r.submit(write_data(&marker, 1));
    r.drain();
    EXPECT_EQ(marker, 1u);
    EXPECT_TRUE(r.errors.empty());
  }
  Ring r(256);
  alignas(8) uint64_t sample[2] = {};
  r.submit({make_header(kItEventWrite, 4), 0x01u | (1u << 8), lo(sample), hi(sample)});  // ZPASS_DONE
  EXPECT_EQ(r.queue->step(), Pm4QueueAction::Error);
  EXPECT_EQ(r.rptr, 0u);
}

TEST(Pm4Wait, PM4_EVT_1_PlantedSkippedEventIsCaught) {
  set_pm4_mutant(Pm4Mutant::EventWriteAcceptsAnyEvent, true);
  Ring r(256);
  alignas(8) uint64_t sample[2] = {};
  r.submit({make_header(kItEventWrite, 4), 0x01u | (1u << 8), lo(sample), hi(sample)});
  const Pm4QueueAction a = r.queue->step();
  set_pm4_mutant(Pm4Mutant::EventWriteAcceptsAnyEvent, false);
  EXPECT_NE(a, Pm4QueueAction::Error);
}

}  // namespace
}  // namespace rocref::gpu::pm4
