// tests/unit/isa/isa_queue_test.cpp - gfx900 kernels through the AQL packet processor (the IsaKernel launch path).
//
// ISA-DISP-1/2 end to end on a real amd_queue_t ring: a hipcc-built kernel completes its signal
// with correct results, reading its work-group size through the dispatch ptr from the packet
// as launched even when the ring slot is reused; ISA-ERR-1: an illegal instruction puts the
// queue in error with HSA_STATUS_ERROR_ILLEGAL_INSTRUCTION, which the CP reports as its
// illegal-instruction bit. ISA-TRACE-1: the dispatch's trace event carries the interpreter's counts.
#include <gtest/gtest.h>

#include <cstring>
#include <vector>

#include "code_object.h"
#include "common/cp_queue_error.h"
#include "common/trace.h"
#include "common/trace_format.h"
#include "gpu/isa/kernel_descriptor.h"
#include "queue_fixture.h"

namespace rocref::gpu {
namespace {

using testing::dispatch_packet;
using testing::TestQueue;
using testing::TestSignal;

const test::CodeObject& kernels() { static const test::CodeObject co(ROCREF_ISA_KERNELS_O2); return co; }

struct ErrorLog {
  int calls = 0;
  hsa_status_t status = HSA_STATUS_SUCCESS;
};

QueueBinding bind(TestQueue& queue, FlatMemory& memory, ErrorLog& log) {
  QueueBinding b;
  b.queue = &queue.queue;
  b.memory = &memory;
  b.on_error = [&log](hsa_status_t status, uint64_t) { ++log.calls; log.status = status; };
  return b;
}

TEST(IsaQueue, ISA_DISP_2_HipccKernelCompletesThroughThePacketProcessor) {
  ASSERT_TRUE(kernels().ok()) << kernels().error();
  const int n = 500;
  std::vector<float> a(n), b(n), c(n, -1.0f);
  for (int i = 0; i < n; ++i) { a[i] = i * 0.25f; b[i] = 7.0f * i; }
  struct { uint64_t a, b, c; int n; } args{reinterpret_cast<uintptr_t>(a.data()), reinterpret_cast<uintptr_t>(b.data()),
                                          reinterpret_cast<uintptr_t>(c.data()), n};
  alignas(64) uint8_t kernarg[64] = {};
  std::memcpy(kernarg, &args, sizeof args);
  TestQueue queue;
  FlatMemory memory;
  ErrorLog log;
  PacketProcessor proc(bind(queue, memory, log));
  TestSignal done(1);
  auto p = dispatch_packet(kernels().kernel_object("vadd"), done.handle(), 512, 128, kernarg);
  queue.submit(p);
  // Launch, reset the header, advance the read index: the slot is the producers' again.
  while (proc.phase() != ProcessorPhase::Fetch || proc.in_flight() == 0) proc.step_fetch();
  uint8_t* slot = queue.ring().slot(0);  // a producer reuses the slot before the kernel runs
  const uint16_t wg = 7;
  const uint32_t grid = 3;
  std::memcpy(slot + offsetof(hsa_kernel_dispatch_packet_t, workgroup_size_x), &wg, sizeof wg);
  std::memcpy(slot + offsetof(hsa_kernel_dispatch_packet_t, grid_size_x), &grid, sizeof grid);
  proc.drain();
  EXPECT_EQ(log.calls, 0);
  EXPECT_EQ(done.value(), 0);
  for (int i = 0; i < n; ++i) ASSERT_EQ(c[i], a[i] + b[i]) << i;
}

// ISA-TRACE-1: the packet processor records the interpreter's counts as the dispatch's trace event.
TEST(IsaQueue, ISA_TRACE_1_DispatchStatsEventCarriesTheInterpreterCounts) {
  ASSERT_TRUE(kernels().ok()) << kernels().error();
  const int n = 512;
  std::vector<float> a(n, 1.0f), b(n, 2.0f), c(n, -1.0f);
  struct {
    uint64_t a, b, c;
    int n;
  } args{reinterpret_cast<uintptr_t>(a.data()), reinterpret_cast<uintptr_t>(b.data()),
         reinterpret_cast<uintptr_t>(c.data()), n};
  alignas(64) uint8_t kernarg[64] = {};
  std::memcpy(kernarg, &args, sizeof args);
  TestQueue queue;
  FlatMemory memory;
  ErrorLog log;
  PacketProcessor proc(bind(queue, memory, log));
  TestSignal done(1);
  trace::enable(true);
  trace::clear();
  queue.submit(dispatch_packet(kernels().kernel_object("vadd"), done.handle(), n, 128, kernarg));
  proc.drain();
  const std::vector<trace::DispatchStats> stats = trace::dispatch_stats(trace::snapshot());
  trace::enable(false);
  trace::clear();
  EXPECT_EQ(log.calls, 0);
  ASSERT_EQ(stats.size(), 1u);
  const auto& d = stats[0];
  EXPECT_EQ(d.code, "gfx900");
  EXPECT_EQ(d.counts.at("work-groups"), 4u);
  EXPECT_EQ(d.counts.at("waves"), 8u);  // 128 work-items: two wave64s per work-group
  const uint64_t instructions = d.counts.at("instructions");
  EXPECT_GT(d.counts.at("scalar"), 0u);
  EXPECT_GT(d.counts.at("vector"), 0u);
  EXPECT_EQ(d.counts.at("scalar") + d.counts.at("vector"), instructions);
  EXPECT_EQ(instructions % 8, 0u);  // full waves of straight-line code: every wave runs the same count
  EXPECT_EQ(d.counts.at("lane-instructions"), 64 * instructions);
}

TEST(IsaQueue, ISA_ERR_1_IllegalInstructionIsTheQueueErrorWithTheCpBit) {
  alignas(256) uint8_t object[512] = {};
  isa::KernelDescriptor kd{};
  kd.kernel_code_entry_byte_offset = 256;
  kd.compute_pgm_rsrc1 = (3u << 18) | (1u << 21) | (1u << 23);
  std::memcpy(object, &kd, sizeof kd);
  const uint32_t code[] = {0xffffffffu, 0xbf810000u};
  std::memcpy(object + 256, code, sizeof code);
  TestQueue queue;
  FlatMemory memory;
  ErrorLog log;
  PacketProcessor proc(bind(queue, memory, log));
  TestSignal done(1);
  queue.submit(dispatch_packet(reinterpret_cast<uintptr_t>(object), done.handle(), 64, 64));
  proc.drain();
  EXPECT_EQ(log.calls, 1);
  EXPECT_EQ(static_cast<int>(log.status), static_cast<int>(HSA_STATUS_ERROR_ILLEGAL_INSTRUCTION));
  EXPECT_EQ(cp_queue_error_code(log.status), uint64_t{kCpIllegalInstruction});
  ASSERT_TRUE(proc.last_error());
  EXPECT_NE(proc.last_error()->what.find("ISA-ERR-1"), std::string::npos) << proc.last_error()->what;
  EXPECT_EQ(done.value(), 1);  // the failed dispatch does not complete
}

}  // namespace
}  // namespace rocref::gpu
