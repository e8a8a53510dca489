// tests/unit/kfd/kfd_mutant_test.cpp - the planted KFD bugs of kfd/kfd_mutant.h, each caught.
//
// Each test runs, through the raw ioctl ABI (the conformance suite's fixture), the check a
// conformance test makes, once with the mutant off (it holds) and once on (it fails).
#include <gtest/gtest.h>

#include <chrono>
#include <thread>

#include "kfd/kfd_mutant.h"
#include "kfd_fixture.h"

namespace kfdconf {
namespace {

using rocref::kfd::KfdMutant;

struct Planted {
  explicit Planted(KfdMutant m) : m_(m) { rocref::kfd::set_kfd_mutant(m_, true); }
  ~Planted() { rocref::kfd::set_kfd_mutant(m_, false); }
  KfdMutant m_;
};

// KFD_Q_1_CreateQueueArgumentChecks' alignment rows: true when every misaligned queue is refused.
bool misaligned_queues_refused(const KfdProcess& p) {
  alignas(4096) static uint64_t words[1024];
  kfd_ioctl_create_queue_args a{};
  a.ring_base_address = reinterpret_cast<uintptr_t>(words) + 64;
  a.ring_size = 4096;
  a.write_pointer_address = reinterpret_cast<uintptr_t>(&words[600]) + 4;
  a.read_pointer_address = reinterpret_cast<uintptr_t>(&words[601]);
  a.gpu_id = p.gpu_id;
  a.queue_type = KFD_IOC_QUEUE_TYPE_SDMA;
  a.queue_percentage = 100;
  const int r = p.io(AMDKFD_IOC_CREATE_QUEUE, &a);
  if (r == 0) {
    kfd_ioctl_destroy_queue_args d{a.queue_id, 0};
    p.io(AMDKFD_IOC_DESTROY_QUEUE, &d);
  }
  return r == -EINVAL;
}

TEST_F(KfdTest, KFD_Q_7_QueueAlignmentUncheckedIsCaught) {
  EXPECT_TRUE(misaligned_queues_refused(proc));
  Planted m(KfdMutant::QueueAlignmentUnchecked);
  EXPECT_FALSE(misaligned_queues_refused(proc));
}

// KFD_MEM_3_WritableUserptrOverReadOnlyPagesIsEFAULT's first row.
bool writable_over_read_only_refused(const KfdProcess& p) {
  void* m = ::mmap(nullptr, kPage, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  const uint64_t u = reinterpret_cast<uintptr_t>(m);
  uint64_t h = 0;
  const int r = p.alloc(KFD_IOC_ALLOC_MEM_FLAGS_USERPTR | KFD_IOC_ALLOC_MEM_FLAGS_WRITABLE, kPage, u, &h, nullptr, u);
  if (r == 0) p.free(h);
  ::munmap(m, kPage);
  return r == -EFAULT;
}

TEST_F(KfdTest, KFD_MEM_3_UserptrWriteUncheckedIsCaught) {
  EXPECT_TRUE(writable_over_read_only_refused(proc));
  Planted m(KfdMutant::UserptrWriteUnchecked);
  EXPECT_FALSE(writable_over_read_only_refused(proc));
}

// KFD_Q_9_Pm4QueueDisabledByUpdateQueueRunsNothing, reduced: true when the disabled queue ran nothing
// by the time an AQL queue's packet (submitted after it) completed.
bool disabled_pm4_queue_idle(const KfdProcess& p) {
  KfdProcess::Buffer mem = p.userptr(4 * kPage);
  auto* ring = static_cast<uint32_t*>(mem.cpu);
  kfd_ioctl_create_queue_args a{};
  a.ring_base_address = mem.va;
  a.ring_size = 1024;
  a.read_pointer_address = mem.va + kPage;
  a.write_pointer_address = mem.va + kPage + 64;
  a.gpu_id = p.gpu_id;
  a.queue_type = KFD_IOC_QUEUE_TYPE_COMPUTE;
  a.queue_percentage = 100;
  EXPECT_EQ(p.io(AMDKFD_IOC_CREATE_QUEUE, &a), 0);
  kfd_ioctl_update_queue_args u{a.ring_base_address, a.queue_id, a.ring_size, 0, 7};
  EXPECT_EQ(p.io(AMDKFD_IOC_UPDATE_QUEUE, &u), 0);
  int err = 0;
  auto* page = static_cast<uint8_t*>(kfdport::mmap(nullptr, 8192, PROT_READ | PROT_WRITE, MAP_SHARED, p.fd,
                                                   static_cast<off_t>(a.doorbell_offset & ~uint64_t{8191}), &err));
  auto* doorbell = reinterpret_cast<uint64_t*>(page + (a.doorbell_offset & 8191));
  auto* target = reinterpret_cast<uint32_t*>(static_cast<uint8_t*>(mem.cpu) + 2 * kPage);
  const uint64_t dst = reinterpret_cast<uintptr_t>(target);
  const uint32_t pkt[] = {(3u << 30) | (3u << 16) | (0x37u << 8), 5u << 8, uint32_t(dst), uint32_t(dst >> 32), 0x77};
  std::memcpy(ring, pkt, sizeof pkt);
  std::atomic_ref<uint64_t>(*doorbell).store(5, std::memory_order_release);
  AqlQueue aql;
  EXPECT_EQ(aql.create(p), 0);
  plain(aql.signals[0].value) = 1;
  aql.submit_barrier(0);
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  while (std::atomic_ref<int64_t>(plain(aql.signals[0].value)).load() != 0 && std::chrono::steady_clock::now() < deadline)
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  // An active PM4 queue runs its one packet in the slices that ran the AQL barrier (which takes
  // more steps: launch, header reset, read advance, completion), or in the next ones when the
  // scheduler served the AQL queue first: it gets 100 ms more to show it ran.
  const auto settle = std::chrono::steady_clock::now() + std::chrono::milliseconds(100);
  while (std::atomic_ref<uint32_t>(*target).load() == 0 && std::chrono::steady_clock::now() < settle)
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  const bool idle = std::atomic_ref<uint32_t>(*target).load() == 0;
  kfd_ioctl_destroy_queue_args d{a.queue_id, 0};
  p.io(AMDKFD_IOC_DESTROY_QUEUE, &d);
  d.queue_id = aql.queue_id;
  p.io(AMDKFD_IOC_DESTROY_QUEUE, &d);
  kfdport::munmap(page, 8192);
  return idle;
}

TEST_F(KfdTest, KFD_Q_9_Pm4DisableIgnoredIsCaught) {
  EXPECT_TRUE(disabled_pm4_queue_idle(proc));
  Planted m(KfdMutant::Pm4DisableIgnored);
  EXPECT_FALSE(disabled_pm4_queue_idle(proc));
}

uint64_t bank_bytes(int node) {
  return properties(std::string(kTopology) + "/nodes/" + std::to_string(node) +
                    "/mem_banks/0/properties")["size_in_bytes"];
}

// KFD_MEM_11_AllocPastTheMemoryLimitsIsENOMEMAndChangesNothing's GTT row: true when GTT of 7/16 of
// the system memory (past the TTM limit of 3/8, inside the GTT pool) is refused.
bool gtt_past_the_limit_refused(const KfdProcess& p) {
  const uint64_t size = (bank_bytes(0) / 16 * 7) & ~(kPage - 1);
  const uint64_t va = reserve_va(size);
  uint64_t h = 0;
  const int r = p.alloc(KFD_IOC_ALLOC_MEM_FLAGS_GTT | KFD_IOC_ALLOC_MEM_FLAGS_WRITABLE, size, va, &h);
  if (r == 0) p.free(h);
  ::munmap(reinterpret_cast<void*>(va), size);
  return r == -ENOMEM;
}

TEST_F(KfdTest, KFD_MEM_11_MemLimitUncheckedIsCaught) {
  EXPECT_TRUE(gtt_past_the_limit_refused(proc));
  Planted m(KfdMutant::MemLimitUnchecked);
  EXPECT_FALSE(gtt_past_the_limit_refused(proc));
}

// KFD_MEM_11_FreeAndCloseGiveTheChargeBack's first rows: true when a second VRAM buffer of 5/8 of
// VRAM fits after the first was freed. With the mutant the first charge stays for good: this
// test runs last.
bool freed_charge_returns(const KfdProcess& p) {
  const uint64_t size = bank_bytes(gpu_node()) / 8 * 5;
  const uint64_t va = reserve_va(size);
  uint64_t a = 0, b = 0;
  if (p.alloc(KFD_IOC_ALLOC_MEM_FLAGS_VRAM, size, va, &a) != 0) return false;
  p.free(a);
  const bool again = p.alloc(KFD_IOC_ALLOC_MEM_FLAGS_VRAM, size, va, &b) == 0;
  if (again) p.free(b);
  ::munmap(reinterpret_cast<void*>(va), size);
  return again;
}

TEST_F(KfdTest, KFD_MEM_11_FreeKeepsMemChargeIsCaught) {
  EXPECT_TRUE(freed_charge_returns(proc));
  Planted m(KfdMutant::FreeKeepsMemCharge);
  EXPECT_FALSE(freed_charge_returns(proc));
}

}  // namespace
}  // namespace kfdconf
