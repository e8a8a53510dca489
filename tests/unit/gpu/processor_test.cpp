// tests/unit/gpu/processor_test.cpp - the packet processor: every packet type, step order, barriers, completion.
#include <gtest/gtest.h>

#include <atomic>

#include "common/model_clock.h"
#include "gpu/packet_processor.h"
#include "queue_fixture.h"

namespace rocref::gpu {
namespace {

using testing::barrier_packet;
using testing::barrier_value_packet;
using testing::dispatch_packet;
using testing::TestKernelObject;
using testing::TestQueue;
using testing::TestSignal;

struct CountArgs {
  std::atomic<uint32_t>* counter;
};

void count_kernel(const void* kernarg) {
  static_cast<const CountArgs*>(kernarg)->counter->fetch_add(1, std::memory_order_relaxed);
}

uint64_t count_kernel_id() {
  static const uint64_t id = kernel_abi::register_kernel("count", &count_kernel);
  return id;
}

class ProcessorTest : public ::testing::Test {
 protected:
  QueueBinding binding() {
    QueueBinding b;
    b.queue = &q.queue;
    b.memory = &memory;
    b.on_error = [this](hsa_status_t status, uint64_t id) {
      ++errors;
      last_status = status;
      last_error_id = id;
    };
    b.on_interrupt = [this](uint32_t event) { interrupt_events.push_back(event); };
    return b;
  }

