// tests/unit/gpu/mutant_test.cpp - each planted bug the packet processor honours changes what it does.
//
// Every test runs the same scenario with the mutant off (correct behaviour) and
// on (the bug's behaviour), so property tests elsewhere can rely on the switch.
#include <gtest/gtest.h>

#include <atomic>

#include "common/copy_fill_kernels.h"
#include "common/mutant.h"
#include "common/signal.h"
#include "gpu/packet_processor.h"
#include "queue_fixture.h"

namespace rocref::gpu {
namespace {

using testing::dispatch_packet;
using testing::TestKernelObject;
using testing::TestQueue;
using testing::TestSignal;
using testing::WindowMemory;

std::atomic<uint32_t> g_runs{0};
void run_kernel(const void*) { g_runs.fetch_add(1, std::memory_order_relaxed); }
uint64_t run_id() {
  static const uint64_t id = kernel_abi::register_kernel("mutant-run", &run_kernel);
  return id;
}

QueueBinding bind(TestQueue& q, MemoryAccess& memory, int* errors = nullptr) {
  QueueBinding b;
  b.queue = &q.queue;
  b.memory = &memory;
  b.on_error = [errors](hsa_status_t, uint64_t) {
    if (errors != nullptr) ++*errors;
  };
  return b;
}

class MutantTest : public ::testing::Test {
 protected:
  void SetUp() override { g_runs = 0; }
  FlatMemory memory;
  TestKernelObject kernel{run_id()};
};

// AQL-RET-1: with the read index advanced first, a producer refills the slot and
// the late header reset erases the new packet: it is never launched.
uint32_t packets_run_after_early_refill(TestKernelObject& kernel, MemoryAccess& memory) {
  g_runs = 0;
  TestQueue q(1);
  PacketProcessor p(bind(q, memory));
  q.submit(dispatch_packet(kernel.address(), hsa_signal_t{0}));
  EXPECT_EQ(p.step_fetch().action, ProcessorAction::Launch);
  p.step_fetch();  // correct: ResetHeader; mutant: AdvanceRead
  if (q.read_index() == 1) q.submit(dispatch_packet(kernel.address(), hsa_signal_t{0}));
  p.drain();
  if (q.read_index() == 1 && q.ring().load_write_index(MemoryOrder::Relaxed) == 1) {
    q.submit(dispatch_packet(kernel.address(), hsa_signal_t{0}));
    p.drain();
  }
  return g_runs.load();
}

TEST_F(MutantTest, HeaderResetAfterReadIndexAdvancesFirstAndLosesARefilledPacket) {
  {
    TestQueue q;
    PacketProcessor p(bind(q, memory));
    q.submit(dispatch_packet(kernel.address(), hsa_signal_t{0}));
    p.step_fetch();
    EXPECT_EQ(p.step_fetch().action, ProcessorAction::ResetHeader);
    EXPECT_EQ(packets_run_after_early_refill(kernel, memory), 2u);
  }
  ScopedMutant m(Mutant::HeaderResetAfterReadIndex);
  TestQueue q;
  PacketProcessor p(bind(q, memory));
  q.submit(dispatch_packet(kernel.address(), hsa_signal_t{0}));
  p.step_fetch();
  EXPECT_EQ(p.step_fetch().action, ProcessorAction::AdvanceRead);
  EXPECT_EQ(p.phase(), ProcessorPhase::ReadAdvanced);
  EXPECT_EQ(p.step_fetch().action, ProcessorAction::ResetHeader);
  EXPECT_EQ(packets_run_after_early_refill(kernel, memory), 1u);
}

TEST_F(MutantTest, InvalidHeaderConsumedLaunchesAnEmptySlot) {
  {
    TestQueue q;
    PacketProcessor p(bind(q, memory));
    EXPECT_EQ(p.drain(), 0u);
    EXPECT_EQ(q.read_index(), 0u);
  }
  ScopedMutant m(Mutant::InvalidHeaderConsumed);
  TestQueue q;
  PacketProcessor p(bind(q, memory));
  EXPECT_EQ(p.step().action, ProcessorAction::Launch);
  p.drain(8);
  EXPECT_GT(q.read_index(), 0u);  // consumed slots no producer published
}

TEST_F(MutantTest, IgnoreBarrierBitLaunchesBeforeEarlierPacketsComplete) {
  auto scenario = [&] {
    TestQueue q;
    PacketProcessor p(bind(q, memory));
    q.submit(dispatch_packet(kernel.address(), hsa_signal_t{0}));
    q.submit(dispatch_packet(kernel.address(), hsa_signal_t{0}, 1, 1, nullptr, /*barrier=*/true));
    for (int i = 0; i < 3; ++i) p.step_fetch();
    return p.step_fetch().action;
  };
  EXPECT_EQ(scenario(), ProcessorAction::None);
  ScopedMutant m(Mutant::IgnoreBarrierBit);
  EXPECT_EQ(scenario(), ProcessorAction::Launch);
}

TEST_F(MutantTest, BarrierOrNeedsAllWaitsForEveryDependency) {
  auto scenario = [&] {
    TestQueue q;
    PacketProcessor p(bind(q, memory));
    TestSignal d1(0), d2(1), done(1);
    q.submit(testing::barrier_packet<hsa_barrier_or_packet_t>(HSA_PACKET_TYPE_BARRIER_OR,
                                                              {d1.handle(), d2.handle()}, done.handle()));
    p.drain();
    return done.value();
  };
  EXPECT_EQ(scenario(), 0);
  ScopedMutant m(Mutant::BarrierOrNeedsAll);
  EXPECT_EQ(scenario(), 1);
}

TEST_F(MutantTest, VendorTypeAcceptedAsValidLaunchesAZeroedHeader) {
  auto scenario = [&](int* errors) {
    TestQueue q;
    PacketProcessor p(bind(q, memory, errors));
    TestSignal done(1);
    auto packet = dispatch_packet(kernel.address(), done.handle());
    std::memset(&packet, 0, 4);  // header word zero: type 0, what a cleared slot reads as
    q.submit(packet);
    p.drain();
    return done.value();
  };
  int errors = 0;
  EXPECT_EQ(scenario(&errors), 1);  // AQL-INV-2: not launched, queue error
  EXPECT_EQ(errors, 1);
  ScopedMutant m(Mutant::VendorTypeAcceptedAsValid);
  errors = 0;
  EXPECT_EQ(scenario(&errors), 0);  // launched and "completed": a false completion
  EXPECT_EQ(errors, 0);
}

// The window hook plays a second completion landing between the mutant's read and write.
int g_window_calls = 0;
void concurrent_completion(amd_signal_t* signal) {
  ++g_window_calls;
  std::atomic_ref<int64_t>(const_cast<int64_t&>(signal->value)).fetch_sub(1);
}

TEST_F(MutantTest, NonAtomicSignalDecrementLosesAConcurrentDecrement) {
  sig::set_decrement_window_hook(&concurrent_completion);
  // Two completions of one signal: ours through the processor, one concurrent.
  auto scenario = [&] {
    g_window_calls = 0;
    TestQueue q;
    PacketProcessor p(bind(q, memory));
    TestSignal done(5);
    q.submit(dispatch_packet(kernel.address(), done.handle()));
    p.drain();
    // An atomic decrement has no window: the other completion lands before or after it.
    if (g_window_calls == 0) concurrent_completion(&done.signal);
    return done.value();
  };
  EXPECT_EQ(scenario(), 3);
  {
    ScopedMutant m(Mutant::NonAtomicSignalDecrement);
    EXPECT_EQ(scenario(), 4);  // read 5, concurrent 5 -> 4, write 4: one decrement lost
    EXPECT_EQ(g_window_calls, 1);
  }
  sig::set_decrement_window_hook(nullptr);
}

}  // namespace
}  // namespace rocref::gpu

