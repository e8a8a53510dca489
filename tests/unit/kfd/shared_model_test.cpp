// tests/unit/kfd/shared_model_test.cpp - the shared model: one daemon, several processes (KFD-MP-*).
//
// The test process only orchestrates: it forks a daemon (a KfdServer over its own KfdDevice, from
// the driver with its planted bugs switchable) and worker processes that reach it as every process
// under `rocref exec --shared` does, through KfdDevice::instance() with ROCREF_KFD_SOCKET set (the
// conformance suite's raw-ABI fixture over kfd_port_model.cpp). Workers take one command at a
// time over a pipe and answer with what the driver answered them.
#include <gtest/gtest.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <functional>
#include <string>
#include <thread>

#include "kfd/kfd_device.h"
#include "kfd/kfd_mutant.h"
#include "kfd/kfd_server.h"
#include "kfd_fixture.h"

namespace kfdconf {
namespace {

using rocref::kfd::KfdMutant;

constexpr uint32_t kVram = KFD_IOC_ALLOC_MEM_FLAGS_VRAM | KFD_IOC_ALLOC_MEM_FLAGS_WRITABLE;
constexpr uint64_t kBig = uint64_t{256} << 20;

struct Planted {
  explicit Planted(KfdMutant m) : m_(m) { rocref::kfd::set_kfd_mutant(m_, true); }
  ~Planted() { rocref::kfd::set_kfd_mutant(m_, false); }
  KfdMutant m_;
};

// Named once, by the test process: daemons and workers are its forks.
const std::string& socket_path() {
  static const std::string path = "/tmp/rocref-shared-test-" + std::to_string(::getpid()) + ".sock";
  return path;
}

// The daemon: a forked process serving a fresh one-GPU device until it is killed.
struct Daemon {
  pid_t pid = -1;
  Daemon() {
    ::unlink(socket_path().c_str());
    int ready[2];
    EXPECT_EQ(::pipe(ready), 0);
    pid = ::fork();
    if (pid == 0) {
      ::close(ready[0]);
      rocref::kfd::KfdDevice device(1);
      rocref::kfd::KfdServer server(device, socket_path());
      const int rc = server.listen();
      (void)!::write(ready[1], &rc, sizeof rc);
      if (rc == 0) server.run(std::chrono::milliseconds(0));
      ::_exit(0);
    }
    ::close(ready[1]);
    int rc = -1;
    EXPECT_EQ(::read(ready[0], &rc, sizeof rc), static_cast<ssize_t>(sizeof rc));
    EXPECT_EQ(rc, 0);
    ::close(ready[0]);
  }
  ~Daemon() {
    ::kill(pid, SIGKILL);
    ::waitpid(pid, nullptr, 0);
    ::unlink(socket_path().c_str());
  }
};

struct Answer {
  int64_t rc = -1;
  uint64_t a = 0, b = 0;
};
struct Command {
  char op = 0;
  uint64_t arg = 0, arg2 = 0;
};

// One process of the shared machine. Its state lives in the child; the commands:
//   o: open /dev/kfd (and a render node, ACQUIRE_VM)    m: AMDKFD_IOC_AVAILABLE_MEMORY
//   a: allocate, map and mmap arg bytes of VRAM, filled with 0x5a -> (rc, va)
//   c: check that the last buffer still holds 0x5a        t: a digest of the topology files
//   u: ioctls with user pointers inside (MAP's device ids, APERTURES_NEW, WAIT_EVENTS' list)
//   q: an AQL queue whose barrier decrements a signal -> rc 0 when it completed
//   s: an AQL queue whose completion signal is aimed at arg (another process's VA) -> memory event?
//   f: fork; the child uses the inherited descriptor, then opens its own -> (inherited rc, own rc)
//   x: exit
struct Worker {
  pid_t pid = -1;
  int to = -1, from = -1;

  Worker() {
    int down[2], up[2];
    EXPECT_EQ(::pipe(down), 0);
    EXPECT_EQ(::pipe(up), 0);
    pid = ::fork();
    if (pid == 0) {
      ::close(down[1]);
      ::close(up[0]);
      serve(down[0], up[1]);
      ::_exit(0);
    }
    ::close(down[0]);
    ::close(up[1]);
    to = down[1];
    from = up[0];
  }
  ~Worker() {
    if (pid > 0) {
      ::kill(pid, SIGKILL);
      ::waitpid(pid, nullptr, 0);
    }
    ::close(to);
    ::close(from);
  }
  Answer ask(char op, uint64_t arg = 0, uint64_t arg2 = 0) const {
    Command c{op, arg, arg2};
    Answer r;
    r.rc = -999;
    if (::write(to, &c, sizeof c) != static_cast<ssize_t>(sizeof c)) return r;
    pollfd p{from, POLLIN, 0};
    if (::poll(&p, 1, 30000) != 1 || ::read(from, &r, sizeof r) != static_cast<ssize_t>(sizeof r)) r.rc = -998;
    return r;
  }
  void kill9() {
    ::kill(pid, SIGKILL);
    ::waitpid(pid, nullptr, 0);
    pid = -1;
  }