  TestQueue q;
  FlatMemory memory;
  std::atomic<uint32_t> counter{0};
  CountArgs args{&counter};
  TestKernelObject kernel{count_kernel_id(), 0, sizeof(CountArgs)};
  int errors = 0;
  hsa_status_t last_status = HSA_STATUS_SUCCESS;
  uint64_t last_error_id = ~0ull;
  std::vector<uint32_t> interrupt_events;
};

TEST_F(ProcessorTest, KernelDispatchRunsEveryWorkItemAndDecrementsSignal) {
  PacketProcessor p(binding());
  TestSignal done(1);
  q.submit(dispatch_packet(kernel.address(), done.handle(), 100, 10, &args));
  EXPECT_EQ(p.drain(), 4u);  // Launch, ResetHeader, AdvanceRead, Complete
  EXPECT_EQ(counter.load(), 100u);
  EXPECT_EQ(done.value(), 0);
  EXPECT_EQ(q.read_index(), 1u);
  EXPECT_EQ(p.stats().launched, 1u);
  EXPECT_EQ(p.stats().completed, 1u);
  EXPECT_FALSE(p.in_error());
}

TEST_F(ProcessorTest, AQL_RET_1_StepsAreLaunchResetHeaderAdvanceReadThenComplete) {
  PacketProcessor p(binding());
  TestSignal done(1);
  const uint64_t id = q.submit(dispatch_packet(kernel.address(), done.handle(), 1, 1, &args));
  EXPECT_EQ(p.phase(), ProcessorPhase::Fetch);
  auto s = p.step_fetch();
  EXPECT_EQ(s.action, ProcessorAction::Launch);
  EXPECT_EQ(s.packet_id, id);
  EXPECT_EQ(p.phase(), ProcessorPhase::Launched);
  EXPECT_NE(aql::header_type(q.header_at(id)), HSA_PACKET_TYPE_INVALID);
  EXPECT_EQ(p.step_fetch().action, ProcessorAction::ResetHeader);
  EXPECT_EQ(q.header_at(id), aql::kInvalidHeader);
  EXPECT_EQ(q.read_index(), 0u);
  EXPECT_EQ(p.step_fetch().action, ProcessorAction::AdvanceRead);
  EXPECT_EQ(q.read_index(), 1u);
  EXPECT_EQ(p.fetch_index(), 1u);
  EXPECT_EQ(p.in_flight_ids(), std::vector<uint64_t>{id});
  EXPECT_EQ(counter.load(), 0u);  // launched, not yet run
  EXPECT_EQ(p.step_complete(0).action, ProcessorAction::Complete);
  EXPECT_EQ(counter.load(), 1u);
  EXPECT_EQ(done.value(), 0);
  EXPECT_EQ(p.in_flight(), 0u);
}

// The completion signal's start_ts is the launch's GPU clock, end_ts the completion's. A
// clock reading taken after the launch, and one the clock has moved past before the
// completion, lie between them (the counter is monotonic, so the wait for it to move ends).
// covers: HSA-PROF-1
TEST_F(ProcessorTest, HSA_PROF_1_StartIsStampedAtLaunchAndEndAtCompletion) {
  PacketProcessor p(binding());
  TestSignal done(1);
  q.submit(dispatch_packet(kernel.address(), done.handle(), 1, 1, &args));
  ASSERT_EQ(p.step_fetch().action, ProcessorAction::Launch);
  const uint64_t after_launch = gpu_clock_ticks();
  uint64_t before_completion = gpu_clock_ticks();
  while (before_completion == after_launch) before_completion = gpu_clock_ticks();
  EXPECT_EQ(p.step_fetch().action, ProcessorAction::ResetHeader);
  EXPECT_EQ(p.step_fetch().action, ProcessorAction::AdvanceRead);
  ASSERT_EQ(p.step_complete(0).action, ProcessorAction::Complete);
  EXPECT_EQ(done.value(), 0);
  const uint64_t start = done.signal.start_ts, end = done.signal.end_ts;
  EXPECT_LE(start, after_launch) << "start_ts was not stamped at the launch";
  EXPECT_GE(end, before_completion) << "end_ts was not stamped at the completion";
}

TEST_F(ProcessorTest, StepRetiresTheSlotBeforeRunningTheKernel) {
  PacketProcessor p(binding());
  TestSignal done(1);
  q.submit(dispatch_packet(kernel.address(), done.handle(), 1, 1, &args));
  EXPECT_EQ(p.step().action, ProcessorAction::Launch);
  EXPECT_EQ(p.step().action, ProcessorAction::ResetHeader);
  EXPECT_EQ(p.step().action, ProcessorAction::AdvanceRead);
  EXPECT_EQ(counter.load(), 0u);
  EXPECT_EQ(p.step().action, ProcessorAction::Complete);
  EXPECT_EQ(counter.load(), 1u);
  EXPECT_EQ(p.step().action, ProcessorAction::None);
}

TEST_F(ProcessorTest, AQL_INV_1_InvalidHeaderWaitsAndIsNeverConsumed) {
  PacketProcessor p(binding());
  EXPECT_FALSE(p.has_work());
  for (int i = 0; i < 10; ++i) EXPECT_EQ(p.step().action, ProcessorAction::None);
  EXPECT_EQ(q.read_index(), 0u);
  EXPECT_FALSE(p.in_error());
  // A slot whose body is written but whose header is still INVALID waits too.
  auto packet = dispatch_packet(kernel.address(), hsa_signal_t{0}, 1, 1, &args);
  q.ring().write_body(q.ring().reserve_fetch_add(1), &packet);
  EXPECT_EQ(p.drain(), 0u);
  q.ring().publish(0, testing::header_setup(HSA_PACKET_TYPE_KERNEL_DISPATCH, 1));
  EXPECT_TRUE(p.has_work());
  EXPECT_EQ(p.drain(), 4u);
  EXPECT_EQ(counter.load(), 1u);
}

TEST_F(ProcessorTest, CompletionWithoutSignalAndManyPacketsWrapTheRing) {
  PacketProcessor p(binding());
  for (int round = 0; round < 5; ++round) {
    for (int i = 0; i < 16; ++i) q.submit(dispatch_packet(kernel.address(), hsa_signal_t{0}, 1, 1, &args));
    p.drain();
  }
  EXPECT_EQ(counter.load(), 80u);
  EXPECT_EQ(q.read_index(), 80u);
}

TEST_F(ProcessorTest, AQL_BAR_1_CompletionMayBeOutOfOrderWithoutBarrierBit) {
  PacketProcessor p(binding());
  TestSignal a(1), b(1);
  q.submit(dispatch_packet(kernel.address(), a.handle(), 1, 1, &args));
  q.submit(dispatch_packet(kernel.address(), b.handle(), 1, 1, &args));
  for (int i = 0; i < 6; ++i) ASSERT_NE(p.step_fetch().action, ProcessorAction::None);
  EXPECT_EQ(p.in_flight_ids(), (std::vector<uint64_t>{0, 1}));
  EXPECT_EQ(p.step_complete(1).packet_id, 1u);
  EXPECT_EQ(b.value(), 0);
  EXPECT_EQ(a.value(), 1);
  EXPECT_EQ(p.step_complete(0).packet_id, 0u);
  EXPECT_EQ(a.value(), 0);
}

TEST_F(ProcessorTest, AQL_BAR_1_BarrierBitWaitsForEveryEarlierCompletion) {
  PacketProcessor p(binding());
  TestSignal a(1), b(1);
  q.submit(dispatch_packet(kernel.address(), a.handle(), 1, 1, &args));
  q.submit(dispatch_packet(kernel.address(), b.handle(), 1, 1, &args, /*barrier=*/true));
  for (int i = 0; i < 3; ++i) ASSERT_NE(p.step_fetch().action, ProcessorAction::None);
  EXPECT_EQ(p.step_fetch().action, ProcessorAction::None);  // packet 1 waits for packet 0
  EXPECT_EQ(p.in_flight_ids(), std::vector<uint64_t>{0});
  EXPECT_EQ(p.step_complete(0).action, ProcessorAction::Complete);
  EXPECT_EQ(p.step_fetch().action, ProcessorAction::Launch);
}

TEST_F(ProcessorTest, AQL_BAR_2_BarrierAndIgnoresNullsAndNeedsEachDependencyObservedZero) {
  PacketProcessor p(binding());
  TestSignal d1(1), d2(1), done(1);
  q.submit(barrier_packet<hsa_barrier_and_packet_t>(HSA_PACKET_TYPE_BARRIER_AND,
                                                    {hsa_signal_t{0}, d1.handle(), hsa_signal_t{0}, d2.handle()},
                                                    done.handle()));
  EXPECT_EQ(p.drain(), 3u);  // launched and retired, not complete
  EXPECT_EQ(p.in_flight(), 1u);
  d1.set(0);
  EXPECT_EQ(p.drain(), 0u);
  d1.set(5);  // observed 0 once: that is enough (not necessarily at the same time)
  d2.set(0);
  EXPECT_EQ(p.step().action, ProcessorAction::Complete);
  EXPECT_EQ(done.value(), 0);
}

TEST_F(ProcessorTest, AQL_BAR_2_BarrierAndWithOnlyNullDependenciesCompletesAtOnce) {
  PacketProcessor p(binding());
  TestSignal done(1);
  q.submit(barrier_packet<hsa_barrier_and_packet_t>(HSA_PACKET_TYPE_BARRIER_AND, {}, done.handle()));
  EXPECT_EQ(p.drain(), 4u);
  EXPECT_EQ(done.value(), 0);
}

TEST_F(ProcessorTest, AQL_BAR_2_BarrierPacketHoldsBackLaterLaunches) {
  PacketProcessor p(binding());
  TestSignal dep(1);
  q.submit(barrier_packet<hsa_barrier_and_packet_t>(HSA_PACKET_TYPE_BARRIER_AND, {dep.handle()}, hsa_signal_t{0}));
  q.submit(dispatch_packet(kernel.address(), hsa_signal_t{0}, 1, 1, &args));
  EXPECT_EQ(p.drain(), 3u);
  EXPECT_EQ(counter.load(), 0u);
  EXPECT_EQ(q.read_index(), 1u);
  dep.set(0);
  EXPECT_EQ(p.drain(), 5u);
  EXPECT_EQ(counter.load(), 1u);
}

TEST_F(ProcessorTest, AQL_BAR_3_BarrierOrCompletesWhenAnyDependencyIsZero) {
  PacketProcessor p(binding());
  TestSignal d1(1), d2(1), done(1);
  q.submit(barrier_packet<hsa_barrier_or_packet_t>(HSA_PACKET_TYPE_BARRIER_OR,
                                                   {d1.handle(), hsa_signal_t{0}, d2.handle()}, done.handle()));
  EXPECT_EQ(p.drain(), 3u);
  EXPECT_EQ(done.value(), 1);
  d2.set(0);
  EXPECT_EQ(p.drain(), 1u);
  EXPECT_EQ(done.value(), 0);
  EXPECT_EQ(d1.value(), 1);
}

TEST_F(ProcessorTest, AQL_BAR_3_BarrierOrWithOnlyNullDependenciesCompletes) {
  PacketProcessor p(binding());
  TestSignal done(1);
  q.submit(barrier_packet<hsa_barrier_or_packet_t>(HSA_PACKET_TYPE_BARRIER_OR, {hsa_signal_t{0}}, done.handle()));
  EXPECT_EQ(p.drain(), 4u);
  EXPECT_EQ(done.value(), 0);
}

TEST_F(ProcessorTest, AQL_BAR_4_BarrierValueWaitsForMaskedCondition) {
  struct Case {
    hsa_signal_condition_t cond;
    int64_t value, mask, blocking, releasing;
  };
  const Case cases[] = {
      {HSA_SIGNAL_CONDITION_EQ, 4, 0xF, 0x13, 0x24},
      {HSA_SIGNAL_CONDITION_NE, 0, 0xF0, 0x0F, 0x10},
      {HSA_SIGNAL_CONDITION_LT, 3, -1, 3, 2},
      {HSA_SIGNAL_CONDITION_GTE, 8, 0xFF, 0x107, 0x108},
  };
  for (const Case& c : cases) {
    TestQueue queue;
    QueueBinding b;
    b.queue = &queue.queue;
    b.memory = &memory;
    PacketProcessor p(std::move(b));
    TestSignal s(c.blocking), done(1);
    queue.submit(barrier_value_packet(s.handle(), c.cond, c.value, c.mask, done.handle()));
    EXPECT_EQ(p.drain(), 3u) << c.cond;
    EXPECT_EQ(done.value(), 1) << c.cond;
    s.set(c.releasing);
    EXPECT_EQ(p.drain(), 1u) << c.cond;
    EXPECT_EQ(done.value(), 0) << c.cond;
    EXPECT_FALSE(p.in_error());
  }
}

TEST_F(ProcessorTest, AQL_BAR_4_BarrierValueWithNullSignalIsSatisfied) {
  PacketProcessor p(binding());
  TestSignal done(1);
  q.submit(barrier_value_packet(hsa_signal_t{0}, HSA_SIGNAL_CONDITION_EQ, 7, -1, done.handle()));
  EXPECT_EQ(p.drain(), 4u);
  EXPECT_EQ(done.value(), 0);
}

TEST_F(ProcessorTest, AgentDispatchCallsTheAgentAndCompletes) {
  QueueBinding b = binding();
  uint16_t seen_type = 0;
  b.on_agent_dispatch = [&](const hsa_agent_dispatch_packet_t& packet) {
    seen_type = packet.type;
    return true;
  };
  PacketProcessor p(std::move(b));
  TestSignal done(1);
  hsa_agent_dispatch_packet_t packet{};
  const uint32_t word = testing::header_setup(HSA_PACKET_TYPE_AGENT_DISPATCH, 0x4242);
  std::memcpy(&packet, &word, sizeof word);
  packet.completion_signal = done.handle();
  q.submit(packet);
  EXPECT_EQ(p.drain(), 4u);
  EXPECT_EQ(seen_type, 0x4242);
  EXPECT_EQ(done.value(), 0);
}

TEST_F(ProcessorTest, AgentDispatchWithoutHandlerCompletesAndFailingAgentIsAnError) {
  {
    PacketProcessor p(binding());
    TestSignal done(1);
    hsa_agent_dispatch_packet_t packet{};
    const uint32_t word = testing::header_setup(HSA_PACKET_TYPE_AGENT_DISPATCH);
    std::memcpy(&packet, &word, sizeof word);
    packet.completion_signal = done.handle();
    q.submit(packet);
    EXPECT_EQ(p.drain(), 4u);
    EXPECT_EQ(done.value(), 0);
  }
  TestQueue queue;
  QueueBinding b = binding();
  b.queue = &queue.queue;
  b.on_agent_dispatch = [](const hsa_agent_dispatch_packet_t&) { return false; };
  PacketProcessor p(std::move(b));
  TestSignal done(1);
  hsa_agent_dispatch_packet_t packet{};
  const uint32_t word = testing::header_setup(HSA_PACKET_TYPE_AGENT_DISPATCH);
  std::memcpy(&packet, &word, sizeof word);
  packet.completion_signal = done.handle();
  queue.submit(packet);
  p.drain();
  EXPECT_TRUE(p.in_error());
  EXPECT_EQ(p.error_status(), HSA_STATUS_ERROR_EXCEPTION);
  EXPECT_EQ(done.value(), 1);
}

TEST_F(ProcessorTest, AQL_SIG_3_MailboxWrittenAndInterruptRaised) {
  PacketProcessor p(binding());
  alignas(8) uint64_t mailbox = ~0ull;  // event slots start at all ones
  TestSignal done(2);
  done.signal.event_mailbox_ptr = reinterpret_cast<uint64_t>(&mailbox);
  done.signal.event_id = 77;
  q.submit(dispatch_packet(kernel.address(), done.handle(), 1, 1, &args));
  q.submit(dispatch_packet(kernel.address(), done.handle(), 1, 1, &args));
  p.drain();
  EXPECT_EQ(done.value(), 0);
  EXPECT_EQ(mailbox, 77u);
  EXPECT_EQ(interrupt_events, (std::vector<uint32_t>{77, 77}));
  EXPECT_EQ(p.stats().interrupts, 2u);
}

TEST_F(ProcessorTest, SignalWithoutMailboxRaisesNoInterrupt) {
  PacketProcessor p(binding());
  TestSignal done(1);
  q.submit(dispatch_packet(kernel.address(), done.handle(), 1, 1, &args));
  p.drain();
  EXPECT_TRUE(interrupt_events.empty());
  EXPECT_EQ(p.stats().interrupts, 0u);
}

TEST_F(ProcessorTest, InactivatedQueueLaunchesNothing) {
  PacketProcessor p(binding());
  p.inactivate();
  q.submit(dispatch_packet(kernel.address(), hsa_signal_t{0}, 1, 1, &args));
  EXPECT_EQ(p.drain(), 0u);
  EXPECT_FALSE(p.has_work());
  EXPECT_EQ(counter.load(), 0u);
  EXPECT_FALSE(p.in_error());
}

TEST_F(ProcessorTest, ProcessorStartsAtTheQueuesReadIndex) {
  q.queue.read_dispatch_id = 5;
  q.queue.write_dispatch_id = 5;
  PacketProcessor p(binding());
  EXPECT_EQ(p.fetch_index(), 5u);
  EXPECT_EQ(q.submit(dispatch_packet(kernel.address(), hsa_signal_t{0}, 1, 1, &args)), 5u);
  EXPECT_EQ(p.drain(), 4u);
  EXPECT_EQ(q.read_index(), 6u);
}

}  // namespace
}  // namespace rocref::gpu