namespace rocref::gpu {
namespace {

// AQL-MEM-1: a processor bound by address (as the KFD binds one, from the MQD) translates the read
// index at every store: once it is unmapped the next advance is a memory violation. Returns
// whether the queue went into error; `advanced` tells whether the second packet's read index was stored.
bool read_index_unmapped_after_one_packet(TestKernelObject& kernel, bool* advanced) {
  TestQueue q;
  testing::HoleMemory memory;
  QueueBinding b;
  b.ring_va = reinterpret_cast<uintptr_t>(q.queue.hsa_queue.base_address);
  b.ring_packets = q.queue.hsa_queue.size;
  b.read_index_va = reinterpret_cast<uintptr_t>(&q.queue.read_dispatch_id);
  b.memory = &memory;
  const uint64_t index_va = b.read_index_va;
  PacketProcessor p(std::move(b));
  q.submit(dispatch_packet(kernel.address(), hsa_signal_t{0}));
  p.drain();
  EXPECT_EQ(q.read_index(), 1u);
  memory.hole_begin = index_va;
  memory.hole_end = index_va + 8;
  q.submit(dispatch_packet(kernel.address(), hsa_signal_t{0}));
  p.drain();
  *advanced = q.read_index() == 2;
  return p.in_error();
}

TEST_F(MutantTest, AQL_MEM_1_ReadIndexTranslatedAtEveryStore) {
  bool advanced = true;
  EXPECT_TRUE(read_index_unmapped_after_one_packet(kernel, &advanced));
  EXPECT_FALSE(advanced) << "nothing written through an old translation";
}

// AQL-ERR-1: a dispatch runs the kernel its code record names now. The same kernel object is
// dispatched twice, its code record naming another registered kernel the second time (new
// code at the same address); the processor remembers its last lookup, by the record's id.
std::atomic<uint32_t> g_other_runs{0};
void other_kernel(const void*) { g_other_runs.fetch_add(1, std::memory_order_relaxed); }

bool rewritten_code_record_runs_the_new_kernel() {
  static const uint64_t other_id = kernel_abi::register_kernel("mutant-other", &other_kernel);
  g_runs = 0;
  g_other_runs = 0;
  TestKernelObject object(run_id());
  TestQueue q;
  FlatMemory memory;
  PacketProcessor p(bind(q, memory));
  q.submit(dispatch_packet(object.address(), hsa_signal_t{0}));
  p.drain();
  object.code.id = other_id;
  q.submit(dispatch_packet(object.address(), hsa_signal_t{0}));
  p.drain();
  return !p.in_error() && g_runs == 1 && g_other_runs == 1;
}

TEST_F(MutantTest, AQL_ERR_1_KernelLookupByObjectIsCaught) {
  EXPECT_TRUE(rewritten_code_record_runs_the_new_kernel());
  ScopedMutant m(Mutant::KernelLookupByObject);
  EXPECT_FALSE(rewritten_code_record_runs_the_new_kernel()) << "the mutant runs the kernel it remembered";
}

// VM-XLATE-4: a copy between two pages of a GPU window backed elsewhere (testing::WindowMemory).
bool copy_lands_in_the_translated_pages() {
  testing::WindowMemory memory(2);
  memory.backing[0] = 0x7e;
  const copy_fill::CopyArgs args{memory.va() + WindowMemory::kPage, memory.va(), 64};
  TestKernelObject object(copy_fill::copy_kernel_id(), 0, sizeof args);
  TestQueue q;
  PacketProcessor p(bind(q, memory));
  q.submit(dispatch_packet(object.address(), hsa_signal_t{0}, 1, 1, &args));
  p.drain();
  return !p.in_error() && memory.backing[WindowMemory::kPage] == 0x7e;
}

TEST_F(MutantTest, VM_XLATE_4_BlitKernelRawAddressesIsCaught) {
  EXPECT_TRUE(copy_lands_in_the_translated_pages());
  ScopedMutant m(Mutant::BlitKernelRawAddresses);
  EXPECT_FALSE(copy_lands_in_the_translated_pages()) << "the mutant copies at the GPU address on the host";
}

TEST_F(MutantTest, AQL_MEM_1_ReadIndexTranslatedOnceIsCaught) {
  ScopedMutant m(Mutant::ReadIndexTranslatedOnce);
  bool advanced = false;
  EXPECT_FALSE(read_index_unmapped_after_one_packet(kernel, &advanced));
  EXPECT_TRUE(advanced) << "the mutant writes through the pointer it kept";
}

// AQL-SIG-6: a completion signal 4 bytes off its alignment.
bool misaligned_completion_faults(TestKernelObject& kernel, int64_t* aligned_value) {
  TestQueue q;
  FlatMemory memory;
  int errors = 0;
  PacketProcessor p(bind(q, memory, &errors));
  TestSignal signal(1);
  q.submit(dispatch_packet(kernel.address(), hsa_signal_t{signal.handle().handle + 4}));
  p.drain();
  *aligned_value = std::atomic_ref<int64_t>(const_cast<int64_t&>(signal.signal.value)).load();
  return p.in_error() && errors == 1;
}

TEST_F(MutantTest, AQL_SIG_6_MisalignedSignalUsedIsCaught) {
  int64_t value = 0;
  EXPECT_TRUE(misaligned_completion_faults(kernel, &value));
  EXPECT_EQ(value, 1);
  ScopedMutant m(Mutant::MisalignedSignalUsed);
  EXPECT_FALSE(misaligned_completion_faults(kernel, &value));
  EXPECT_EQ(value, 0) << "the mutant decremented the signal its low bits dropped onto";
}

// AQL-FEN-1: the grid runs before the completion signal is decremented, so a host that saw
// the decrement sees the grid's effects. The kernel reads its own completion signal: still
// 1 while it runs, whatever order the processor completes packets in.
std::atomic<int64_t> g_signal_seen{-1};
void read_own_signal(const void* kernarg) {
  const auto* signal = *static_cast<const amd_signal_t* const*>(kernarg);
  g_signal_seen.store(std::atomic_ref<int64_t>(const_cast<int64_t&>(signal->value)).load(std::memory_order_acquire));
}
uint64_t read_own_signal_id() {
  static const uint64_t id = kernel_abi::register_kernel("mutant-read-own-signal", &read_own_signal);
  return id;
}

int64_t signal_seen_by_its_grid() {
  TestQueue q;
  FlatMemory memory;
  PacketProcessor p(bind(q, memory));
  TestKernelObject reader(read_own_signal_id());
  TestSignal signal(1);
  const amd_signal_t* arg = &signal.signal;
  g_signal_seen = -1;
  q.submit(dispatch_packet(reader.address(), signal.handle(), 1, 1, &arg));
  p.drain();
  EXPECT_EQ(signal.value(), 0);
  return g_signal_seen.load();
}

TEST_F(MutantTest, AQL_FEN_1_GridRunsBeforeItsCompletionSignal) { EXPECT_EQ(signal_seen_by_its_grid(), 1); }

TEST_F(MutantTest, AQL_FEN_1_CompletionBeforeWorkIsCaught) {
  ScopedMutant m(Mutant::CompletionBeforeWork);
  EXPECT_EQ(signal_seen_by_its_grid(), 0) << "the mutant decrements the signal before the grid runs";
}

}  // namespace
}  // namespace rocref::gpu
