// tests/unit/kfd/hws_test.cpp - oversubscription across processes, preemption and resumption
// without loss, process queue eviction (KFD-HWS-3, -5, -6), and their planted bugs caught.
//
// Several opens of /dev/kfd (each a KFD process) make more AQL and SDMA queues than the GPU has
// slots; every queue runs a known sequence of packets, round after round, each round submitted
// while the processes are evicted and started by their restore, so every round begins
// over-subscribed. Each packet must run exactly once and in order: an AQL packet's completion
// signal goes from 1 to 0 (twice would be -1) and its start time follows the one before; an
// SDMA item copies the queue's counter into its log slot, then adds 1 to the counter, so log
// slot k holds k exactly when items 0..k-1 ran once each, in order.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#include "kfd/kfd_device.h"
#include "kfd/kfd_mutant.h"
#include "kfd_fixture.h"

namespace kfdconf {
namespace {

using rocref::kfd::KfdDevice;
using rocref::kfd::KfdMutant;

struct Planted {
  explicit Planted(KfdMutant m) : m_(m) { rocref::kfd::set_kfd_mutant(m_, true); }
  ~Planted() { rocref::kfd::set_kfd_mutant(m_, false); }
  KfdMutant m_;
};

uint32_t lo32(uint64_t v) { return static_cast<uint32_t>(v); }
uint32_t hi32(uint64_t v) { return static_cast<uint32_t>(v >> 32); }

template <typename T>
T load(const volatile T& x) {
  return std::atomic_ref<T>(const_cast<T&>(x)).load(std::memory_order_acquire);
}

// An SDMA queue as ROCR's BlitSdma makes one: [0, 4K) ring, [4K) rptr, [4K + 64) wptr,
// [8K) the counter, [8K + 8 + 8k) log slot k.
struct SdmaStream {
  KfdProcess::Buffer mem;
  uint32_t* ring = nullptr;
  uint64_t* doorbell = nullptr;
  uint8_t* page = nullptr;
  kfd_ioctl_create_queue_args args{};
  uint64_t wptr = 0;
  uint32_t items = 0;

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
  uint64_t counter_va() const { return mem.va + 2 * kPage; }
  const uint64_t* words() const {
    return reinterpret_cast<const uint64_t*>(static_cast<uint8_t*>(mem.cpu) + 2 * kPage);
  }
  uint64_t counter() const { return load(words()[0]); }
  uint64_t log(uint32_t k) const { return load(words()[1 + k]); }
  void put(uint32_t dw) {
    ring[(wptr / 4) % 1024] = dw;
    wptr += 4;
  }
  // Writes n items (COPY_LINEAR of the counter into the next log slot, ATOMIC ADD64 of 1 to the
  // counter), then one doorbell write.
  void submit(uint32_t n) {
    for (uint32_t i = 0; i < n; ++i, ++items) {
      const uint64_t dst = counter_va() + 8 + 8 * uint64_t{items};
      for (uint32_t d : {1u, 7u, 0u, lo32(counter_va()), hi32(counter_va()), lo32(dst), hi32(dst)}) put(d);
      for (uint32_t d : {10u | (47u << 25), lo32(counter_va()), hi32(counter_va()), 1u, 0u, 0u, 0u, 0u}) put(d);
    }
    std::atomic_ref<uint64_t>(*doorbell).store(wptr, std::memory_order_release);  // byte write pointer
  }
  void destroy(const KfdProcess& p) {
    kfd_ioctl_destroy_queue_args d{args.queue_id, 0};
    EXPECT_EQ(p.io(AMDKFD_IOC_DESTROY_QUEUE, &d), 0);
    if (page) kfdport::munmap(page, 8192);
  }
};

// An AQL queue whose packet k is a barrier-AND completing signal k.
struct AqlStream {
  AqlQueue q;
  uint32_t packets = 0;
  int create(const KfdProcess& p, uint32_t priority = 7) {
    const int r = q.create(p, priority);
    if (r) return r;
    for (uint32_t k = 0; k < 128; ++k) {
      q.signals[k].kind = AMD_SIGNAL_KIND_USER;
      q.signals[k].value = 1;
    }
    return 0;
  }
  void submit(uint32_t n) {
    for (uint32_t i = 0; i < n; ++i) q.submit_barrier(packets++);
  }
  int64_t signal(uint32_t k) const { return load(q.signals[k].value); }
  uint64_t read_index() const { return load(q.q->read_dispatch_id); }
  void destroy(const KfdProcess& p) {
    kfd_ioctl_destroy_queue_args d{q.queue_id, 0};
    EXPECT_EQ(p.io(AMDKFD_IOC_DESTROY_QUEUE, &d), 0);
  }
};

struct Population {
  std::vector<KfdProcess> procs;
  std::vector<std::vector<AqlStream>> aql;    // by process
  std::vector<std::vector<SdmaStream>> sdma;  // by process

