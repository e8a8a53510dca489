// tests/unit/kfd/kfd_mutant_test.cpp - the planted KFD bugs of kfd/kfd_mutant.h, each caught.
//
// Each test runs, through the raw ioctl ABI (the conformance suite's fixture), the check a
// conformance test makes, once with the mutant off (it holds) and once on (it fails).
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <thread>

#include "ipc_abi.h"
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

// KFD_MEM_13_UserptrOverStaticStorageIsPinned's registration: a .data array of this program.
alignas(4096) uint32_t g_data_pages[1024] = {1, 2, 3};

bool static_storage_registers(const KfdProcess& p) {
  const uint64_t u = reinterpret_cast<uintptr_t>(g_data_pages);
  uint64_t h = 0;
  const int r = p.alloc(KFD_IOC_ALLOC_MEM_FLAGS_USERPTR | KFD_IOC_ALLOC_MEM_FLAGS_WRITABLE, sizeof g_data_pages, u, &h,
                        nullptr, u);
  if (r == 0) p.free(h);
  return r == 0 && g_data_pages[2] == 3;
}

// Planted first: a registration moves the pages into a shared memfd, after which any check passes.
TEST_F(KfdTest, KFD_MEM_13_PrivateFileUserptrRefusedIsCaught) {
  {
    Planted m(KfdMutant::PrivateFileUserptrRefused);
    EXPECT_FALSE(static_storage_registers(proc));
  }
  EXPECT_TRUE(static_storage_registers(proc));
}

// KFD-MEM-14: true when a forked child's stores to registered stack and heap pages stay its own.
[[gnu::noinline]] bool pins_private_across_fork(const KfdProcess& p) {
  alignas(4096) volatile uint32_t stack_word[1024] = {};
  stack_word[0] = 0x1111;
  auto* heap = static_cast<uint32_t*>(std::aligned_alloc(4096, 4096));
  heap[0] = 0x2222;
  uint64_t hs = 0, hh = 0;
  const uint64_t s = reinterpret_cast<uintptr_t>(stack_word), h = reinterpret_cast<uintptr_t>(heap);
  EXPECT_EQ(p.alloc(KFD_IOC_ALLOC_MEM_FLAGS_USERPTR | KFD_IOC_ALLOC_MEM_FLAGS_WRITABLE, 4096, s, &hs, nullptr, s), 0);
  EXPECT_EQ(p.alloc(KFD_IOC_ALLOC_MEM_FLAGS_USERPTR | KFD_IOC_ALLOC_MEM_FLAGS_WRITABLE, 4096, h, &hh, nullptr, h), 0);
  const pid_t child = ::fork();
  if (child == 0) {
    stack_word[0] = 0xc1c1;
    heap[0] = 0xc2c2;
    ::_exit(0);
  }
  int status = -1;
  ::waitpid(child, &status, 0);
  const bool kept = stack_word[0] == 0x1111 && heap[0] == 0x2222;
  p.free(hs);
  p.free(hh);
  std::free(heap);
  return kept;
}

TEST_F(KfdTest, KFD_MEM_14_PinSharedAcrossForkIsCaught) {
  EXPECT_TRUE(pins_private_across_fork(proc));
  Planted m(KfdMutant::PinSharedAcrossFork);
  EXPECT_FALSE(pins_private_across_fork(proc));
}

// KFD_IOC_2_NoIoctlWritesPastTheSizeItsNumberEncodes, one row: GET_PROCESS_APERTURES_NEW (its
// answer is num_of_nodes at byte 8) called with 8 bytes; true when the guard after them holds.
bool short_answer_stays_in_bounds(const KfdProcess& p) {
  uint8_t buf[8 + 64];
  std::memset(buf, 0, 8);
  std::memset(buf + 8, 0xa5, 64);
  const unsigned long request = (3ul << 30) | (8ul << 16) | ('K' << 8) | (AMDKFD_IOC_GET_PROCESS_APERTURES_NEW & 0xff);
  p.io(request, buf);
  for (size_t i = 8; i < sizeof buf; ++i)
    if (buf[i] != 0xa5) return false;
  return true;
}

TEST_F(KfdTest, KFD_IOC_2_CopyOutWholeStructIsCaught) {
  EXPECT_TRUE(short_answer_stays_in_bounds(proc));
  Planted m(KfdMutant::CopyOutWholeStruct);
  EXPECT_FALSE(short_answer_stays_in_bounds(proc));
}

