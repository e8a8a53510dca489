// tests/unit/gpu/copy_fill_kernel_test.cpp - the model's copy and fill kernels reach memory through
// the queue's translation (VM-XLATE-4): a GPU address is never dereferenced on the host.
#include <gtest/gtest.h>

#include <cstring>
#include <vector>

#include "common/copy_fill_kernels.h"
#include "gpu/packet_checks.h"
#include "gpu/packet_processor.h"
#include "queue_fixture.h"

namespace rocref::gpu {
namespace {

using testing::dispatch_packet;
using testing::TestKernelObject;
using testing::TestQueue;
using testing::WindowMemory;

constexpr uint64_t kPage = WindowMemory::kPage;

class CopyFillKernelTest : public ::testing::Test {
 protected:
  CopyFillKernelTest() : memory(4) {}
  QueueBinding binding() {
    QueueBinding b;
    b.queue = &q.queue;
    b.memory = &memory;
    return b;
  }
  template <typename Args>
  void run(uint64_t kernel, const Args& args, uint32_t items) {
    TestKernelObject object(kernel, 0, sizeof args);
    const auto packet = dispatch_packet(object.address(), hsa_signal_t{0}, items, 1, &args);
    PacketProcessor p(binding());
    q.submit(packet);
    p.drain();
    error = p.last_error();
  }
  TestQueue q;
  WindowMemory memory;
  std::optional<QueueError> error;
};

TEST_F(CopyFillKernelTest, VM_XLATE_4_CopyReadsAndWritesTheTranslatedPages) {
  for (size_t i = 0; i < memory.backing.size(); ++i) memory.backing[i] = static_cast<uint8_t>(i * 13 + 1);
  const std::vector<uint8_t> before = memory.backing;
  // Unaligned source and destination, the range across page boundaries, two work-items.
  const uint64_t src = memory.va() + 100, dst = memory.va() + 2 * kPage + 7, size = kPage + 900;
  run(copy_fill::copy_kernel_id(), copy_fill::CopyArgs{dst, src, size}, 2);
  ASSERT_FALSE(error) << error->what;
  for (uint64_t i = 0; i < size; ++i) ASSERT_EQ(memory.backing[2 * kPage + 7 + i], before[100 + i]) << i;
  EXPECT_EQ(memory.backing[2 * kPage + 6], before[2 * kPage + 6]) << "a byte before the range";
  EXPECT_EQ(memory.backing[2 * kPage + 7 + size], before[2 * kPage + 7 + size]) << "a byte after the range";
  for (uint8_t b : memory.decoy) ASSERT_EQ(b, 0xdd) << "the kernel wrote the GPU address on the host";
}

TEST_F(CopyFillKernelTest, VM_XLATE_4_FillWritesTheTranslatedPagesWithThePatternsPhase) {
  const uint64_t dst = memory.va() + kPage - 3, size = kPage + 10;
  run(copy_fill::fill_kernel_id(), copy_fill::FillArgs{dst, size, 0x44332211u, 4}, 1);
  ASSERT_FALSE(error) << error->what;
  for (uint64_t i = 0; i < size; ++i) {
    ASSERT_EQ(memory.backing[kPage - 3 + i], static_cast<uint8_t>(0x11 + 0x11 * (i % 4))) << i;
  }
  EXPECT_EQ(memory.backing[kPage - 4], 0);
  EXPECT_EQ(memory.backing[kPage - 3 + size], 0);
  for (uint8_t b : memory.decoy) ASSERT_EQ(b, 0xdd) << "the kernel wrote the GPU address on the host";
}

// VM-FAULT-1 through a kernel: an unmapped page of the source is a GPU page fault; the dispatch
// ends the queue in a memory aperture violation naming the address, and the work-item stops.
TEST_F(CopyFillKernelTest, VM_XLATE_4_AnUnmappedPageIsAGpuPageFaultThatEndsTheQueue) {
  memory.holes = {1};
  const uint64_t src = memory.va(), dst = memory.va() + 2 * kPage, size = 2 * kPage;
  std::memset(memory.backing.data(), 0x5a, kPage);
  run(copy_fill::copy_kernel_id(), copy_fill::CopyArgs{dst, src, size}, 1);
  ASSERT_TRUE(error) << "copying from an unmapped page completed";
  EXPECT_EQ(error->status, kStatusApertureViolation);
  EXPECT_EQ(error->address, memory.va() + kPage) << error->what;
  ASSERT_EQ(memory.faults.size(), 1u) << "the work-item went on after its fault";
  EXPECT_EQ(memory.backing[2 * kPage], 0x5a) << "the page before the fault was copied";
  EXPECT_EQ(memory.backing[3 * kPage], 0) << "nothing after the fault was written";
  for (uint8_t b : memory.decoy) ASSERT_EQ(b, 0xdd);
}

}  // namespace
}  // namespace rocref::gpu
