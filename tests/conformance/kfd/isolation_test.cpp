// tests/conformance/kfd/isolation_test.cpp - two opens are two processes that cannot reach each other (KFD-PROC-*).
#include <chrono>
#include <thread>

#include "kfd_fixture.h"

namespace kfdconf {
namespace {

constexpr uint32_t kVram = KFD_IOC_ALLOC_MEM_FLAGS_VRAM | KFD_IOC_ALLOC_MEM_FLAGS_WRITABLE;

struct TwoProcesses : ::testing::Test {
  void SetUp() override {
    ASSERT_EQ(a.open(), 0);
    ASSERT_EQ(b.open(), 0);
  }
  void TearDown() override {
    a.close();
    b.close();
  }
  KfdProcess a, b;
};

TEST_F(TwoProcesses, KFD_PROC_1_HandlesAreProcessLocal) {
  auto buf = a.buffer(kVram, 4 * kPage);
  ASSERT_NE(buf.cpu, nullptr);
  EXPECT_EQ(b.free(buf.handle), -EINVAL);
  EXPECT_EQ(b.map(buf.handle), -EINVAL);
  EXPECT_EQ(b.unmap(buf.handle), -EINVAL);
  EXPECT_EQ(a.unmap(buf.handle), 0);
  EXPECT_EQ(a.free(buf.handle), 0);
}

TEST_F(TwoProcesses, KFD_MEM_7_RenderNodeOfOneCannotMapTheOthersBuffer) {
  auto buf = a.buffer(kVram, 4 * kPage);
  ASSERT_NE(buf.cpu, nullptr);
  int err = 0;
  EXPECT_EQ(kfdport::mmap(nullptr, 4 * kPage, PROT_READ, MAP_SHARED, b.render, static_cast<off_t>(buf.mmap_offset), &err),
            nullptr);
  EXPECT_EQ(err, -EACCES);
}

TEST_F(TwoProcesses, KFD_DB_2_DoorbellPagesAreSeparate) {
  const uint64_t off_a = kMmapDoorbell | (uint64_t{a.gpu_id} << kMmapGpuIdShift);
  int err = 0;
  auto* da = static_cast<uint64_t*>(kfdport::mmap(nullptr, 8192, PROT_READ | PROT_WRITE, MAP_SHARED, a.fd, static_cast<off_t>(off_a), &err));
  auto* db = static_cast<uint64_t*>(kfdport::mmap(nullptr, 8192, PROT_READ | PROT_WRITE, MAP_SHARED, b.fd, static_cast<off_t>(off_a), &err));
  ASSERT_TRUE(da && db);
  for (int i = 0; i < 1024; ++i) da[i] = 0x1111000000000000ull + i;
  for (int i = 0; i < 1024; ++i) ASSERT_NE(db[i], da[i]) << "process B sees A's doorbell " << i;
  kfdport::munmap(da, 8192);
  kfdport::munmap(db, 8192);
}

TEST(KfdDoorbells, KFD_DB_3_DoorbellMappingOutlivesClose) {
  KfdProcess p;
  ASSERT_EQ(p.open(), 0);
  const uint64_t off = kMmapDoorbell | (uint64_t{p.gpu_id} << kMmapGpuIdShift);
  int err = 0;
  auto* db = static_cast<uint64_t*>(kfdport::mmap(nullptr, 8192, PROT_READ | PROT_WRITE, MAP_SHARED, p.fd, static_cast<off_t>(off), &err));
  ASSERT_NE(db, nullptr) << err;
  p.close();
  db[5] = 42;  // the mapping holds the page, as a VMA holds it in the kernel
  EXPECT_EQ(db[5], 42u);
  EXPECT_EQ(kfdport::munmap(db, 8192), 0);
}

TEST_F(TwoProcesses, KFD_PROC_1_KFD_FAULT_1_OneProcessFaultIsNotTheOthers) {
  // A's VRAM, filled with a pattern; B's queue aims its completion signal at A's address.
  auto secret = a.buffer(kVram, kPage);
  ASSERT_NE(secret.cpu, nullptr);
  std::memset(secret.cpu, 0x5a, kPage);
  kfd_ioctl_create_event_args mem_a{}, mem_b{};
  ASSERT_EQ(create_event(a, KFD_IOC_EVENT_MEMORY, false, &mem_a), 0);
  ASSERT_EQ(create_event(b, KFD_IOC_EVENT_MEMORY, false, &mem_b), 0);
  AqlQueue qb;
  ASSERT_EQ(qb.create(b), 0);
  qb.submit_barrier(0, secret.va + 64);
  std::vector<kfd_event_data> d(1);
  d[0].event_id = mem_b.event_id;
  uint32_t result = 0;
  ASSERT_EQ(wait_events(b, d, false, 10000, &result), 0);
  EXPECT_EQ(result, uint32_t(KFD_IOC_WAIT_RESULT_COMPLETE)) << "B's VM does not translate A's memory";
  EXPECT_EQ(d[0].memory_exception_data.va, secret.va);
  for (uint64_t i = 0; i < kPage; ++i) ASSERT_EQ(static_cast<uint8_t*>(secret.cpu)[i], 0x5a) << i;
  std::vector<kfd_event_data> da(1);
  da[0].event_id = mem_a.event_id;
  ASSERT_EQ(wait_events(a, da, false, 0, &result), 0);
  EXPECT_EQ(result, uint32_t(KFD_IOC_WAIT_RESULT_TIMEOUT)) << "A saw no fault";
}

TEST_F(TwoProcesses, KFD_PROC_1_EventsAreProcessLocal) {
  kfd_ioctl_create_event_args ev{};
  ASSERT_EQ(create_event(a, KFD_IOC_EVENT_SIGNAL, false, &ev), 0);
  kfd_ioctl_set_event_args s{ev.event_id + 1000, 0};
  EXPECT_EQ(b.io(AMDKFD_IOC_SET_EVENT, &s), -EINVAL);
}

uint64_t wait_read_index(const AqlQueue& q, uint64_t want) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  uint64_t r = 0;
  while ((r = std::atomic_ref<uint64_t>(plain(q.q->read_dispatch_id)).load()) < want &&
         std::chrono::steady_clock::now() < deadline)
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  return r;
}

// KFD-Q-8: process A frees its AQL queue's memory while the queue exists; process B gets the same
// addresses. A's queue reaches its memory through A's GPUVM only, so it faults in A and never
// writes B's pages (the packet processor used to keep a host pointer to A's amd_queue_t).
TEST_F(TwoProcesses, KFD_Q_8_FreedQueueMemoryReusedByAnotherProcessIsNeverWritten) {
  kfd_ioctl_create_event_args mem{};
  ASSERT_EQ(create_event(a, KFD_IOC_EVENT_MEMORY, false, &mem), 0);
  AqlQueue qa;
  ASSERT_EQ(qa.create(a), 0);
  plain(qa.signals[0].value) = 1;
  qa.submit_barrier(0);
  ASSERT_EQ(wait_read_index(qa, 1), 1u) << "A's queue ran before its memory went away";
  void* where = qa.mem.cpu;
  const uint64_t size = qa.mem.size;
  ASSERT_EQ(a.unmap(qa.mem.handle), 0);
  ASSERT_EQ(a.free(qa.mem.handle), 0);
  ASSERT_EQ(::munmap(where, size), 0);
  // B maps the same addresses and gives them to its GPU.
  void* p = ::mmap(where, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
  ASSERT_EQ(p, where);
  std::memset(p, 0xa5, size);
  uint64_t hb = 0;
  const uint64_t va = reinterpret_cast<uintptr_t>(p);
  ASSERT_EQ(b.alloc(KFD_IOC_ALLOC_MEM_FLAGS_USERPTR | KFD_IOC_ALLOC_MEM_FLAGS_WRITABLE, size, va, &hb, nullptr, va), 0);
  ASSERT_EQ(b.map(hb), 0);
  // Work on another queue of A wakes the scheduler, which steps A's first queue again.
  AqlQueue qa2;
  ASSERT_EQ(qa2.create(a), 0);
  plain(qa2.signals[0].value) = 1;
  qa2.submit_barrier(0);
  EXPECT_EQ(wait_read_index(qa2, 1), 1u);
  std::vector<kfd_event_data> d(1);
  d[0].event_id = mem.event_id;
  uint32_t result = 0;
  ASSERT_EQ(wait_events(a, d, false, 10000, &result), 0);
  EXPECT_EQ(result, uint32_t(KFD_IOC_WAIT_RESULT_COMPLETE)) << "A's queue faulted in A";
  const auto* bytes = static_cast<const uint8_t*>(p);
  uint64_t changed = 0;
  for (uint64_t i = 0; i < size; ++i) changed += bytes[i] != 0xa5;
  EXPECT_EQ(changed, 0u) << "A's queue wrote B's pages";
  kfd_ioctl_destroy_queue_args del{qa.queue_id, 0};
  EXPECT_EQ(a.io(AMDKFD_IOC_DESTROY_QUEUE, &del), 0);
  del.queue_id = qa2.queue_id;
  EXPECT_EQ(a.io(AMDKFD_IOC_DESTROY_QUEUE, &del), 0);
  EXPECT_EQ(b.unmap(hb), 0);
  EXPECT_EQ(b.free(hb), 0);
  ::munmap(p, size);
}

}  // namespace
}  // namespace kfdconf