// KFD-PROC-4: true when a forked child's own KFD runs its queue (an SDMA FENCE lands).
bool forked_child_queue_runs() {
  const pid_t child = ::fork();
  if (child == 0) {
    KfdProcess p;
    if (p.open() != 0) ::_exit(2);
    KfdProcess::Buffer mem = p.userptr(4 * kPage);
    kfd_ioctl_create_queue_args a{};
    a.ring_base_address = mem.va;
    a.ring_size = 4096;
    a.read_pointer_address = mem.va + kPage;
    a.write_pointer_address = mem.va + kPage + 64;
    a.gpu_id = p.gpu_id;
    a.queue_type = KFD_IOC_QUEUE_TYPE_SDMA;
    a.queue_percentage = 100;
    if (p.io(AMDKFD_IOC_CREATE_QUEUE, &a) != 0) ::_exit(3);
    int err = 0;
    auto* page = static_cast<uint8_t*>(kfdport::mmap(nullptr, 8192, PROT_READ | PROT_WRITE, MAP_SHARED, p.fd,
                                                     static_cast<off_t>(a.doorbell_offset & ~uint64_t{8191}), &err));
    if (page == nullptr) ::_exit(4);
    auto* ring = static_cast<uint32_t*>(mem.cpu);
    const uint64_t f = mem.va + 2 * kPage;
    const uint32_t fence[] = {5, uint32_t(f), uint32_t(f >> 32), 1};
    std::memcpy(ring, fence, sizeof fence);
    std::atomic_ref<uint64_t>(*reinterpret_cast<uint64_t*>(mem.va + kPage + 64)).store(16);
    std::atomic_ref<uint64_t>(*reinterpret_cast<uint64_t*>(page + (a.doorbell_offset & 8191))).store(16);
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(3);
    while (std::atomic_ref<uint32_t>(*reinterpret_cast<uint32_t*>(f)).load() != 1 &&
           std::chrono::steady_clock::now() < deadline)
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    ::_exit(std::atomic_ref<uint32_t>(*reinterpret_cast<uint32_t*>(f)).load() == 1 ? 0 : 5);
  }
  int status = -1;
  ::waitpid(child, &status, 0);
  return WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

TEST_F(KfdTest, KFD_PROC_4_ForkKeepsParentDeviceIsCaught) {
#if defined(__SANITIZE_THREAD__)
  GTEST_SKIP() << "ThreadSanitizer cannot start threads in the child of a multi-threaded fork, and the child's "
                  "KFD runs its engines on threads; the other builds run this test";
#endif
  EXPECT_TRUE(forked_child_queue_runs());
  Planted m(KfdMutant::ForkKeepsParentDevice);
  EXPECT_FALSE(forked_child_queue_runs());
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

// KFD_IPC_4_ImportKeepsThePagesAfterTheExporterGoes's middle rows: true when a second process's
// import still reads the exporter's data after the exporter freed its buffer and allocated again.
bool import_outlives_exporter(const KfdProcess& a, const KfdProcess& b) {
  constexpr uint32_t kVram = KFD_IOC_ALLOC_MEM_FLAGS_VRAM | KFD_IOC_ALLOC_MEM_FLAGS_WRITABLE;
  const auto buf = a.buffer(kVram, kPage);
  if (!buf.cpu) return false;
  *static_cast<uint32_t*>(buf.cpu) = 0xfeedu;
  IpcExportArgs e{};
  IpcImportArgs im{};
  const uint64_t va = reserve_va(kPage);
  if (export_handle(a, buf.handle, &e) != 0 || import_handle(b, e.share_handle, va, &im) != 0) return false;
  int err = 0;
  auto* seen = static_cast<uint32_t*>(cpu_map(b, va, kPage, im.mmap_offset, &err));
  a.unmap(buf.handle);
  a.free(buf.handle);
  const auto next = a.buffer(kVram, kPage);  // first fit: the freed range, if it was given back
  const bool kept = seen && next.cpu && *seen == 0xfeedu;
  a.unmap(next.handle);
  a.free(next.handle);
  b.free(im.handle);
  return kept;
}

TEST(KfdIpcMutant, KFD_IPC_4_IpcPagesFreedWithExporterIsCaught) {
  KfdProcess a, b;
  ASSERT_EQ(a.open(), 0);
  ASSERT_EQ(b.open(), 0);
  EXPECT_TRUE(import_outlives_exporter(a, b));
  {
    Planted m(KfdMutant::IpcPagesFreedWithExporter);
    EXPECT_FALSE(import_outlives_exporter(a, b));
  }
  a.close();
  b.close();
}

// KFD_IPC_2_ImportChecksHandleDeviceAndAddress's forged rows: true when a handle differing from
// the exported one in its upper 64 bits is refused.
bool forged_handle_refused(const KfdProcess& a, const KfdProcess& b) {
  const auto buf = a.buffer(KFD_IOC_ALLOC_MEM_FLAGS_GTT | KFD_IOC_ALLOC_MEM_FLAGS_WRITABLE, kPage);
  IpcExportArgs e{};
  if (export_handle(a, buf.handle, &e) != 0) return false;
  uint32_t forged[4];
  std::memcpy(forged, e.share_handle, sizeof(forged));
  forged[3] ^= 0x100u;
  IpcImportArgs im{};
  const int r = import_handle(b, forged, reserve_va(kPage), &im);
  if (r == 0) b.free(im.handle);
  a.unmap(buf.handle);
  a.free(buf.handle);
  return r == -EINVAL;
}

TEST(KfdIpcMutant, KFD_IPC_2_ShareHandleHalfComparedIsCaught) {
  KfdProcess a, b;
  ASSERT_EQ(a.open(), 0);
  ASSERT_EQ(b.open(), 0);
  EXPECT_TRUE(forged_handle_refused(a, b));
  {
    Planted m(KfdMutant::ShareHandleHalfCompared);
    EXPECT_FALSE(forged_handle_refused(a, b));
  }
  a.close();
  b.close();
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