  static void serve(int in, int out) {
    KfdProcess p;
    KfdProcess::Buffer last;
    for (;;) {
      Command c;
      if (::read(in, &c, sizeof c) != static_cast<ssize_t>(sizeof c)) return;
      Answer r;
      switch (c.op) {
        case 'o': r.rc = p.open(); break;
        case 'm':
          r.rc = 0;
          r.a = p.available();
          break;
        case 'a':
          last = p.buffer(kVram, c.arg);
          r.rc = last.cpu ? 0 : -ENOMEM;
          if (last.cpu) std::memset(last.cpu, 0x5a, c.arg);
          r.a = last.va;
          break;
        case 'c': {
          r.rc = 0;
          for (uint64_t i = 0; i < last.size; i += 512)
            if (static_cast<uint8_t*>(last.cpu)[i] != 0x5a) r.rc = -1;
          break;
        }
        case 't': {
          uint64_t h = 1469598103934665603ull;
          for (const char* f : {"/nodes/0/properties", "/nodes/1/properties", "/nodes/1/gpu_id", "/generation_id"}) {
            const auto text = kfdport::read_sysfs(std::string(kTopology) + f);
            for (char ch : text.value_or("<none>")) h = (h ^ static_cast<uint8_t>(ch)) * 1099511628211ull;
          }
          r.rc = 0;
          r.a = h;
          break;
        }
        case 'u': r.rc = user_pointers(p); break;
        case 'q': r.rc = queue_runs(p); break;
        case 's': r.rc = aim_at(p, c.arg, &r.a); break;
        case 'f': r.rc = fork_child(p, &r.a, &r.b); break;
        case 'v': {  // KFD-MP-6: AMDKFD_IOC_SVM's GET_ATTR over a page of this process
          alignas(8) uint8_t buf[sizeof(kfd_ioctl_svm_args) + sizeof(kfd_ioctl_svm_attribute)] = {};
          auto* arg = reinterpret_cast<kfd_ioctl_svm_args*>(buf);
          static char page[4096] __attribute__((aligned(4096)));
          arg->start_addr = reinterpret_cast<uintptr_t>(page);
          arg->size = kPage;
          arg->op = KFD_IOCTL_SVM_OP_GET_ATTR;
          arg->nattr = 1;
          arg->attrs[0].type = KFD_IOCTL_SVM_ATTR_GRANULARITY;
          r.rc = p.io(_IOC(_IOC_READ | _IOC_WRITE, 'K', _IOC_NR(AMDKFD_IOC_SVM), sizeof buf), buf);
          break;
        }
        case 'x': return;
        default: r.rc = -EINVAL;
      }
      if (::write(out, &r, sizeof r) != static_cast<ssize_t>(sizeof r)) return;
    }
  }

  // KFD-MP-2: every user pointer inside an argument is the caller's memory.
  static int64_t user_pointers(const KfdProcess& p) {
    KfdProcess::Buffer b;
    b.va = reserve_va(kPage);
    if (p.alloc(kVram, kPage, b.va, &b.handle) != 0) return -1;
    std::vector<uint32_t> ids(3, 0);  // MAP reads the ids from n_success on
    ids[2] = p.gpu_id;
    kfd_ioctl_map_memory_to_gpu_args m{b.handle, reinterpret_cast<uintptr_t>(ids.data()), 3, 2};
    if (p.io(AMDKFD_IOC_MAP_MEMORY_TO_GPU, &m) != 0 || m.n_success != 3) return -2;
    std::vector<kfd_process_device_apertures> ap(4);
    kfd_ioctl_get_process_apertures_new_args g{reinterpret_cast<uintptr_t>(ap.data()), 4, 0};
    if (p.io(AMDKFD_IOC_GET_PROCESS_APERTURES_NEW, &g) != 0 || g.num_of_nodes != 1) return -3;
    if (ap[0].gpu_id != p.gpu_id || ap[0].gpuvm_limit == 0) return -4;
    kfd_ioctl_create_event_args ev{};
    if (create_event(p, KFD_IOC_EVENT_SIGNAL, false, &ev) != 0) return -5;
    kfd_ioctl_set_event_args s{ev.event_id, 0};
    if (p.io(AMDKFD_IOC_SET_EVENT, &s) != 0) return -6;
    std::vector<kfd_event_data> d(1);
    d[0].event_id = ev.event_id;
    uint32_t result = 0;
    if (wait_events(p, d, false, 1000, &result) != 0 || result != KFD_IOC_WAIT_RESULT_COMPLETE) return -7;
    // A bad pointer inside an argument is -EFAULT, as copy_from_user answers.
    kfd_ioctl_map_memory_to_gpu_args bad{b.handle, 16, 1, 0};
    if (p.io(AMDKFD_IOC_MAP_MEMORY_TO_GPU, &bad) != -EFAULT) return -8;
    return 0;
  }

