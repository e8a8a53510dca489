// tests/conformance/kfd/queue_test.cpp - CREATE/DESTROY/UPDATE_QUEUE, SET_CU_MASK, AQL execution (KFD-Q-*).
#include <chrono>
#include <thread>

#include <sys/wait.h>
#include <unistd.h>

#include "kfd_fixture.h"

namespace kfdconf {
namespace {

kfd_ioctl_create_queue_args valid_args(const KfdProcess& p, uint64_t* words) {
  kfd_ioctl_create_queue_args a{};
  a.ring_base_address = reinterpret_cast<uintptr_t>(words);
  a.ring_size = 4096;
  a.write_pointer_address = reinterpret_cast<uintptr_t>(words + 600);
  a.read_pointer_address = reinterpret_cast<uintptr_t>(words + 601);
  a.gpu_id = p.gpu_id;
  a.queue_type = KFD_IOC_QUEUE_TYPE_SDMA;
  a.queue_percentage = 100;
  a.queue_priority = 7;
  return a;
}

TEST_F(KfdTest, KFD_Q_1_CreateQueueArgumentChecks) {
  alignas(4096) static uint64_t words[1024];
  auto a = valid_args(proc, words);
  auto bad = a;
  bad.gpu_id = proc.gpu_id + 1;
  EXPECT_EQ(io(AMDKFD_IOC_CREATE_QUEUE, &bad), -EINVAL) << "bad gpu_id";
  bad = a;
  bad.ring_size = 3000;
  EXPECT_EQ(io(AMDKFD_IOC_CREATE_QUEUE, &bad), -EINVAL) << "ring size not a power of two";
  bad = a;
  bad.queue_priority = KFD_MAX_QUEUE_PRIORITY + 1;
  EXPECT_EQ(io(AMDKFD_IOC_CREATE_QUEUE, &bad), -EINVAL);
  bad = a;
  bad.queue_percentage = KFD_MAX_QUEUE_PERCENTAGE + 1;
  EXPECT_EQ(io(AMDKFD_IOC_CREATE_QUEUE, &bad), -EINVAL);
  bad = a;
  bad.queue_type = 7;
  EXPECT_EQ(io(AMDKFD_IOC_CREATE_QUEUE, &bad), -524) << "amdkfd's ENOTSUPP";
  bad = a;
  bad.write_pointer_address = uint64_t{1} << 60;
  EXPECT_EQ(io(AMDKFD_IOC_CREATE_QUEUE, &bad), -EFAULT) << "kernel address";
  // KFD-Q-7: the CP's register granularity: ring base >> 8, 64-bit read and write pointers.
  bad = a;
  bad.ring_base_address += 64;
  EXPECT_EQ(io(AMDKFD_IOC_CREATE_QUEUE, &bad), -EINVAL) << "ring base not 256-byte aligned";
  bad = a;
  bad.write_pointer_address += 4;
  EXPECT_EQ(io(AMDKFD_IOC_CREATE_QUEUE, &bad), -EINVAL) << "misaligned write pointer";
  bad = a;
  bad.read_pointer_address += 2;
  EXPECT_EQ(io(AMDKFD_IOC_CREATE_QUEUE, &bad), -EINVAL) << "misaligned read pointer";
  bad = a;
  bad.queue_type = KFD_IOC_QUEUE_TYPE_COMPUTE_AQL;
  bad.write_pointer_address += 1;
  EXPECT_EQ(io(AMDKFD_IOC_CREATE_QUEUE, &bad), -EINVAL) << "misaligned AQL write pointer";
  KfdProcess unbound;
  ASSERT_EQ(unbound.open(false), 0);
  EXPECT_EQ(unbound.io(AMDKFD_IOC_CREATE_QUEUE, &a), -ESRCH) << "no VM acquired";
  unbound.close();
  ASSERT_EQ(io(AMDKFD_IOC_CREATE_QUEUE, &a), 0) << "SDMA queues are accepted";
  kfd_ioctl_destroy_queue_args d{a.queue_id, 0};
  EXPECT_EQ(io(AMDKFD_IOC_DESTROY_QUEUE, &d), 0);
  EXPECT_EQ(io(AMDKFD_IOC_DESTROY_QUEUE, &d), -EINVAL);
}

TEST_F(KfdTest, KFD_Q_2_DoorbellOffsetsAreDistinctSlotsOfOnePage) {
  alignas(4096) static uint64_t words[1024];
  std::vector<uint64_t> offsets;
  std::vector<uint32_t> ids;
  for (int i = 0; i < 4; ++i) {
    auto a = valid_args(proc, words);
    ASSERT_EQ(io(AMDKFD_IOC_CREATE_QUEUE, &a), 0);
    offsets.push_back(a.doorbell_offset);
    ids.push_back(a.queue_id);
  }
  for (size_t i = 0; i < offsets.size(); ++i) {
    EXPECT_EQ(offsets[i] >> 62, 3u);
    EXPECT_EQ((offsets[i] & ~uint64_t{8191}), (offsets[0] & ~uint64_t{8191})) << "one doorbell page";
    EXPECT_EQ(offsets[i] % 8, 0u);
    for (size_t j = 0; j < i; ++j) EXPECT_NE(offsets[i], offsets[j]);
    for (size_t j = 0; j < i; ++j) EXPECT_NE(ids[i], ids[j]);
  }
  for (uint32_t id : ids) {
    kfd_ioctl_destroy_queue_args d{id, 0};
    EXPECT_EQ(io(AMDKFD_IOC_DESTROY_QUEUE, &d), 0);
  }
}

TEST_F(KfdTest, KFD_Q_4_UpdateQueueAndCuMask) {
  alignas(4096) static uint64_t words[1024];
  auto a = valid_args(proc, words);
  ASSERT_EQ(io(AMDKFD_IOC_CREATE_QUEUE, &a), 0);
  kfd_ioctl_update_queue_args u{a.ring_base_address, a.queue_id, 4096, 50, 3};
  EXPECT_EQ(io(AMDKFD_IOC_UPDATE_QUEUE, &u), 0);
  u.queue_priority = 16;
  EXPECT_EQ(io(AMDKFD_IOC_UPDATE_QUEUE, &u), -EINVAL);
  u.queue_priority = 3;
  u.ring_size = 100;
  EXPECT_EQ(io(AMDKFD_IOC_UPDATE_QUEUE, &u), -EINVAL);
  u.ring_size = 4096;
  u.queue_id = 999;
  EXPECT_EQ(io(AMDKFD_IOC_UPDATE_QUEUE, &u), -EFAULT) << "no such queue";
  uint32_t mask[2] = {~0u, ~0u};
  kfd_ioctl_set_cu_mask_args m{a.queue_id, 64, reinterpret_cast<uintptr_t>(mask)};
  EXPECT_EQ(io(AMDKFD_IOC_SET_CU_MASK, &m), 0);
  m.num_cu_mask = 0;
  EXPECT_EQ(io(AMDKFD_IOC_SET_CU_MASK, &m), -EINVAL);
  m.num_cu_mask = 33;
  EXPECT_EQ(io(AMDKFD_IOC_SET_CU_MASK, &m), -EINVAL);
  m.num_cu_mask = 64;
  m.cu_mask_ptr = 0;
  EXPECT_EQ(io(AMDKFD_IOC_SET_CU_MASK, &m), -EFAULT);
  m.cu_mask_ptr = reinterpret_cast<uintptr_t>(mask);
  m.queue_id = 999;
  EXPECT_EQ(io(AMDKFD_IOC_SET_CU_MASK, &m), -EFAULT) << "no such queue";
  kfd_ioctl_destroy_queue_args d{a.queue_id, 0};
  EXPECT_EQ(io(AMDKFD_IOC_DESTROY_QUEUE, &d), 0);
}

// A process with an event page of GTT (as the thunk sets up) and one signal event per queue.
struct AqlTest : KfdTest {
  KfdProcess::Buffer event_page;
  void SetUp() override {
    KfdTest::SetUp();
    event_page = proc.buffer(KFD_IOC_ALLOC_MEM_FLAGS_GTT | KFD_IOC_ALLOC_MEM_FLAGS_WRITABLE, 32768);
    ASSERT_NE(event_page.cpu, nullptr);
  }
  uint32_t make_event(uint64_t* mailbox) {
    kfd_ioctl_create_event_args a{};
    const bool first = !page_given_;
    EXPECT_EQ(create_event(proc, KFD_IOC_EVENT_SIGNAL, true, &a, first ? event_page.handle : 0), 0);
    page_given_ = true;
    *mailbox = event_page.va + 8 * a.event_slot_index;
    return a.event_id;
  }
  void arm(AqlQueue& q, uint32_t index, uint32_t event_id, uint64_t mailbox) {
    amd_signal_t& s = q.signals[index];
    s.kind = AMD_SIGNAL_KIND_USER;
    s.value = 1;
    s.event_mailbox_ptr = mailbox;
    s.event_id = event_id;
  }
  uint32_t wait_one(uint32_t event_id, uint32_t timeout_ms = 10000) {
    std::vector<kfd_event_data> d(1);
    d[0].event_id = event_id;
    uint32_t result = 99;
    EXPECT_EQ(wait_events(proc, d, false, timeout_ms, &result), 0);
    return result;
  }
  bool page_given_ = false;
};

TEST_F(AqlTest, KFD_Q_3_KFD_IRQ_1_AqlPacketCompletesAndRaisesItsEvent) {
  AqlQueue q;
  ASSERT_EQ(q.create(proc), 0);
  uint64_t mailbox = 0;
  const uint32_t ev = make_event(&mailbox);
  arm(q, 0, ev, mailbox);
  q.submit_barrier(0);
  EXPECT_EQ(wait_one(ev), uint32_t(KFD_IOC_WAIT_RESULT_COMPLETE));
  EXPECT_EQ(std::atomic_ref<int64_t>(plain(q.signals[0].value)).load(), 0);
  EXPECT_EQ(std::atomic_ref<uint64_t>(plain(q.q->read_dispatch_id)).load(), 1u);
  kfd_ioctl_destroy_queue_args d{q.queue_id, 0};
  EXPECT_EQ(io(AMDKFD_IOC_DESTROY_QUEUE, &d), 0);
}

TEST_F(AqlTest, KFD_HWS_3_OversubscribedQueuesAllMakeProgress) {
  const int slots = int(properties(std::string(kTopology) + "/nodes/" + std::to_string(gpu_node()) + "/properties")
                            .at("num_cp_queues"));
  const int n = slots + 4;  // more user queues than hardware slots
  std::vector<AqlQueue> queues(n);
  std::vector<uint32_t> events(n);
  for (int i = 0; i < n; ++i) {
    ASSERT_EQ(queues[i].create(proc), 0) << i;
    uint64_t mailbox = 0;
    events[i] = make_event(&mailbox);
    for (uint32_t k = 0; k < 3; ++k) arm(queues[i], k, events[i], mailbox);
  }
  for (uint32_t round = 0; round < 3; ++round) {
    for (int i = 0; i < n; ++i) queues[i].submit_barrier(round);
    for (int i = 0; i < n; ++i) EXPECT_EQ(wait_one(events[i]), uint32_t(KFD_IOC_WAIT_RESULT_COMPLETE)) << i;
  }
  for (int i = 0; i < n; ++i) {
    EXPECT_EQ(std::atomic_ref<uint64_t>(plain(queues[i].q->read_dispatch_id)).load(), 3u) << i;
    kfd_ioctl_destroy_queue_args d{queues[i].queue_id, 0};
    EXPECT_EQ(io(AMDKFD_IOC_DESTROY_QUEUE, &d), 0);
  }
}

TEST_F(AqlTest, KFD_FAULT_1_KFD_FAULT_2_UnmappedSignalFaultsTheQueueAndRaisesTheMemoryEvent) {
  kfd_ioctl_create_event_args mem{};
  ASSERT_EQ(create_event(proc, KFD_IOC_EVENT_MEMORY, false, &mem), 0);
  AqlQueue bad, good;
  ASSERT_EQ(bad.create(proc), 0);
  ASSERT_EQ(good.create(proc), 0);
  const uint64_t hole = reserve_va(kPage);  // never given to the GPU
  bad.submit_barrier(0, hole);
  std::vector<kfd_event_data> d(1);
  d[0].event_id = mem.event_id;
  uint32_t result = 0;
  ASSERT_EQ(wait_events(proc, d, false, 10000, &result), 0);
  ASSERT_EQ(result, uint32_t(KFD_IOC_WAIT_RESULT_COMPLETE));
  EXPECT_EQ(d[0].memory_exception_data.va, hole);
  EXPECT_EQ(d[0].memory_exception_data.failure.NotPresent, 1u);
  EXPECT_EQ(d[0].memory_exception_data.gpu_id, proc.gpu_id);
  // The faulting queue stops; another queue of the same process still runs.
  uint64_t mailbox = 0;
  const uint32_t ev = make_event(&mailbox);
  arm(good, 0, ev, mailbox);
  good.submit_barrier(0);
  EXPECT_EQ(wait_one(ev), uint32_t(KFD_IOC_WAIT_RESULT_COMPLETE));
  bad.submit_barrier(1);
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  EXPECT_LE(std::atomic_ref<uint64_t>(plain(bad.q->read_dispatch_id)).load(), 1u) << "nothing launches after the fault";
}

TEST_F(AqlTest, KFD_Q_5_QueueInUnmappedMemoryFaultsWhenScheduled) {
  kfd_ioctl_create_event_args mem{};
  ASSERT_EQ(create_event(proc, KFD_IOC_EVENT_MEMORY, false, &mem), 0);
  // amd_queue_t and ring in host memory that was never registered with the GPU.
  alignas(4096) static uint64_t words[2048];
  auto* q = reinterpret_cast<amd_queue_t*>(words);
  kfd_ioctl_create_queue_args a{};
  a.ring_base_address = reinterpret_cast<uintptr_t>(&words[1024]);
  a.ring_size = 4096;
  a.write_pointer_address = reinterpret_cast<uintptr_t>(&q->write_dispatch_id);
  a.read_pointer_address = reinterpret_cast<uintptr_t>(&q->read_dispatch_id);
  a.gpu_id = proc.gpu_id;
  a.queue_type = KFD_IOC_QUEUE_TYPE_COMPUTE_AQL;
  a.queue_percentage = 100;
  ASSERT_EQ(io(AMDKFD_IOC_CREATE_QUEUE, &a), 0) << "the CP, not CREATE_QUEUE, finds the memory missing";
  std::vector<kfd_event_data> d(1);
  d[0].event_id = mem.event_id;
  uint32_t result = 0;
  ASSERT_EQ(wait_events(proc, d, false, 10000, &result), 0);
  EXPECT_EQ(result, uint32_t(KFD_IOC_WAIT_RESULT_COMPLETE));
  EXPECT_EQ(d[0].memory_exception_data.va, reinterpret_cast<uintptr_t>(q) & ~uint64_t{4095});
  kfd_ioctl_destroy_queue_args del{a.queue_id, 0};
  EXPECT_EQ(io(AMDKFD_IOC_DESTROY_QUEUE, &del), 0);
}

// The GPU used the buffer (its translation is cached); after UNMAP it must fault, not hit the TLB.
TEST_F(AqlTest, KFD_MEM_6_UnmappedBufferFaultsOnTheNextGpuAccess) {
  kfd_ioctl_create_event_args mem{};
  ASSERT_EQ(create_event(proc, KFD_IOC_EVENT_MEMORY, false, &mem), 0);
  auto buf = proc.buffer(KFD_IOC_ALLOC_MEM_FLAGS_GTT | KFD_IOC_ALLOC_MEM_FLAGS_WRITABLE, kPage);
  ASSERT_NE(buf.cpu, nullptr);
  auto* signal = static_cast<amd_signal_t*>(buf.cpu);
  signal->kind = AMD_SIGNAL_KIND_USER;
  plain(signal->value) = 1;
  AqlQueue q;
  ASSERT_EQ(q.create(proc), 0);
  q.submit_barrier(0, buf.va);
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  while (std::atomic_ref<int64_t>(plain(signal->value)).load() != 0 && std::chrono::steady_clock::now() < deadline)
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  ASSERT_EQ(std::atomic_ref<int64_t>(plain(signal->value)).load(), 0) << "the GPU completed through the mapping";
  ASSERT_EQ(proc.unmap(buf.handle), 0);
  plain(signal->value) = 1;
  q.submit_barrier(1, buf.va);
  std::vector<kfd_event_data> d(1);
  d[0].event_id = mem.event_id;
  uint32_t result = 0;
  ASSERT_EQ(wait_events(proc, d, false, 10000, &result), 0);
  EXPECT_EQ(result, uint32_t(KFD_IOC_WAIT_RESULT_COMPLETE));
  EXPECT_EQ(d[0].memory_exception_data.va, buf.va);
  EXPECT_EQ(std::atomic_ref<int64_t>(plain(signal->value)).load(), 1) << "no write through a stale translation";
}

// ROCR's SDMA completion: FENCE writes the event id into the event slot, TRAP raises the interrupt.
TEST_F(AqlTest, KFD_Q_6_SdmaQueueRunsFenceAndTrap) {
  auto mem = proc.userptr(4 * kPage);  // [0, 4K) ring, [4K) rptr, [4K + 64) wptr, [8K) fence target
  ASSERT_NE(mem.handle, 0u);
  auto* ring = static_cast<uint32_t*>(mem.cpu);
  kfd_ioctl_create_queue_args a{};
  a.ring_base_address = mem.va;
  a.ring_size = 4096;
  a.read_pointer_address = mem.va + kPage;
  a.write_pointer_address = mem.va + kPage + 64;
  a.gpu_id = proc.gpu_id;
  a.queue_type = KFD_IOC_QUEUE_TYPE_SDMA;
  a.queue_percentage = 100;
  ASSERT_EQ(io(AMDKFD_IOC_CREATE_QUEUE, &a), 0);
  int err = 0;
  auto* page = static_cast<uint8_t*>(kfdport::mmap(nullptr, 8192, PROT_READ | PROT_WRITE, MAP_SHARED, proc.fd,
                                                   static_cast<off_t>(a.doorbell_offset & ~uint64_t{8191}), &err));
  ASSERT_NE(page, nullptr) << err;
  auto* doorbell = reinterpret_cast<uint64_t*>(page + (a.doorbell_offset & 8191));
  uint64_t mailbox = 0;
  const uint32_t ev = make_event(&mailbox);
  const uint32_t packets[] = {5, static_cast<uint32_t>(mailbox), static_cast<uint32_t>(mailbox >> 32), ev,  // FENCE
                              6, ev};                                                                      // TRAP
  std::memcpy(ring, packets, sizeof packets);
  std::atomic_ref<uint64_t>(*doorbell).store(sizeof packets, std::memory_order_release);  // byte write pointer
  EXPECT_EQ(wait_one(ev), uint32_t(KFD_IOC_WAIT_RESULT_COMPLETE));
  kfd_ioctl_destroy_queue_args d{a.queue_id, 0};
  EXPECT_EQ(io(AMDKFD_IOC_DESTROY_QUEUE, &d), 0);
  kfdport::munmap(page, 8192);
}

// An SDMA queue as ROCR's BlitSdma makes one: ring, read and write pointers in USERPTR memory.
struct SdmaQueue {
  KfdProcess::Buffer mem;  // [0, 4K) ring, [4K) rptr, [4K + 64) wptr, [8K, 16K) data
  uint32_t* ring = nullptr;
  uint64_t* doorbell = nullptr;
  uint8_t* page = nullptr;
  kfd_ioctl_create_queue_args args{};
  uint64_t wptr = 0;

