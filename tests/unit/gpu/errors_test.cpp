// tests/unit/gpu/errors_test.cpp - every queue-error path of the packet processor (AQL-ERR-*).
#include <gtest/gtest.h>

#include <array>
#include <atomic>
#include <functional>
#include <stdexcept>

#include "gpu/foreign_blit/rocclr_kernels.h"
#include "gpu/packet_checks.h"
#include "gpu/packet_processor.h"
#include "queue_fixture.h"

namespace rocref::gpu {
namespace {

using testing::dispatch_packet;
using testing::TestKernelObject;
using testing::TestQueue;
using testing::TestSignal;

std::atomic<uint32_t> g_runs{0};
void run_kernel(const void*) { g_runs.fetch_add(1, std::memory_order_relaxed); }
void throwing_kernel(const void*) {
  if (kernel_abi::current().work_item_id.x == 3) throw std::runtime_error("planted fault");
  g_runs.fetch_add(1, std::memory_order_relaxed);
}
uint64_t run_id() {
  static const uint64_t id = kernel_abi::register_kernel("run", &run_kernel);
  return id;
}
uint64_t throwing_id() {
  static const uint64_t id = kernel_abi::register_kernel("throwing", &throwing_kernel);
  return id;
}

struct ErrorLog {
  int calls = 0;
  hsa_status_t status = HSA_STATUS_SUCCESS;
  uint64_t packet = ~0ull;
};

class ErrorTest : public ::testing::Test {
 protected:
  void SetUp() override { g_runs = 0; }

  QueueBinding binding(TestQueue& queue, ErrorLog& log, MemoryAccess* mem = nullptr) {
    QueueBinding b;
    b.queue = &queue.queue;
    b.memory = mem != nullptr ? mem : &memory;
    b.on_error = [&log](hsa_status_t status, uint64_t id) {
      ++log.calls;
      log.status = status;
      log.packet = id;
    };
    return b;
  }

  // Submits `bad` after one good packet, then a good packet after it; checks the
  // error is reported once with `status` for packet 1, and nothing after it launches.
  void expect_queue_error(const void* bad, hsa_status_t status, MemoryAccess* mem = nullptr) {
    g_runs = 0;
    TestQueue queue;
    ErrorLog log;
    PacketProcessor p(binding(queue, log, mem));
    TestSignal done(3);
    queue.submit(dispatch_packet(kernel.address(), done.handle()));
    queue.submit(bad);
    queue.submit(dispatch_packet(kernel.address(), done.handle()));
    p.drain();
    EXPECT_TRUE(p.in_error());
    EXPECT_EQ(log.calls, 1);
    EXPECT_EQ(log.status, status);
    EXPECT_EQ(log.packet, 1u);
    EXPECT_EQ(p.error_status(), status);
    ASSERT_TRUE(p.last_error().has_value());
    EXPECT_EQ(p.last_error()->packet_id, 1u);
    EXPECT_FALSE(p.last_error()->what.empty());
    // AQL-ERR-2: packet 0 ran, packets 1 and 2 never launch, whatever the steps.
    for (int i = 0; i < 20; ++i) EXPECT_NE(p.step().action, ProcessorAction::Launch);
    EXPECT_EQ(g_runs.load(), 1u);
    EXPECT_EQ(done.value(), 2);
    EXPECT_EQ(queue.read_index(), 1u);
    EXPECT_EQ(p.stats().launched, 1u);
    EXPECT_FALSE(p.has_work());
    EXPECT_EQ(log.calls, 1);
  }

  hsa_kernel_dispatch_packet_t good() { return dispatch_packet(kernel.address(), hsa_signal_t{0}, 4, 2); }