  static int64_t queue_runs(const KfdProcess& p) {
    AqlQueue q;
    if (q.create(p) != 0) return -1;
    plain(q.signals[0].value) = 1;
    q.submit_barrier(0);
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
    while (std::atomic_ref<int64_t>(plain(q.signals[0].value)).load() != 0)
      if (std::chrono::steady_clock::now() > deadline) return -2;
    return 0;
  }

  // KFD-MP-1: another process's buffer is not in this process's GPUVM: a GPU write there faults here.
  static int64_t aim_at(const KfdProcess& p, uint64_t va, uint64_t* fault_va) {
    // Forks of one parent lay out their mappings alike: this process keeps its own allocations
    // off the other's page, so the address is nothing of its own (and nothing in its GPUVM).
    void* hole = reinterpret_cast<void*>(static_cast<uintptr_t>(va));
    if (::mmap(hole, kPage, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0) != hole) return -10;
    kfd_ioctl_create_event_args mem{};
    if (create_event(p, KFD_IOC_EVENT_MEMORY, false, &mem) != 0) return -1;
    AqlQueue q;
    if (q.create(p) != 0) return -2;
    q.submit_barrier(0, va + 64);
    std::vector<kfd_event_data> d(1);
    d[0].event_id = mem.event_id;
    uint32_t result = 0;
    if (wait_events(p, d, false, 10000, &result) != 0) return -3;
    *fault_va = d[0].memory_exception_data.va;
    return result == KFD_IOC_WAIT_RESULT_COMPLETE ? 0 : -4;
  }