  int create(const KfdProcess& p) {
    mem = p.userptr(4 * kPage);
    if (!mem.handle) return -ENOMEM;
    ring = static_cast<uint32_t*>(mem.cpu);
    args.ring_base_address = mem.va;
    args.ring_size = 4096;
    args.read_pointer_address = mem.va + kPage;
    args.write_pointer_address = mem.va + kPage + 64;
    args.gpu_id = p.gpu_id;
    args.queue_type = KFD_IOC_QUEUE_TYPE_SDMA;
    args.queue_percentage = 100;
    if (const int r = p.io(AMDKFD_IOC_CREATE_QUEUE, &args)) return r;
    int err = 0;
    page = static_cast<uint8_t*>(kfdport::mmap(nullptr, 8192, PROT_READ | PROT_WRITE, MAP_SHARED, p.fd,
                                               static_cast<off_t>(args.doorbell_offset & ~uint64_t{8191}), &err));
    if (!page) return err;
    doorbell = reinterpret_cast<uint64_t*>(page + (args.doorbell_offset & 8191));
    return 0;
  }
  void submit(std::initializer_list<uint32_t> dws) {
    for (uint32_t d : dws) {
      ring[(wptr / 4) % 1024] = d;
      wptr += 4;
    }
    std::atomic_ref<uint64_t>(*doorbell).store(wptr, std::memory_order_release);  // byte write pointer
  }
  void destroy(const KfdProcess& p) {
    kfd_ioctl_destroy_queue_args d{args.queue_id, 0};
    EXPECT_EQ(p.io(AMDKFD_IOC_DESTROY_QUEUE, &d), 0);
    if (page) kfdport::munmap(page, 8192);
  }
};

uint32_t lo32(uint64_t v) { return static_cast<uint32_t>(v); }
uint32_t hi32(uint64_t v) { return static_cast<uint32_t>(v >> 32); }

// KFD-FAULT-3: an SDMA queue's GPU page fault raises the memory event as an AQL queue's does.
TEST_F(AqlTest, KFD_FAULT_3_SdmaPageFaultRaisesTheMemoryEvent) {
  kfd_ioctl_create_event_args mem{};
  ASSERT_EQ(create_event(proc, KFD_IOC_EVENT_MEMORY, false, &mem), 0);
  SdmaQueue q;
  ASSERT_EQ(q.create(proc), 0);
  const uint64_t hole = reserve_va(kPage);  // never given to the GPU
  const uint64_t dst = q.mem.va + 2 * kPage;
  q.submit({1, 63, 0, lo32(hole), hi32(hole), lo32(dst), hi32(dst)});  // COPY_LINEAR 64 bytes from the hole
  std::vector<kfd_event_data> d(1);
  d[0].event_id = mem.event_id;
  uint32_t result = 0;
  ASSERT_EQ(wait_events(proc, d, false, 10000, &result), 0);
  ASSERT_EQ(result, uint32_t(KFD_IOC_WAIT_RESULT_COMPLETE));
  EXPECT_EQ(d[0].memory_exception_data.va, hole);
  EXPECT_EQ(d[0].memory_exception_data.failure.NotPresent, 1u);
  EXPECT_EQ(d[0].memory_exception_data.gpu_id, proc.gpu_id);
  q.destroy(proc);
}

// KFD-MEM-13: USERPTR over the program's static storage: an initialised array (.data, a private
// file mapping of the executable) and a zero one (.bss). get_user_pages pins any private mapping
// the process can access; the GPU then reads the first and writes the second.
alignas(4096) uint32_t g_static_data[2048] = {0x5eed0001, 0x5eed0002, 0x5eed0003};
alignas(4096) uint32_t g_static_bss[2048];

// 0 when both arrays registered, were mapped and an SDMA copy moved 64 bytes from one to the other.
int static_storage_round_trip(const KfdProcess& proc, SdmaQueue& q) {
  const uint64_t data = reinterpret_cast<uintptr_t>(g_static_data), bss = reinterpret_cast<uintptr_t>(g_static_bss);
  uint64_t hd = 0, hb = 0;
  const uint32_t flags = KFD_IOC_ALLOC_MEM_FLAGS_USERPTR | KFD_IOC_ALLOC_MEM_FLAGS_WRITABLE;
  if (int r = proc.alloc(flags, sizeof g_static_data, data, &hd, nullptr, data)) return r;
  if (int r = proc.alloc(flags, sizeof g_static_bss, bss, &hb, nullptr, bss)) {
    proc.free(hd);
    return r;
  }
  EXPECT_EQ(proc.map(hd), 0);
  EXPECT_EQ(proc.map(hb), 0);
  EXPECT_EQ(g_static_data[2], 0x5eed0003u) << "registration keeps the contents";
  g_static_data[3] = 0x5eed0004;  // a store after registration is the GPU's to see
  auto* fence = reinterpret_cast<uint32_t*>(static_cast<uint8_t*>(q.mem.cpu) + 3 * kPage);
  const uint64_t f = q.mem.va + 3 * kPage;
  q.submit({1, 63, 0, lo32(data), hi32(data), lo32(bss + 128), hi32(bss + 128), 5, lo32(f), hi32(f), 1});
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  while (std::atomic_ref<uint32_t>(*fence).load() != 1 && std::chrono::steady_clock::now() < deadline)
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  EXPECT_EQ(std::atomic_ref<uint32_t>(*fence).load(), 1u);
  EXPECT_EQ(std::atomic_ref<uint32_t>(g_static_bss[32]).load(), 0x5eed0001u);
  EXPECT_EQ(std::atomic_ref<uint32_t>(g_static_bss[35]).load(), 0x5eed0004u);
  proc.unmap(hd);
  proc.unmap(hb);
  proc.free(hd);
  proc.free(hb);
  return 0;
}

TEST_F(AqlTest, KFD_MEM_13_UserptrOverStaticStorageIsPinned) {
  SdmaQueue q;
  ASSERT_EQ(q.create(proc), 0);
  EXPECT_EQ(static_storage_round_trip(proc, q), 0);
  q.destroy(proc);
}

// KFD-PROC-4, KFD-FAULT-3: a forked child (kfdtest's exception tests run in one) opens the KFD
// as a new process: the parent's descriptor is not its own, and its SDMA queue runs. kfdtest's
// order: a buffer mapped and unmapped, then the queue, then the memory event, then an SDMA
// WRITE_LINEAR to the unmapped buffer. Exit status 0 when the event came with the address.
int forked_child_sdma_fault(int parent_fd) {
  kfd_ioctl_get_version_args v{};
  if (kfdport::ioctl(parent_fd, AMDKFD_IOC_GET_VERSION, &v) != -EBADF) return 2;  // not the child's
  KfdProcess proc;
  if (proc.open() != 0) return 3;
  KfdProcess::Buffer buf = proc.buffer(KFD_IOC_ALLOC_MEM_FLAGS_VRAM | KFD_IOC_ALLOC_MEM_FLAGS_WRITABLE, kPage);
  if (buf.handle == 0 || proc.unmap(buf.handle) != 0) return 4;
  SdmaQueue q;
  if (q.create(proc) != 0) return 5;
  kfd_ioctl_create_event_args mem{};
  if (create_event(proc, KFD_IOC_EVENT_MEMORY, true, &mem) != 0) return 6;
  q.submit({2, lo32(buf.va), hi32(buf.va), 0, 0x02020202});  // WRITE_LINEAR, one dword
  std::vector<kfd_event_data> d(1);
  d[0].event_id = mem.event_id;
  uint32_t result = 0;
  if (wait_events(proc, d, false, 5000, &result) != 0 || result != KFD_IOC_WAIT_RESULT_COMPLETE) return 7;
  return d[0].memory_exception_data.va == buf.va ? 0 : 8;
}

TEST_F(AqlTest, KFD_FAULT_3_ForkedChildsSdmaFaultRaisesItsMemoryEvent) {
#if defined(__SANITIZE_THREAD__)
  GTEST_SKIP() << "ThreadSanitizer cannot start threads in the child of a multi-threaded fork, and the child's "
                  "KFD runs its engines on threads; the other builds run this test";
#endif
  SdmaQueue busy;  // the parent's engines are running when it forks
  ASSERT_EQ(busy.create(proc), 0);
  const pid_t child = ::fork();
  if (child == 0) ::_exit(forked_child_sdma_fault(proc.fd));
  int status = -1;
  ASSERT_EQ(::waitpid(child, &status, 0), child);
  ASSERT_TRUE(WIFEXITED(status)) << "signal " << WTERMSIG(status);
  EXPECT_EQ(WEXITSTATUS(status), 0) << "the child's step that failed (see forked_child_sdma_fault)";
  busy.destroy(proc);
}

// KFD-Q-2: a queue acts on the doorbell writes made to it, not on a value an earlier queue of the
// same doorbell slot left behind. The first queue ends at byte 48; its successor, given the slot
// and a fresh ring, must still run a 24-byte submission (an engine that started from 48 would
// skip it, or run 48 bytes of its empty ring first).
TEST_F(AqlTest, KFD_Q_2_NewQueueIgnoresTheDoorbellValueOfTheSlotsLastQueue) {
  uint64_t mailbox = 0;
  const uint32_t ev = make_event(&mailbox);
  SdmaQueue first;
  ASSERT_EQ(first.create(proc), 0);
  first.submit({5, lo32(mailbox), hi32(mailbox), ev, 6, ev, 0, 0, 0, 0, 0, 0});  // FENCE, TRAP, 6 NOPs: 48 bytes
  ASSERT_EQ(wait_one(ev), uint32_t(KFD_IOC_WAIT_RESULT_COMPLETE));
  const uint64_t slot = first.args.doorbell_offset;
  first.destroy(proc);
  SdmaQueue second;
  ASSERT_EQ(second.create(proc), 0);
  ASSERT_EQ(second.args.doorbell_offset, slot) << "the freed slot is the lowest free one";
  // Time for an engine to act on a stale value before anything is written to the new ring.
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  second.submit({5, lo32(mailbox), hi32(mailbox), ev, 6, ev});  // 24 bytes
  EXPECT_EQ(wait_one(ev), uint32_t(KFD_IOC_WAIT_RESULT_COMPLETE));
  second.destroy(proc);
}

// KFD-MEM-10: the application unmaps a USERPTR buffer the GPU used; the next GPU access is a
// VM fault delivered as the memory event (amdkfd evicts the buffer), never a host crash.
TEST_F(AqlTest, KFD_MEM_10_UnmappedUserPagesFaultTheNextGpuAccess) {
  kfd_ioctl_create_event_args mem{};
  ASSERT_EQ(create_event(proc, KFD_IOC_EVENT_MEMORY, false, &mem), 0);
  SdmaQueue q;
  ASSERT_EQ(q.create(proc), 0);
  auto user = proc.userptr(2 * kPage);
  ASSERT_NE(user.handle, 0u);
  std::memset(user.cpu, 0x5a, 2 * kPage);
  const uint64_t dst = q.mem.va + 2 * kPage;
  auto* fence = reinterpret_cast<uint32_t*>(q.mem.va + 3 * kPage);
  // COPY_LINEAR 64 bytes user -> dst, then FENCE 1: the GPU used the buffer.
  q.submit({1, 63, 0, lo32(user.va + kPage), hi32(user.va + kPage), lo32(dst), hi32(dst), 5,
            lo32(q.mem.va + 3 * kPage), hi32(q.mem.va + 3 * kPage), 1});
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  while (std::atomic_ref<uint32_t>(*fence).load() != 1 && std::chrono::steady_clock::now() < deadline)
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  ASSERT_EQ(std::atomic_ref<uint32_t>(*fence).load(), 1u);
  EXPECT_EQ(static_cast<uint8_t*>(q.mem.cpu)[2 * kPage], 0x5a);
  ASSERT_EQ(::munmap(user.cpu, 2 * kPage), 0);  // the MMU notifier's event
  q.submit({1, 63, 0, lo32(user.va + kPage), hi32(user.va + kPage), lo32(dst), hi32(dst)});
  std::vector<kfd_event_data> d(1);
  d[0].event_id = mem.event_id;
  uint32_t result = 0;
  ASSERT_EQ(wait_events(proc, d, false, 10000, &result), 0);
  ASSERT_EQ(result, uint32_t(KFD_IOC_WAIT_RESULT_COMPLETE));
  EXPECT_EQ(d[0].memory_exception_data.va, user.va + kPage);
  EXPECT_EQ(d[0].memory_exception_data.failure.NotPresent, 1u);
  q.destroy(proc);
  EXPECT_EQ(proc.unmap(user.handle), 0);
  EXPECT_EQ(proc.free(user.handle), 0);
}

// KFD-MEM-3: two USERPTR buffers over one page, the second also over the next (fresh) page,
// as ROCR locks two small host buffers that share a page. Both registrations succeed, each at
// its own GPU VA, and the GPU reaches the same pages through either: what the application writes
// after registering, and what the SDMA engine writes through one buffer, is there in the other.
TEST_F(AqlTest, KFD_MEM_3_OverlappingUserptrBuffersShareTheUsersPages) {
  SdmaQueue q;
  ASSERT_EQ(q.create(proc), 0);
  void* p = ::mmap(nullptr, 2 * kPage, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  ASSERT_NE(p, MAP_FAILED);
  auto* user = static_cast<uint8_t*>(p);
  std::memset(user, 0x11, 2 * kPage);
  const uint64_t u = reinterpret_cast<uintptr_t>(p);
  const uint32_t flags = KFD_IOC_ALLOC_MEM_FLAGS_USERPTR | KFD_IOC_ALLOC_MEM_FLAGS_WRITABLE;
  const uint64_t va_one = reserve_va(kPage), va_two = reserve_va(2 * kPage);
  uint64_t one = 0, two = 0;
  ASSERT_EQ(proc.alloc(flags, kPage, va_one, &one, nullptr, u), 0);
  ASSERT_EQ(proc.map(one), 0);
  ASSERT_EQ(proc.alloc(flags, 2 * kPage, va_two, &two, nullptr, u), 0) << "a range over a registered page";
  ASSERT_EQ(proc.map(two), 0);
  std::memset(user, 0x33, 64);
  std::memset(user + kPage, 0x44, 64);
  auto* data = static_cast<uint8_t*>(q.mem.cpu) + 2 * kPage;
  const uint64_t dst = q.mem.va + 2 * kPage;
  auto* fence = reinterpret_cast<uint32_t*>(static_cast<uint8_t*>(q.mem.cpu) + 3 * kPage);
  const uint64_t fence_va = q.mem.va + 3 * kPage;
  const auto copy = [&](uint64_t from, uint64_t to) {  // COPY_LINEAR, 64 bytes
    q.submit({1, 63, 0, lo32(from), hi32(from), lo32(to), hi32(to)});
  };
  copy(va_two, dst);
  copy(va_two + kPage, dst + 64);
  copy(va_one, dst + 128);
  copy(va_two + kPage, va_one + 256);
  q.submit({5, lo32(fence_va), hi32(fence_va), 1});  // FENCE 1
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  while (std::atomic_ref<uint32_t>(*fence).load() != 1 && std::chrono::steady_clock::now() < deadline)
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  ASSERT_EQ(std::atomic_ref<uint32_t>(*fence).load(), 1u);
  EXPECT_EQ(data[0], 0x33) << "the shared page through the second buffer";
  EXPECT_EQ(data[64], 0x44) << "the fresh page through the second buffer";
  EXPECT_EQ(data[128], 0x33) << "the shared page through the first buffer";
  EXPECT_EQ(user[256], 0x44) << "the GPU's write through the first buffer reaches the user";
  q.destroy(proc);
  for (uint64_t h : {one, two}) {
    EXPECT_EQ(proc.unmap(h), 0);
    EXPECT_EQ(proc.free(h), 0);
  }
  ::munmap(p, 2 * kPage);
}

// KFD-Q-5, AQL-MEM-1: the application frees and unmaps an AQL queue's memory (amd_queue_t,
// ring, signals) while the queue exists. The CP reaches queue memory through GPUVM at every
// access, so the queue faults (memory event) instead of the model using a pointer it kept.
TEST_F(AqlTest, KFD_Q_5_FreedQueueMemoryFaultsAndNeverCrashes) {
  kfd_ioctl_create_event_args mem{};
  ASSERT_EQ(create_event(proc, KFD_IOC_EVENT_MEMORY, false, &mem), 0);
  AqlQueue bad, good;
  ASSERT_EQ(bad.create(proc), 0);
  uint64_t mailbox = 0;
  const uint32_t ev = make_event(&mailbox);
  arm(bad, 0, ev, mailbox);
  bad.submit_barrier(0);
  ASSERT_EQ(wait_one(ev), uint32_t(KFD_IOC_WAIT_RESULT_COMPLETE)) << "the queue ran before its memory went away";
  const uint64_t ring_page = reinterpret_cast<uintptr_t>(bad.ring) + 64;  // slot 1, the next one read
  ASSERT_EQ(proc.unmap(bad.mem.handle), 0);
  ASSERT_EQ(proc.free(bad.mem.handle), 0);
  ASSERT_EQ(::munmap(bad.mem.cpu, bad.mem.size), 0);
  // Keep the range unused, so the next queue cannot be given the same addresses.
  ASSERT_NE(::mmap(bad.mem.cpu, bad.mem.size, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0), MAP_FAILED);
  // Another queue's work wakes the scheduler, which looks at every queue again.
  ASSERT_EQ(good.create(proc), 0);
  const uint32_t ev2 = make_event(&mailbox);
  arm(good, 0, ev2, mailbox);
  good.submit_barrier(0);
  EXPECT_EQ(wait_one(ev2), uint32_t(KFD_IOC_WAIT_RESULT_COMPLETE)) << "the other queue still runs";
  std::vector<kfd_event_data> d(1);
  d[0].event_id = mem.event_id;
  uint32_t result = 0;
  ASSERT_EQ(wait_events(proc, d, false, 10000, &result), 0);
  EXPECT_EQ(result, uint32_t(KFD_IOC_WAIT_RESULT_COMPLETE));
  EXPECT_EQ(d[0].memory_exception_data.va, ring_page & ~(kPage - 1));
  kfd_ioctl_destroy_queue_args del{bad.queue_id, 0};
  EXPECT_EQ(io(AMDKFD_IOC_DESTROY_QUEUE, &del), 0);
  ::munmap(bad.mem.cpu, bad.mem.size);
}

// A PM4 compute queue as libhsakmt and kfdtest make one: ring, 32-bit read pointer report and
// 64-bit write pointer in USERPTR memory, the 64-bit doorbell carrying the write pointer in dwords.
struct Pm4Queue {
  static constexpr uint32_t kRingBytes = 1024;  // 256 dwords: a few rounds wrap it
  KfdProcess::Buffer mem;                       // [0, 1K) ring, [4K) rptr, [4K + 64) wptr, [8K, 16K) data
  uint32_t* ring = nullptr;
  uint64_t* doorbell = nullptr;
  uint8_t* page = nullptr;
  kfd_ioctl_create_queue_args args{};
  uint64_t wptr = 0;  // dwords

  int create(const KfdProcess& p) {
    mem = p.userptr(4 * kPage);
    if (!mem.handle) return -ENOMEM;
    ring = static_cast<uint32_t*>(mem.cpu);
    args.ring_base_address = mem.va;
    args.ring_size = kRingBytes;
    args.read_pointer_address = mem.va + kPage;
    args.write_pointer_address = mem.va + kPage + 64;
    args.gpu_id = p.gpu_id;
    args.queue_type = KFD_IOC_QUEUE_TYPE_COMPUTE;
    args.queue_percentage = 100;
    if (const int r = p.io(AMDKFD_IOC_CREATE_QUEUE, &args)) return r;
    int err = 0;
    page = static_cast<uint8_t*>(kfdport::mmap(nullptr, 8192, PROT_READ | PROT_WRITE, MAP_SHARED, p.fd,
                                               static_cast<off_t>(args.doorbell_offset & ~uint64_t{8191}), &err));
    if (!page) return err;
    doorbell = reinterpret_cast<uint64_t*>(page + (args.doorbell_offset & 8191));
    return 0;
  }
  uint32_t* data(uint32_t i) const { return reinterpret_cast<uint32_t*>(static_cast<uint8_t*>(mem.cpu) + 2 * kPage) + i; }
  uint32_t rptr() const {
    return std::atomic_ref<uint32_t>(*reinterpret_cast<uint32_t*>(static_cast<uint8_t*>(mem.cpu) + kPage)).load();
  }
  void put(std::initializer_list<uint32_t> dws) {
    for (uint32_t d : dws) ring[(wptr++) % (kRingBytes / 4)] = d;
  }
  void ring_doorbell() {
    std::atomic_ref<uint64_t>(*reinterpret_cast<uint64_t*>(static_cast<uint8_t*>(mem.cpu) + kPage + 64)).store(wptr);
    std::atomic_ref<uint64_t>(*doorbell).store(wptr, std::memory_order_release);
  }
  // PM4 type-3 header: count = dwords - 2, opcode.
  static uint32_t header(uint32_t opcode, uint32_t dwords) { return (3u << 30) | ((dwords - 2) << 16) | (opcode << 8); }
  void write_data(uint32_t* dst, uint32_t value) {
    const uint64_t va = reinterpret_cast<uintptr_t>(dst);
    put({header(0x37, 5), 5u << 8, lo32(va), hi32(va), value});  // WRITE_DATA, dst_sel memory
  }
  // RELEASE_MEM: the event id into its event slot (64-bit data), then the interrupt with the id.
  void release_event(uint64_t mailbox, uint32_t event_id) {
    put({header(0x49, 8), 0x7u << 8, (2u << 29) | (2u << 24), lo32(mailbox), hi32(mailbox), event_id, 0, event_id});
  }
  void destroy(const KfdProcess& p) {
    kfd_ioctl_destroy_queue_args d{args.queue_id, 0};
    EXPECT_EQ(p.io(AMDKFD_IOC_DESTROY_QUEUE, &d), 0);
    if (page) kfdport::munmap(page, 8192);
  }
};

// KFD-Q-9: a COMPUTE queue runs its PM4 packets; RELEASE_MEM fires the event; the read pointer
// moves (a dword offset in the ring) and packets wrap past the ring end.
TEST_F(AqlTest, KFD_Q_9_Pm4QueueRunsWrapsAndRaisesReleaseMemEvents) {
  Pm4Queue q;
  ASSERT_EQ(q.create(proc), 0);
  uint64_t mailbox = 0;
  const uint32_t ev = make_event(&mailbox);
  for (uint32_t round = 0; round < 4; ++round) {  // 4 x (20 x 5 + 8) dwords: past the 256-dword ring end
    for (uint32_t i = 0; i < 20; ++i) q.write_data(q.data(round * 20 + i), 1000 * round + i);
    q.release_event(mailbox, ev);
    q.ring_doorbell();
    ASSERT_EQ(wait_one(ev), uint32_t(KFD_IOC_WAIT_RESULT_COMPLETE)) << round;
    for (uint32_t i = 0; i < 20; ++i) EXPECT_EQ(std::atomic_ref<uint32_t>(*q.data(round * 20 + i)).load(), 1000 * round + i);
    EXPECT_EQ(q.rptr(), q.wptr % (Pm4Queue::kRingBytes / 4)) << "read pointer: dwords consumed modulo the ring";
  }
  q.destroy(proc);
}

// KFD-Q-9: UPDATE_QUEUE with percentage 0 (or a null ring) disables the queue; 100 enables it again.
TEST_F(AqlTest, KFD_Q_9_Pm4QueueDisabledByUpdateQueueRunsNothing) {
  Pm4Queue q;
  ASSERT_EQ(q.create(proc), 0);
  uint64_t mailbox = 0;
  const uint32_t ev = make_event(&mailbox);
  kfd_ioctl_update_queue_args u{q.args.ring_base_address, q.args.queue_id, q.args.ring_size, 0, 7};
  ASSERT_EQ(io(AMDKFD_IOC_UPDATE_QUEUE, &u), 0);
  q.write_data(q.data(0), 0x77);
  q.release_event(mailbox, ev);
  q.ring_doorbell();
  // An AQL queue's packet completing shows the scheduler ran since; the PM4 queue did not.
  AqlQueue aql;
  ASSERT_EQ(aql.create(proc), 0);
  uint64_t aql_mailbox = 0;
  const uint32_t aql_ev = make_event(&aql_mailbox);
  arm(aql, 0, aql_ev, aql_mailbox);
  aql.submit_barrier(0);
  ASSERT_EQ(wait_one(aql_ev), uint32_t(KFD_IOC_WAIT_RESULT_COMPLETE));
  EXPECT_EQ(std::atomic_ref<uint32_t>(*q.data(0)).load(), 0u) << "a disabled queue runs nothing";
  EXPECT_EQ(q.rptr(), 0u);
  u.queue_percentage = 100;
  ASSERT_EQ(io(AMDKFD_IOC_UPDATE_QUEUE, &u), 0);
  ASSERT_EQ(wait_one(ev), uint32_t(KFD_IOC_WAIT_RESULT_COMPLETE));
  EXPECT_EQ(std::atomic_ref<uint32_t>(*q.data(0)).load(), 0x77u);
  kfd_ioctl_destroy_queue_args d{aql.queue_id, 0};
  EXPECT_EQ(io(AMDKFD_IOC_DESTROY_QUEUE, &d), 0);
  q.destroy(proc);
}

// PM4-DISP-2: kfdtest's way of running a kernel on a COMPUTE queue: SET_SH_REG programs
// COMPUTE_PGM_LO/HI, RSRC1/2, NUM_THREAD_X/Y/Z and USER_DATA_0.., then DISPATCH_DIRECT with
// work-group counts. The gfx900 code (llvm-mc-15 -arch=amdgcn -mcpu=gfx900 -show-encoding)
// stores s2 + tgid_x at the dword s[0:1] + 4 * tgid_x.
constexpr uint32_t kStoreKernel[] = {
    0x8e048203,              // s_lshl_b32 s4, s3, 2
    0x80000400,              // s_add_u32 s0, s0, s4
    0x82018001,              // s_addc_u32 s1, s1, 0
    0x80050302,              // s_add_u32 s5, s2, s3
    0x7e000200,              // v_mov_b32_e32 v0, s0
    0x7e020201,              // v_mov_b32_e32 v1, s1
    0x7e040205,              // v_mov_b32_e32 v2, s5
    0xdc708000, 0x007f0200,  // global_store_dword v[0:1], v2, off
    0xbf8c0f70,              // s_waitcnt vmcnt(0)
    0xbf810000,              // s_endpgm
};

// The register program and the dispatch of kStoreKernel at `code` (256-byte aligned GPU memory).
std::vector<uint32_t> store_dispatch(uint64_t code, uint64_t buffer, uint32_t value, uint32_t groups) {
  std::vector<uint32_t> out;
  auto sh = [&](uint32_t reg, std::initializer_list<uint32_t> values) {  // SET_SH_REG (0x76), offset from 0x2C00
    out.push_back(Pm4Queue::header(0x76, uint32_t(values.size()) + 2));
    out.push_back(reg - 0x2c00);
    out.insert(out.end(), values);
  };
  const uint64_t pgm = code >> 8;
  sh(0x2e04, {0, 0, 0, 64, 1, 1});                  // COMPUTE_START_X..Z, COMPUTE_NUM_THREAD_X..Z
  sh(0x2e0c, {lo32(pgm), hi32(pgm) & 0xff});        // COMPUTE_PGM_LO/HI
  sh(0x2e12, {0x000c0000, (3u << 1) | (1u << 7)});  // RSRC1; RSRC2: 3 user SGPRs, TGID_X_EN
  sh(0x2e18, {0});                                  // COMPUTE_TMPRING_SIZE
  sh(0x2e40, {lo32(buffer), hi32(buffer), value});  // COMPUTE_USER_DATA_0..2
  out.insert(out.end(), {Pm4Queue::header(0x15, 5), groups, 1, 1, 0x21});  // DISPATCH_DIRECT, COMPUTE_SHADER_EN
  return out;
}

void put_store_dispatch(Pm4Queue& q, uint64_t code, uint64_t buffer, uint32_t value, uint32_t groups) {
  for (uint32_t d : store_dispatch(code, buffer, value, groups)) q.put({d});
}

TEST_F(AqlTest, PM4_DISP_2_Pm4QueueDispatchWritesThroughAUserSgprPointer) {
  Pm4Queue q;
  ASSERT_EQ(q.create(proc), 0);
  uint64_t mailbox = 0;
  const uint32_t ev = make_event(&mailbox);
  const uint64_t code = q.mem.va + 3 * kPage;
  std::memcpy(static_cast<uint8_t*>(q.mem.cpu) + 3 * kPage, kStoreKernel, sizeof kStoreKernel);
  put_store_dispatch(q, code, reinterpret_cast<uintptr_t>(q.data(0)), 500, 3);
  // PM4-PKT-2: amdgpu's one-dword ring padding (NOP, count 0x3FFF) before the fence.
  q.put({0xffff1000u, 0xffff1000u, 0xffff1000u});
  q.release_event(mailbox, ev);
  q.ring_doorbell();
  ASSERT_EQ(wait_one(ev), uint32_t(KFD_IOC_WAIT_RESULT_COMPLETE));
  for (uint32_t g = 0; g < 3; ++g) EXPECT_EQ(std::atomic_ref<uint32_t>(*q.data(g)).load(), 500 + g) << g;
  EXPECT_EQ(std::atomic_ref<uint32_t>(*q.data(3)).load(), 0u);
  EXPECT_EQ(q.rptr(), q.wptr % (Pm4Queue::kRingBytes / 4));
  q.destroy(proc);
}

// PM4-DISP-2, KFD-FAULT-1: a store to memory the GPU does not map is a VM fault: the memory event
// names the address, and the queue runs nothing after the dispatch.
TEST_F(AqlTest, PM4_DISP_2_Pm4DispatchFaultStopsTheQueueAndRaisesTheMemoryEvent) {
  kfd_ioctl_create_event_args mem{};
  ASSERT_EQ(create_event(proc, KFD_IOC_EVENT_MEMORY, false, &mem), 0);
  Pm4Queue q;
  ASSERT_EQ(q.create(proc), 0);
  const uint64_t hole = reserve_va(kPage);  // never given to the GPU
  std::memcpy(static_cast<uint8_t*>(q.mem.cpu) + 3 * kPage, kStoreKernel, sizeof kStoreKernel);
  put_store_dispatch(q, q.mem.va + 3 * kPage, hole, 1, 1);
  q.write_data(q.data(0), 0x77);
  q.ring_doorbell();
  std::vector<kfd_event_data> d(1);
  d[0].event_id = mem.event_id;
  uint32_t result = 0;
  ASSERT_EQ(wait_events(proc, d, false, 10000, &result), 0);
  ASSERT_EQ(result, uint32_t(KFD_IOC_WAIT_RESULT_COMPLETE));
  EXPECT_EQ(d[0].memory_exception_data.va, hole);
  EXPECT_EQ(d[0].memory_exception_data.failure.NotPresent, 1u);
  EXPECT_EQ(d[0].memory_exception_data.gpu_id, proc.gpu_id);
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  EXPECT_EQ(std::atomic_ref<uint32_t>(*q.data(0)).load(), 0u) << "the queue stopped at the fault";
  q.destroy(proc);
}

// PM4-WAIT-2, PM4-EVT-1: kfdtest's Dispatch: the ring holds an INDIRECT_BUFFER to an IB of
// ACQUIRE_MEM, the register program, DISPATCH_DIRECT, NOP(2), RELEASE_MEM of 0xdeadbeef into that
// NOP's payload and WAIT_REG_MEM for it (Dispatch::BuildIb), then the ring's RELEASE_MEM event.
// A second IB waits on a host word: the queue stalls there while an AQL queue of the same
// process keeps running, and goes on when the host writes the word.
TEST_F(AqlTest, PM4_WAIT_2_KfdtestDispatchIbAndAStalledQueueThatOthersRunPast) {
  Pm4Queue q;
  ASSERT_EQ(q.create(proc), 0);
  uint64_t mailbox = 0;
  const uint32_t ev = make_event(&mailbox);
  std::memcpy(static_cast<uint8_t*>(q.mem.cpu) + 3 * kPage, kStoreKernel, sizeof kStoreKernel);
  uint32_t* ib = q.data(256);  // the data page's second KiB
  const uint64_t ib_va = q.mem.va + 2 * kPage + 1024;
  std::vector<uint32_t> body = {Pm4Queue::header(0x58, 7), 0, 0, 0, 0, 0, 0};  // ACQUIRE_MEM
  const std::vector<uint32_t> dispatch = store_dispatch(q.mem.va + 3 * kPage, q.mem.va + 2 * kPage, 40, 2);
  body.insert(body.end(), dispatch.begin(), dispatch.end());
  body.insert(body.end(), {Pm4Queue::header(0x46, 2), 0x7u | (4u << 8)});  // EVENT_WRITE CS_PARTIAL_FLUSH
  const size_t payload_index = body.size() + 1;
  const uint64_t payload = ib_va + 4 * payload_index;
  body.insert(body.end(), {Pm4Queue::header(0x10, 2), 0});  // NOP(2): one payload dword
  body.insert(body.end(),
              {Pm4Queue::header(0x49, 8), 0x7u << 8, 1u << 29, lo32(payload), hi32(payload), 0xdeadbeef, 0, 0});
  body.insert(body.end(),
              {Pm4Queue::header(0x3c, 7), 3u | (1u << 4), lo32(payload), hi32(payload), 0xdeadbeef, ~0u, 4});
  ASSERT_LT(body.size(), 128u);
  std::memcpy(ib, body.data(), body.size() * 4);
  q.put({Pm4Queue::header(0x3f, 4), lo32(ib_va), hi32(ib_va) & 0xffff, uint32_t(body.size()) | (1u << 23)});
  // The stalling IB: WAIT_REG_MEM for 1 at data(200), then a marker.
  uint32_t* ib2 = q.data(400);
  const uint64_t ib2_va = q.mem.va + 2 * kPage + 1600;
  const uint64_t flag = q.mem.va + 2 * kPage + 800, marker = q.mem.va + 2 * kPage + 804;
  const uint32_t ib2_body[] = {Pm4Queue::header(0x3c, 7), 3u | (1u << 4), lo32(flag),   hi32(flag),   1,   ~0u, 4,
                               Pm4Queue::header(0x37, 5), 5u << 8,        lo32(marker), hi32(marker), 0x55};
  std::memcpy(ib2, ib2_body, sizeof ib2_body);
  q.put({Pm4Queue::header(0x3f, 4), lo32(ib2_va), hi32(ib2_va) & 0xffff, uint32_t(std::size(ib2_body)) | (1u << 23)});
  q.release_event(mailbox, ev);
  q.ring_doorbell();
  // The AQL queue's barrier completes while the compute queue waits.
  AqlQueue aql;
  ASSERT_EQ(aql.create(proc), 0);
  uint64_t aql_mailbox = 0;
  const uint32_t aql_ev = make_event(&aql_mailbox);
  arm(aql, 0, aql_ev, aql_mailbox);
  aql.submit_barrier(0);
  ASSERT_EQ(wait_one(aql_ev), uint32_t(KFD_IOC_WAIT_RESULT_COMPLETE));
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  EXPECT_EQ(std::atomic_ref<uint32_t>(*q.data(0)).load(), 40u) << "the first IB's dispatch ran";
  EXPECT_EQ(std::atomic_ref<uint32_t>(*q.data(1)).load(), 41u);
  EXPECT_EQ(std::atomic_ref<uint32_t>(ib[payload_index]).load(), 0xdeadbeefu) << "RELEASE_MEM into the IB's NOP";
  EXPECT_EQ(std::atomic_ref<uint32_t>(*q.data(201)).load(), 0u) << "stalled at the host word";
  EXPECT_EQ(q.rptr(), 4u) << "the first INDIRECT_BUFFER completed, the second did not";
  std::atomic_ref<uint32_t>(*q.data(200)).store(1, std::memory_order_release);
  ASSERT_EQ(wait_one(ev), uint32_t(KFD_IOC_WAIT_RESULT_COMPLETE));
  EXPECT_EQ(std::atomic_ref<uint32_t>(*q.data(201)).load(), 0x55u);
  EXPECT_EQ(q.rptr(), q.wptr % (Pm4Queue::kRingBytes / 4));
  kfd_ioctl_destroy_queue_args d{aql.queue_id, 0};
  EXPECT_EQ(io(AMDKFD_IOC_DESTROY_QUEUE, &d), 0);
  q.destroy(proc);
}

}  // namespace
}  // namespace kfdconf