  FlatMemory memory;
  TestKernelObject kernel{run_id()};
};

TEST_F(ErrorTest, AQL_ERR_1_ReservedPacketTypesAreInvalidPacketFormat) {
  for (uint8_t type : {uint8_t{6}, uint8_t{7}, uint8_t{128}, uint8_t{255}}) {
    SCOPED_TRACE(int(type));
    auto p = good();
    p.header = static_cast<uint16_t>((p.header & ~aql::kTypeMask) | type);
    expect_queue_error(&p, HSA_STATUS_ERROR_INVALID_PACKET_FORMAT);
  }
}

TEST_F(ErrorTest, AQL_ERR_1_ZeroWorkgroupDimension) {
  for (int dim = 0; dim < 3; ++dim) {
    auto p = good();
    p.setup = 3;
    (dim == 0 ? p.workgroup_size_x : dim == 1 ? p.workgroup_size_y : p.workgroup_size_z) = 0;
    expect_queue_error(&p, HSA_STATUS_ERROR_INVALID_PACKET_FORMAT);
  }
}

TEST_F(ErrorTest, AQL_ERR_1_ZeroGridDimension) {
  for (int dim = 0; dim < 3; ++dim) {
    auto p = good();
    p.setup = 3;
    (dim == 0 ? p.grid_size_x : dim == 1 ? p.grid_size_y : p.grid_size_z) = 0;
    expect_queue_error(&p, HSA_STATUS_ERROR_INVALID_PACKET_FORMAT);
  }
}

TEST_F(ErrorTest, AQL_ERR_1_SetupDimensionsOutsideOneToThree) {
  for (uint16_t setup : {uint16_t{0}, uint16_t{4}, uint16_t{0x101}}) {
    auto p = good();
    p.setup = setup;
    expect_queue_error(&p, HSA_STATUS_ERROR_INVALID_PACKET_FORMAT);
  }
}

TEST_F(ErrorTest, AQL_ERR_1_OversizedWorkGroup) {
  auto p = good();
  p.setup = 2;
  p.workgroup_size_x = 64;
  p.workgroup_size_y = 17;  // 1088 > 1024
  expect_queue_error(&p, HSA_STATUS_ERROR_INVALID_PACKET_FORMAT);
}

TEST_F(ErrorTest, AQL_ERR_1_OversizedGroupSegmentIsOutOfResources) {
  auto p = good();
  p.group_segment_size = kMaxGroupSegmentBytes + 1;
  expect_queue_error(&p, HSA_STATUS_ERROR_OUT_OF_RESOURCES);
}

TEST_F(ErrorTest, AQL_FEN_2_FenceScopeThreeIsInvalid) {
  for (int which = 0; which < 2; ++which) {
    auto p = good();
    p.header |= static_cast<uint16_t>(3u << (which == 0 ? HSA_PACKET_HEADER_SCACQUIRE_FENCE_SCOPE
                                                        : HSA_PACKET_HEADER_SCRELEASE_FENCE_SCOPE));
    expect_queue_error(&p, HSA_STATUS_ERROR_INVALID_PACKET_FORMAT);
  }
  auto barrier = testing::barrier_packet<hsa_barrier_and_packet_t>(HSA_PACKET_TYPE_BARRIER_AND, {}, hsa_signal_t{0});
  barrier.header |= static_cast<uint16_t>(3u << HSA_PACKET_HEADER_SCRELEASE_FENCE_SCOPE);
  expect_queue_error(&barrier, HSA_STATUS_ERROR_INVALID_PACKET_FORMAT);
}

TEST_F(ErrorTest, AQL_ERR_1_NullKernelObject) {
  auto p = good();
  p.kernel_object = 0;
  expect_queue_error(&p, HSA_STATUS_ERROR_INVALID_PACKET_FORMAT);
}

TEST_F(ErrorTest, AQL_ERR_1_UnknownKernelObjectIsNamedInTheError) {
  TestKernelObject unknown_id(0xFFFFFFFFull);
  TestKernelObject bad_magic(run_id());
  bad_magic.code.magic = 0x1234;
  for (TestKernelObject* object : {&unknown_id, &bad_magic}) {
    auto p = good();
    p.kernel_object = object->address();
    TestQueue queue;
    ErrorLog log;
    PacketProcessor proc(binding(queue, log));
    queue.submit(p);
    proc.drain();
    EXPECT_EQ(log.calls, 1);
    EXPECT_EQ(log.status, HSA_STATUS_ERROR_INVALID_PACKET_FORMAT);
    ASSERT_TRUE(proc.last_error());
    EXPECT_EQ(proc.last_error()->address, object->address());
    char hex[32];
    std::snprintf(hex, sizeof hex, "0x%llx", static_cast<unsigned long long>(object->address()));
    EXPECT_NE(proc.last_error()->what.find(hex), std::string::npos) << proc.last_error()->what;
    expect_queue_error(&p, HSA_STATUS_ERROR_INVALID_PACKET_FORMAT);
  }
}

TEST_F(ErrorTest, AQL_INV_2_UnknownVendorFormatIsInvalid) {
  for (int format = 0; format < 256; ++format) {
    if (format == HSA_AMD_PACKET_TYPE_BARRIER_VALUE) continue;
    SCOPED_TRACE(format);
    auto p = testing::barrier_value_packet(hsa_signal_t{0}, HSA_SIGNAL_CONDITION_EQ, 0, -1, hsa_signal_t{0});
    p.header.AmdFormat = static_cast<uint8_t>(format);
    expect_queue_error(&p, HSA_STATUS_ERROR_INVALID_PACKET_FORMAT);
  }
  // A zeroed header word (type 0, format 0): what a half-written recycled slot reads as.
  auto zero = good();
  std::memset(&zero, 0, 4);
  expect_queue_error(&zero, HSA_STATUS_ERROR_INVALID_PACKET_FORMAT);
}

TEST_F(ErrorTest, AQL_BAR_4_BarrierValueWithBadConditionIsInvalid) {
  auto p = testing::barrier_value_packet(hsa_signal_t{0}, static_cast<hsa_signal_condition_t>(4), 0, -1,
                                         hsa_signal_t{0});
  expect_queue_error(&p, HSA_STATUS_ERROR_INVALID_PACKET_FORMAT);
}

TEST_F(ErrorTest, UntranslatableAddressesAreApertureViolations) {
  TestSignal unmapped_signal(1);
  std::vector<uint8_t> kernarg(64);
  testing::HoleMemory hole;
  auto expect_fault = [&](uint64_t begin, size_t size, const void* packet) {
    hole.hole_begin = begin;
    hole.hole_end = begin + size;
    expect_queue_error(packet, kStatusApertureViolation, &hole);
  };
  auto completion = good();
  completion.completion_signal = unmapped_signal.handle();
  expect_fault(unmapped_signal.handle().handle, sizeof(amd_signal_t), &completion);

  TestKernelObject object(run_id());
  auto descriptor = good();
  descriptor.kernel_object = object.address();
  expect_fault(object.address(), 8, &descriptor);               // descriptor
  expect_fault(object.address() + 64, 8, &descriptor);          // code record
  TestKernelObject with_args(run_id(), 0, 64);
  auto args = good();
  args.kernel_object = with_args.address();
  args.kernarg_address = kernarg.data();
  expect_fault(reinterpret_cast<uint64_t>(kernarg.data()) + 32, 8, &args);

  auto dep = testing::barrier_packet<hsa_barrier_or_packet_t>(HSA_PACKET_TYPE_BARRIER_OR,
                                                              {hsa_signal_t{0}, unmapped_signal.handle()},
                                                              hsa_signal_t{0});
  expect_fault(unmapped_signal.handle().handle, sizeof(amd_signal_t), &dep);
  auto value = testing::barrier_value_packet(unmapped_signal.handle(), HSA_SIGNAL_CONDITION_EQ, 0, -1,
                                             hsa_signal_t{0});
  expect_fault(unmapped_signal.handle().handle, sizeof(amd_signal_t), &value);
}

// AQL-SIG-6: a misaligned signal handle is a memory violation; no atomic touches it.
TEST_F(ErrorTest, AQL_SIG_6_MisalignedSignalsAreApertureViolations) {
  TestSignal signal(1);
  const hsa_signal_t skewed{signal.handle().handle + 4};
  auto completion = good();
  completion.completion_signal = skewed;
  expect_queue_error(&completion, kStatusApertureViolation);
  auto dep = testing::barrier_packet<hsa_barrier_and_packet_t>(HSA_PACKET_TYPE_BARRIER_AND, {skewed}, hsa_signal_t{0});
  expect_queue_error(&dep, kStatusApertureViolation);
  auto value = testing::barrier_value_packet(skewed, HSA_SIGNAL_CONDITION_EQ, 0, -1, hsa_signal_t{0});
  expect_queue_error(&value, kStatusApertureViolation);
  EXPECT_EQ(std::atomic_ref<int64_t>(const_cast<int64_t&>(signal.signal.value)).load(), 1);
}

// AQL-SIG-6: a handle 8 bytes off an amd_signal_t's 64-byte alignment has aligned words, but names
// no signal: the value word it would decrement is the real signal's mailbox pointer. Refused.
TEST_F(ErrorTest, AQL_SIG_6_SignalOffItsSixtyFourByteAlignmentIsAnApertureViolation) {
  TestSignal signal(1);
  signal.signal.event_mailbox_ptr = 0;
  const hsa_signal_t skewed{signal.handle().handle + 8};
  auto completion = good();
  completion.completion_signal = skewed;
  expect_queue_error(&completion, kStatusApertureViolation);
  auto value = testing::barrier_value_packet(skewed, HSA_SIGNAL_CONDITION_EQ, 0, -1, hsa_signal_t{0});
  expect_queue_error(&value, kStatusApertureViolation);
  EXPECT_EQ(signal.value(), 1);
  EXPECT_EQ(signal.signal.event_mailbox_ptr, 0u);
}

// AQL-MEM-1: a ring base off a packet's 64-byte alignment is refused when the queue is bound
// through its amd_queue_t, as it is when bound by address; nothing is read from the ring.
TEST_F(ErrorTest, AQL_MEM_1_MisalignedRingBaseIsRefusedAtBind) {
  TestQueue queue;
  queue.queue.hsa_queue.base_address = static_cast<uint8_t*>(queue.ring_memory) + 8;
  ErrorLog log;
  PacketProcessor p(binding(queue, log));
  EXPECT_TRUE(p.in_error());
  EXPECT_EQ(log.status, HSA_STATUS_ERROR_INVALID_QUEUE);
  EXPECT_EQ(p.drain(), 0u);
}

// AQL-SIG-6: the completion's event mailbox 4 bytes off: a memory violation, the mailbox untouched.
TEST_F(ErrorTest, AQL_SIG_6_MisalignedMailboxIsAnApertureViolation) {
  alignas(8) uint64_t mailbox[2] = {~0ull, ~0ull};
  TestSignal signal(1);
  signal.signal.event_mailbox_ptr = reinterpret_cast<uint64_t>(mailbox) + 4;
  signal.signal.event_id = 9;
  TestQueue queue;
  ErrorLog log;
  PacketProcessor p(binding(queue, log));
  auto completion = good();
  completion.completion_signal = signal.handle();
  queue.submit(completion);
  p.drain();
  EXPECT_TRUE(p.in_error());
  EXPECT_EQ(log.status, kStatusApertureViolation);
  EXPECT_EQ(mailbox[0], ~0ull);
  EXPECT_EQ(mailbox[1], ~0ull);
  EXPECT_EQ(p.stats().interrupts, 0u);
}

TEST_F(ErrorTest, UnmappedRingIsAnErrorNotACrash) {
  TestQueue queue;
  ErrorLog log;
  testing::HoleMemory hole;
  hole.hole_begin = reinterpret_cast<uint64_t>(queue.ring_memory);
  hole.hole_end = hole.hole_begin + 16 * 64;
  PacketProcessor p(binding(queue, log, &hole));
  EXPECT_EQ(p.step().action, ProcessorAction::Error);
  EXPECT_EQ(log.status, kStatusApertureViolation);
  EXPECT_EQ(p.drain(), 0u);
  EXPECT_EQ(log.calls, 1);
}

TEST_F(ErrorTest, KernelThatThrowsIsAnExceptionAndTheModelGoesOn) {
  TestKernelObject thrower(throwing_id());
  auto p = good();
  p.kernel_object = thrower.address();
  p.grid_size_x = 8;
  p.workgroup_size_x = 8;
  TestQueue queue;
  ErrorLog log;
  PacketProcessor proc(binding(queue, log));
  TestSignal done(1);
  p.completion_signal = done.handle();
  queue.submit(p);
  proc.drain();
  EXPECT_EQ(log.calls, 1);
  EXPECT_EQ(log.status, HSA_STATUS_ERROR_EXCEPTION);
  EXPECT_NE(proc.last_error()->what.find("planted fault"), std::string::npos);
  EXPECT_EQ(done.value(), 1);     // a faulting dispatch does not complete
  EXPECT_EQ(g_runs.load(), 7u);   // the rest of its work-group ran to the end
  EXPECT_EQ(proc.in_flight(), 0u);
}

TEST_F(ErrorTest, AQL_ERR_2_LaunchedPacketsStillCompleteAfterTheError) {
  TestQueue queue;
  ErrorLog log;
  PacketProcessor p(binding(queue, log));
  TestSignal dep(1), done(1);
  queue.submit(testing::barrier_packet<hsa_barrier_and_packet_t>(HSA_PACKET_TYPE_BARRIER_AND, {}, hsa_signal_t{0}));
  queue.submit(dispatch_packet(kernel.address(), done.handle()));
  auto bad = good();
  bad.setup = 0;
  queue.submit(bad);
  for (int i = 0; i < 3; ++i) p.step_fetch();            // barrier launched
  ASSERT_EQ(p.step_complete(0).action, ProcessorAction::Complete);
  for (int i = 0; i < 3; ++i) p.step_fetch();            // dispatch launched, not run
  EXPECT_EQ(p.step_fetch().action, ProcessorAction::Error);
  EXPECT_EQ(p.step_complete(0).action, ProcessorAction::Complete);
  EXPECT_EQ(done.value(), 0);
  EXPECT_EQ(log.calls, 1);
}

TEST_F(ErrorTest, AQL_ERR_3_ErrorOnOneQueueLeavesAnotherRunning) {
  TestQueue a, b;
  ErrorLog la, lb;
  PacketProcessor pa(binding(a, la)), pb(binding(b, lb));
  auto bad = good();
  bad.workgroup_size_x = 0;
  a.submit(bad);
  pa.drain();
  TestSignal done(1);
  b.submit(dispatch_packet(kernel.address(), done.handle()));
  EXPECT_EQ(pb.drain(), 4u);
  EXPECT_EQ(done.value(), 0);
  EXPECT_TRUE(pa.in_error());
  EXPECT_FALSE(pb.in_error());
  EXPECT_EQ(lb.calls, 0);
}

// A ROCclr copyBuffer code object: the descriptor's kernarg size and code with its fingerprint.
struct RocclrCopyObject {
  alignas(256) std::array<uint8_t, 256 + 32 * 4> bytes{};
  RocclrCopyObject() {
    const foreign_blit::RocclrFingerprint fp =
        foreign_blit::rocclr_fingerprint(foreign_blit::BlitKernel::RocclrCopyBuffer);
    const int64_t entry = 256;
    std::memcpy(bytes.data() + 8, &fp.kernarg_size, 4);
    std::memcpy(bytes.data() + 16, &entry, 8);
    for (const foreign_blit::CodeFact& f : fp.facts) std::memcpy(bytes.data() + 256 + 4 * f.index, &f.value, 4);
  }
  uint64_t address() const { return reinterpret_cast<uintptr_t>(bytes.data()); }
};

TEST_F(ErrorTest, BLIT_FAULT_1_BlitKernelPageFaultIsAnApertureViolation) {
  RocclrCopyObject object;
  std::vector<uint8_t> dst(16, 0);
  // Source 0: FlatMemory's one unmapped address, as an unmapped page under GPUVM.
  const foreign_blit::RocclrCopyBufferArgs args{0, reinterpret_cast<uintptr_t>(dst.data()), 0, 0, 4, 0, 0, 0};
  TestQueue queue;
  ErrorLog log;
  PacketProcessor proc(binding(queue, log));
  TestSignal done(1);
  queue.submit(dispatch_packet(object.address(), done.handle(), 256, 256, &args));
  proc.drain();
  // The kernel launched, and faults when it runs: the queue's error, not the packet's completion.
  EXPECT_EQ(log.calls, 1);
  EXPECT_EQ(log.status, kStatusApertureViolation);
  EXPECT_EQ(proc.error_status(), kStatusApertureViolation);
  EXPECT_EQ(done.value(), 1);
  ASSERT_TRUE(proc.last_error());
  EXPECT_EQ(proc.last_error()->address, 0u);
  EXPECT_NE(proc.last_error()->what.find("BLIT-FAULT-1"), std::string::npos) << proc.last_error()->what;
  EXPECT_EQ(dst, std::vector<uint8_t>(16, 0));
}

TEST_F(ErrorTest, BLIT_REC_3_RocclrCopyRunsAndCompletes) {
  RocclrCopyObject object;
  std::vector<uint8_t> src(13), dst(13, 0);
  for (size_t i = 0; i < src.size(); ++i) src[i] = static_cast<uint8_t>(i + 1);
  const foreign_blit::RocclrCopyBufferArgs args{
      reinterpret_cast<uintptr_t>(src.data()), reinterpret_cast<uintptr_t>(dst.data()), 0, 0, 13 / 4 + 1, 13 % 4, 0, 0};
  TestQueue queue;
  ErrorLog log;
  PacketProcessor proc(binding(queue, log));
  TestSignal done(1);
  queue.submit(dispatch_packet(object.address(), done.handle(), 256, 256, &args));
  proc.drain();
  EXPECT_FALSE(proc.in_error());
  EXPECT_EQ(log.calls, 0);
  EXPECT_EQ(done.value(), 0);
  EXPECT_EQ(dst, src);
}

TEST_F(ErrorTest, BadBindingsAreErrorsNotCrashes) {
  ErrorLog log;
  QueueBinding none;
  none.on_error = [&log](hsa_status_t s, uint64_t) {
    ++log.calls;
    log.status = s;
  };
  PacketProcessor p(none);
  EXPECT_TRUE(p.in_error());
  EXPECT_EQ(p.step().action, ProcessorAction::None);
  EXPECT_FALSE(p.has_work());
  EXPECT_EQ(log.calls, 1);
  TestQueue queue;
  queue.queue.hsa_queue.size = 12;  // not a power of two
  QueueBinding odd;
  odd.queue = &queue.queue;
  odd.memory = &memory;
  PacketProcessor q(odd);
  EXPECT_EQ(q.error_status(), HSA_STATUS_ERROR_INVALID_QUEUE);
  EXPECT_EQ(q.drain(), 0u);
}

}  // namespace
}  // namespace rocref::gpu