  // KFD-MP-4: the inherited descriptor is refused in the child; its own open is a new process.
  static int64_t fork_child(const KfdProcess& p, uint64_t* inherited, uint64_t* own) {
    int up[2];
    if (::pipe(up) != 0) return -1;
    const pid_t child = ::fork();
    if (child == 0) {
      kfd_ioctl_get_version_args v{};
      int64_t r[2];
      r[0] = p.io(AMDKFD_IOC_GET_VERSION, &v);
      KfdProcess mine;
      r[1] = mine.open();
      if (r[1] == 0) r[1] = mine.available() != 0 ? 0 : -1;
      (void)!::write(up[1], r, sizeof r);
      ::_exit(0);
    }
    ::close(up[1]);
    int64_t r[2] = {-999, -999};
    const bool got = ::read(up[0], r, sizeof r) == static_cast<ssize_t>(sizeof r);
    ::close(up[0]);
    ::waitpid(child, nullptr, 0);
    *inherited = static_cast<uint64_t>(r[0]);
    *own = static_cast<uint64_t>(r[1]);
    return got ? 0 : -2;
  }
};

class SharedModel : public ::testing::Test {
 protected:
  void SetUp() override { ::setenv("ROCREF_KFD_SOCKET", socket_path().c_str(), 1); }
  void TearDown() override { ::unsetenv("ROCREF_KFD_SOCKET"); }
};

// Polls B's available memory until it is `want` (the release runs when the daemon sees the end).
uint64_t available_within(const Worker& w, uint64_t want) {
  uint64_t got = 0;
  for (int i = 0; i < 500 && (got = w.ask('m').a) != want; ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  return got;
}

// True when B sees A's VRAM allocation in its available memory and sees it return after A exits.
bool memory_is_shared_and_returned(bool kill) {
  Daemon daemon;
  Worker a, b;
  if (a.ask('o').rc != 0 || b.ask('o').rc != 0) return false;
  const uint64_t before = b.ask('m').a;
  if (a.ask('a', kBig).rc != 0 || a.ask('q').rc != 0) return false;
  const uint64_t during = b.ask('m').a;
  EXPECT_EQ(before - during, kBig) << "B's AVAILABLE_MEMORY shows A's VRAM";
  if (kill) a.kill9();
  else a.ask('x');
  const uint64_t after = available_within(b, before);
  EXPECT_EQ(b.ask('q').rc, 0) << "B's queue runs after A is gone";
  return before - during == kBig && after == before;
}

TEST_F(SharedModel, KFD_MP_1_TwoProcessesSeeOneTopologyAndOneMemory) {
  Daemon daemon;
  Worker a, b;
  ASSERT_EQ(a.ask('o').rc, 0);
  ASSERT_EQ(b.ask('o').rc, 0);
  EXPECT_EQ(a.ask('t').a, b.ask('t').a);
  const uint64_t before = b.ask('m').a;
  ASSERT_GT(before, kBig);
  ASSERT_EQ(a.ask('a', kBig).rc, 0);
  EXPECT_EQ(before - b.ask('m').a, kBig);
  EXPECT_EQ(a.ask('m').a, b.ask('m').a);
}

TEST_F(SharedModel, KFD_MP_1_AnotherProcesssBufferIsNotInThisGpuVm) {
  Daemon daemon;
  Worker a, b;
  ASSERT_EQ(a.ask('o').rc, 0);
  ASSERT_EQ(b.ask('o').rc, 0);
  const Answer buf = a.ask('a', kPage);
  ASSERT_EQ(buf.rc, 0);
  const Answer hit = b.ask('s', buf.a);
  EXPECT_EQ(hit.rc, 0) << "B's write to A's address faulted in B";
  EXPECT_EQ(hit.a, buf.a);
  EXPECT_EQ(a.ask('c').rc, 0) << "A's buffer is untouched";
}

TEST_F(SharedModel, KFD_MP_2_PointersInsideArgumentsAreTheCallersMemory) {
  Daemon daemon;
  Worker a;
  ASSERT_EQ(a.ask('o').rc, 0);
  EXPECT_EQ(a.ask('u').rc, 0);
  EXPECT_EQ(a.ask('q').rc, 0) << "a queue in USERPTR memory pinned by the process itself runs";
}

TEST_F(SharedModel, KFD_MP_2_SharedCopiesOwnMemoryIsCaught) {
  Planted m(KfdMutant::SharedCopiesOwnMemory);
  Daemon daemon;
  Worker a;
  ASSERT_EQ(a.ask('o').rc, 0);
  EXPECT_NE(a.ask('u').rc, 0);
}

TEST_F(SharedModel, KFD_MP_3_ExitReleasesTheProcess) { EXPECT_TRUE(memory_is_shared_and_returned(false)); }

TEST_F(SharedModel, KFD_MP_3_KillReleasesTheProcessAndOthersRun) { EXPECT_TRUE(memory_is_shared_and_returned(true)); }

TEST_F(SharedModel, KFD_MP_3_SharedEndKeepsProcessIsCaught) {
  Planted m(KfdMutant::SharedEndKeepsProcess);
  EXPECT_FALSE(memory_is_shared_and_returned(true));
}

TEST_F(SharedModel, KFD_MP_4_ForkedChildIsRefusedAndOpensItsOwn) {
  Daemon daemon;
  Worker a;
  ASSERT_EQ(a.ask('o').rc, 0);
  const Answer f = a.ask('f');
  ASSERT_EQ(f.rc, 0);
  EXPECT_EQ(static_cast<int64_t>(f.a), -EBADF) << "the inherited descriptor";
  EXPECT_EQ(static_cast<int64_t>(f.b), 0) << "the child's own open";
  EXPECT_EQ(a.ask('q').rc, 0) << "the parent's descriptor still works";
}

TEST_F(SharedModel, KFD_MP_4_SharedForkKeepsConnectionIsCaught) {
  Planted m(KfdMutant::SharedForkKeepsConnection);
  Daemon daemon;
  Worker a;
  ASSERT_EQ(a.ask('o').rc, 0);
  ASSERT_EQ(a.ask('q').rc, 0);  // a call connection in the pool the child inherits
  const Answer f = a.ask('f');
  ASSERT_EQ(f.rc, 0);
  EXPECT_NE(static_cast<int64_t>(f.a), -EBADF);
}

TEST_F(SharedModel, KFD_MP_6_SvmIsRefusedAcrossTheProcessBoundary) {
  Daemon daemon;
  Worker a;
  ASSERT_EQ(a.ask('o').rc, 0);
  EXPECT_EQ(a.ask('v').rc, -EPERM);
}

}  // namespace
}  // namespace kfdconf