  std::string create(int opens, int aql_per, int sdma_per) {
    procs.resize(opens);
    aql.resize(opens);
    sdma.resize(opens);
    for (int p = 0; p < opens; ++p) {
      if (procs[p].open() != 0) return "open " + std::to_string(p);
      aql[p] = std::vector<AqlStream>(aql_per);
      sdma[p] = std::vector<SdmaStream>(sdma_per);
      for (auto& a : aql[p])
        if (a.create(procs[p]) != 0) return "AQL queue of process " + std::to_string(p);
      for (auto& s : sdma[p])
        if (s.create(procs[p]) != 0) return "SDMA queue of process " + std::to_string(p);
    }
    return "";
  }
  void destroy() {
    for (size_t p = 0; p < procs.size(); ++p) {
      for (auto& a : aql[p]) a.destroy(procs[p]);
      for (auto& s : sdma[p]) s.destroy(procs[p]);
      procs[p].close();
    }
  }
  bool done() const {
    for (size_t p = 0; p < procs.size(); ++p) {
      for (const auto& a : aql[p])
        if (a.read_index() < a.packets || (a.packets > 0 && a.signal(a.packets - 1) > 0)) return false;
      for (const auto& s : sdma[p])
        if (s.counter() < s.items) return false;
    }
    return true;
  }
  bool wait_done(std::chrono::milliseconds limit) const {
    const auto end = std::chrono::steady_clock::now() + limit;
    while (!done()) {
      if (std::chrono::steady_clock::now() > end) return false;
      std::this_thread::sleep_for(std::chrono::microseconds(200));
    }
    return true;
  }
  // Every packet ran exactly once and in order.
  std::string check() const {
    for (size_t p = 0; p < procs.size(); ++p) {
      for (size_t i = 0; i < aql[p].size(); ++i) {
        const AqlStream& a = aql[p][i];
        const std::string at = "process " + std::to_string(p) + " AQL queue " + std::to_string(i);
        if (a.read_index() != a.packets) return at + ": read index " + std::to_string(a.read_index());
        uint64_t last_start = 0;
        for (uint32_t k = 0; k < a.packets; ++k) {
          if (a.signal(k) != 0) return at + ": packet " + std::to_string(k) + " signal " + std::to_string(a.signal(k));
          const uint64_t start = load(a.q.signals[k].start_ts);
          if (start < last_start) return at + ": packet " + std::to_string(k) + " started before the one before it";
          last_start = start;
        }
      }
      for (size_t i = 0; i < sdma[p].size(); ++i) {
        const SdmaStream& s = sdma[p][i];
        const std::string at = "process " + std::to_string(p) + " SDMA queue " + std::to_string(i);
        if (s.counter() != s.items) return at + ": counter " + std::to_string(s.counter());
        for (uint32_t k = 0; k < s.items; ++k)
          if (s.log(k) != k) return at + ": item " + std::to_string(k) + " saw " + std::to_string(s.log(k));
      }
    }
    return "";
  }
};

struct Shape {
  int opens, aql_per, sdma_per, rounds;
  uint32_t aql_per_round, sdma_per_round;
};

// The stress: returns "" when every round completed with every packet run once, in order.
std::string run_rounds(const Shape& sh, std::chrono::milliseconds limit) {
  KfdDevice& dev = KfdDevice::instance();
  Population pop;
  std::string failure = pop.create(sh.opens, sh.aql_per, sh.sdma_per);
  for (int r = 0; failure.empty() && r < sh.rounds; ++r) {
    for (const auto& p : pop.procs) dev.evict_process_queues(p.fd);
    for (int p = 0; p < sh.opens; ++p) {
      for (auto& a : pop.aql[p]) a.submit(sh.aql_per_round);
      for (auto& s : pop.sdma[p]) s.submit(sh.sdma_per_round);
    }
    for (const auto& p : pop.procs) {
      if (dev.restore_process_queues(p.fd) != 0) failure = "restore";
    }
    if (failure.empty() && !pop.wait_done(limit)) failure = "round " + std::to_string(r) + " did not complete";
    if (failure.empty()) failure = pop.check();
    if (!failure.empty()) failure = "round " + std::to_string(r) + ": " + failure;
  }
  pop.destroy();
  return failure;
}

int cp_slots() {
  return int(
      properties(std::string(kTopology) + "/nodes/" + std::to_string(gpu_node()) + "/properties").at("num_cp_queues"));
}

// 3 processes x 10 AQL queues = 30 on 24 slots, 3 x 2 SDMA queues = 6 on 4; each round's 16 AQL
// packets (4 actions each) and 24 SDMA items (2 packets each) outlast one 32-step slice, so
// queues are preempted with work pending and resumed.
constexpr Shape kStress{3, 10, 2, 4, 16, 24};

// covers: KFD-HWS-3
TEST(Hws, KFD_HWS_5_OversubscribedProcessesRunEveryPacketOnceInOrder) {
  ASSERT_EQ(cp_slots(), 24) << "gfx9's HQDs as amdgpu gives them to KFD";
  ASSERT_GT(kStress.opens * kStress.aql_per, cp_slots());
  EXPECT_EQ(run_rounds(kStress, std::chrono::milliseconds(20000)), "");
}

// covers: KFD-HWS-5
TEST(HwsMutant, KFD_HWS_5_ResumeRewindsReadPointerIsCaught) {
  Planted m(KfdMutant::ResumeRewindsReadPointer);
  // AQL queues alone: the slot before the saved read index holds a consumed (INVALID) header,
  // so the queue waits there and the round never completes.
  const std::string aql = run_rounds(Shape{3, 10, 0, 2, 16, 0}, std::chrono::milliseconds(2000));
  EXPECT_NE(aql, "");
  std::printf("caught (AQL): %s\n", aql.c_str());
  // SDMA queues alone: the last packet before the preemption runs again.
  const std::string sdma = run_rounds(Shape{3, 0, 2, 3, 0, 24}, std::chrono::milliseconds(2000));
  EXPECT_NE(sdma, "");
  std::printf("caught (SDMA): %s\n", sdma.c_str());
}

// covers: KFD-HWS-5
TEST(HwsMutant, KFD_HWS_5_PreemptDropsPendingWptrIsCaught) {
  Planted m(KfdMutant::PreemptDropsPendingWptr);
  const std::string failure = run_rounds(Shape{3, 0, 2, 3, 0, 24}, std::chrono::milliseconds(2000));
  EXPECT_NE(failure, "");
  std::printf("caught: %s\n", failure.c_str());
}

// KFD-HWS-6: evictions count; the queues run only when the last is restored; a restore without
// an eviction is -EINVAL; a queue made or updated while its process is evicted stays evicted.
std::string eviction_counts(std::chrono::milliseconds quiet) {
  KfdDevice& dev = KfdDevice::instance();
  Population pop;
  std::string failure = pop.create(1, 2, 1);
  const int fd = pop.procs.empty() ? -1 : pop.procs[0].fd;
  auto nothing_ran = [&]() -> std::string {
    std::this_thread::sleep_for(quiet);
    for (const auto& a : pop.aql[0])
      if (a.read_index() != 0 || a.signal(0) != 1) return "an AQL packet ran while evicted";
    for (const auto& s : pop.sdma[0])
      if (s.counter() != 0) return "an SDMA packet ran while evicted";
    return "";
  };
  if (failure.empty()) {
    dev.evict_process_queues(fd);
    dev.evict_process_queues(fd);
    // A queue made while the process is evicted, and an evicted queue given UPDATE_QUEUE.
    pop.aql[0].emplace_back();
    if (pop.aql[0].back().create(pop.procs[0]) != 0) failure = "queue made while evicted";
    kfd_ioctl_update_queue_args u{};
    u.queue_id = pop.aql[0][0].q.queue_id;
    u.ring_base_address = reinterpret_cast<uintptr_t>(pop.aql[0][0].q.ring);
    u.ring_size = AqlQueue::kSlots * 64;
    u.queue_percentage = 100;
    u.queue_priority = 9;
    if (failure.empty() && pop.procs[0].io(AMDKFD_IOC_UPDATE_QUEUE, &u) != 0) failure = "UPDATE_QUEUE";
    for (auto& a : pop.aql[0]) a.submit(8);
    for (auto& s : pop.sdma[0]) s.submit(8);
    if (failure.empty()) failure = nothing_ran();
    if (failure.empty() && dev.restore_process_queues(fd) != 0) failure = "first restore";
    if (failure.empty()) failure = nothing_ran();
    if (failure.empty() && dev.restore_process_queues(fd) != 0) failure = "second restore";
    if (failure.empty() && !pop.wait_done(std::chrono::milliseconds(10000))) failure = "restored queues did not run";
    if (failure.empty()) failure = pop.check();
    if (failure.empty() && dev.restore_process_queues(fd) != -EINVAL) failure = "restore without eviction";
  }
  pop.destroy();
  return failure;
}

TEST(Hws, KFD_HWS_6_EvictionsCountAndRestoreResumesTheQueues) {
  EXPECT_EQ(eviction_counts(std::chrono::milliseconds(30)), "");
  EXPECT_EQ(KfdDevice::instance().evict_process_queues(12345), -EBADF);
  EXPECT_EQ(KfdDevice::instance().restore_process_queues(12345), -EBADF);
}

// KFD-HWS-6: eviction of busy queues stops them at once (nothing more runs until the restore)
// and the restore continues them where they stopped.
TEST(Hws, KFD_HWS_6_EvictionOfBusyQueuesLosesNothing) {
  KfdDevice& dev = KfdDevice::instance();
  Population pop;
  ASSERT_EQ(pop.create(2, 2, 1), "");
  for (int round = 0; round < 3; ++round) {
    for (auto& as : pop.aql)
      for (auto& a : as) a.submit(20);
    for (auto& ss : pop.sdma)
      for (auto& s : ss) s.submit(30);
    for (const auto& p : pop.procs) ASSERT_EQ(dev.evict_process_queues(p.fd), 0);
    std::vector<uint64_t> before;
    for (size_t p = 0; p < pop.procs.size(); ++p) {
      for (const auto& a : pop.aql[p]) before.push_back(a.read_index());
      for (const auto& s : pop.sdma[p]) before.push_back(s.counter());
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    std::vector<uint64_t> after;
    for (size_t p = 0; p < pop.procs.size(); ++p) {
      for (const auto& a : pop.aql[p]) after.push_back(a.read_index());
      for (const auto& s : pop.sdma[p]) after.push_back(s.counter());
    }
    EXPECT_EQ(before, after) << "evicted queues ran (round " << round << ")";
    for (const auto& p : pop.procs) ASSERT_EQ(dev.restore_process_queues(p.fd), 0);
    ASSERT_TRUE(pop.wait_done(std::chrono::milliseconds(10000))) << round;
    EXPECT_EQ(pop.check(), "") << round;
  }
  pop.destroy();
}

// covers: KFD-HWS-6
TEST(HwsMutant, KFD_HWS_6_EvictionCountIgnoredIsCaught) {
  Planted m(KfdMutant::EvictionCountIgnored);
  const std::string failure = eviction_counts(std::chrono::milliseconds(30));
  EXPECT_NE(failure, "");
  std::printf("caught: %s\n", failure.c_str());
}

}  // namespace
}  // namespace kfdconf
