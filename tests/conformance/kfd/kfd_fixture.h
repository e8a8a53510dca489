// tests/conformance/kfd/kfd_fixture.h - a KFD process for each test, and ABI helpers.
//
// Only linux/kfd_ioctl.h, the HSA queue/signal layouts and kfd_port.h are used:
// what libhsakmt and ROCR do, spelled out with raw ioctls and mmaps.
#pragma once

#include <gtest/gtest.h>
#include <hsa/amd_hsa_queue.h>
#include <hsa/amd_hsa_signal.h>
#include <hsa/hsa.h>
#include <linux/kfd_ioctl.h>
#include <sys/mman.h>

#include <atomic>
#include <cerrno>
#include <cstdint>
#include <cstring>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "kfd_port.h"

namespace kfdconf {

// ROCR's queue and signal fields are volatile; atomics work on the plain object.
template <typename T>
T& plain(volatile T& x) {
  return const_cast<T&>(x);
}

inline constexpr const char* kTopology = "/sys/devices/virtual/kfd/kfd/topology";
inline constexpr uint64_t kPage = 4096;
inline constexpr uint64_t kMmapDoorbell = uint64_t{3} << 62;
inline constexpr uint64_t kMmapGpuIdShift = 46;

inline std::map<std::string, uint64_t> properties(const std::string& path) {
  std::map<std::string, uint64_t> out;
  const auto text = kfdport::read_sysfs(path);
  if (!text) return out;
  std::istringstream in(*text);
  std::string key;
  uint64_t value;
  while (in >> key >> value) out[key] = value;
  return out;
}

inline uint32_t first_gpu_id() {
  for (int n = 0; n < 64; ++n) {
    const auto id = kfdport::read_sysfs(std::string(kTopology) + "/nodes/" + std::to_string(n) + "/gpu_id");
    if (!id) break;
    if (std::stoul(*id) != 0) return static_cast<uint32_t>(std::stoul(*id));
  }
  return 0;
}

inline int gpu_node() {
  for (int n = 0; n < 64; ++n) {
    const auto id = kfdport::read_sysfs(std::string(kTopology) + "/nodes/" + std::to_string(n) + "/gpu_id");
    if (!id) break;
    if (std::stoul(*id) != 0) return n;
  }
  return -1;
}

// Host VA reserved the way the thunk reserves its mmap-based aperture.
inline uint64_t reserve_va(uint64_t size) {
  void* p = ::mmap(nullptr, size, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  return p == MAP_FAILED ? 0 : reinterpret_cast<uintptr_t>(p);
}

// One open of the KFD: the process context every test works in.
struct KfdProcess {
  int fd = -1;
  int render = -1;
  uint32_t gpu_id = 0;

  int open(bool acquire = true) {
    gpu_id = first_gpu_id();
    fd = kfdport::open_kfd();
    if (fd < 0) return fd;
    const int node = gpu_node();
    const auto props = properties(std::string(kTopology) + "/nodes/" + std::to_string(node) + "/properties");
    render = kfdport::open_render(static_cast<uint32_t>(props.at("drm_render_minor")));
    if (render < 0) return render;
    if (!acquire) return 0;
    kfd_ioctl_acquire_vm_args vm{static_cast<uint32_t>(render), gpu_id};
    return io(AMDKFD_IOC_ACQUIRE_VM, &vm);
  }
  void close() {
    if (fd >= 0) kfdport::close(fd);
    if (render >= 0) kfdport::close(render);
    fd = render = -1;
  }
  int io(unsigned long request, void* arg) const { return kfdport::ioctl(fd, request, arg); }

  int alloc(uint32_t flags, uint64_t size, uint64_t va, uint64_t* handle, uint64_t* mmap_offset = nullptr,
            uint64_t user = 0) const {
    kfd_ioctl_alloc_memory_of_gpu_args a{};
    a.va_addr = va;
    a.size = size;
    a.gpu_id = gpu_id;
    a.flags = flags;
    a.mmap_offset = user;
    const int r = io(AMDKFD_IOC_ALLOC_MEMORY_OF_GPU, &a);
    if (r == 0) {
      *handle = a.handle;
      if (mmap_offset) *mmap_offset = a.mmap_offset;
    }
    return r;
  }
  int free(uint64_t handle) const {
    kfd_ioctl_free_memory_of_gpu_args a{handle};
    return io(AMDKFD_IOC_FREE_MEMORY_OF_GPU, &a);
  }
  int map(uint64_t handle, uint32_t* n_success = nullptr) const {
    uint32_t ids[1] = {gpu_id};
    kfd_ioctl_map_memory_to_gpu_args a{handle, reinterpret_cast<uintptr_t>(ids), 1, 0};
    const int r = io(AMDKFD_IOC_MAP_MEMORY_TO_GPU, &a);
    if (n_success) *n_success = a.n_success;
    return r;
  }
  int unmap(uint64_t handle) const {
    uint32_t ids[1] = {gpu_id};
    kfd_ioctl_unmap_memory_from_gpu_args a{handle, reinterpret_cast<uintptr_t>(ids), 1, 0};
    return io(AMDKFD_IOC_UNMAP_MEMORY_FROM_GPU, &a);
  }
  uint64_t available() const {
    kfd_ioctl_get_available_memory_args a{};
    a.gpu_id = gpu_id;
    return io(AMDKFD_IOC_AVAILABLE_MEMORY, &a) == 0 ? a.available : 0;
  }
  // A buffer as the thunk makes one: reserve VA, allocate there, map to the GPU, mmap for the CPU.
  struct Buffer {
    uint64_t va = 0, size = 0, handle = 0, mmap_offset = 0;
    void* cpu = nullptr;
  };
  Buffer buffer(uint32_t flags, uint64_t size) const {
    Buffer b;
    b.size = size;
    b.va = reserve_va(size);
    if (alloc(flags, size, b.va, &b.handle, &b.mmap_offset) != 0) return Buffer{};
    if (map(b.handle) != 0) return Buffer{};
    int err = 0;
    b.cpu = kfdport::mmap(reinterpret_cast<void*>(b.va), size, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_FIXED, render,
                          static_cast<off_t>(b.mmap_offset), &err);
    return b;
  }
  // Host memory registered as USERPTR and mapped to the GPU (ROCR's rings and signals).
  Buffer userptr(uint64_t size) const {
    Buffer b;
    b.size = size;
    void* p = ::mmap(nullptr, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) return b;
    std::memset(p, 0, size);
    b.va = reinterpret_cast<uintptr_t>(p);
    b.cpu = p;
    const uint32_t flags = KFD_IOC_ALLOC_MEM_FLAGS_USERPTR | KFD_IOC_ALLOC_MEM_FLAGS_WRITABLE |
                           KFD_IOC_ALLOC_MEM_FLAGS_EXECUTABLE;
    if (alloc(flags, size, b.va, &b.handle, nullptr, b.va) != 0 || map(b.handle) != 0) b.handle = 0;
    return b;
  }
};

class KfdTest : public ::testing::Test {
 protected:
  void SetUp() override {
    const int r = proc.open();
    if (r == -ENOENT && !kfdport::is_model()) GTEST_SKIP() << "no /dev/kfd on this machine";
    ASSERT_EQ(r, 0);
  }
  void TearDown() override { proc.close(); }
  int io(unsigned long request, void* arg) const { return proc.io(request, arg); }
  KfdProcess proc;
};

// An AQL queue set up as ROCR does: amd_queue_t, ring and signals in USERPTR memory,
// an event page of GTT passed to the first CREATE_EVENT, the doorbell page mmapped.
struct AqlQueue {
  static constexpr uint32_t kSlots = 64;
  KfdProcess::Buffer mem;          // [0, 4K) amd_queue_t, [4K, 8K) ring, [8K, 16K) signals
  amd_queue_t* q = nullptr;
  uint8_t* ring = nullptr;
  amd_signal_t* signals = nullptr;
  uint32_t queue_id = 0;
  uint64_t doorbell_offset = 0;
  uint64_t* doorbell = nullptr;

  int create(const KfdProcess& p, uint32_t priority = 7) {
    mem = p.userptr(16 * kPage);
    if (!mem.handle) return -ENOMEM;
    auto* base = static_cast<uint8_t*>(mem.cpu);
    q = reinterpret_cast<amd_queue_t*>(base);
    ring = base + kPage;
    signals = reinterpret_cast<amd_signal_t*>(base + 2 * kPage);
    q->hsa_queue.type = HSA_QUEUE_TYPE_MULTI;
    q->hsa_queue.base_address = ring;
    q->hsa_queue.size = kSlots;
    for (uint32_t i = 0; i < kSlots; ++i)
      reinterpret_cast<uint16_t*>(ring + 64 * i)[0] = HSA_PACKET_TYPE_INVALID;
    kfd_ioctl_create_queue_args a{};
    a.ring_base_address = reinterpret_cast<uintptr_t>(ring);
    a.ring_size = kSlots * 64;
    a.write_pointer_address = reinterpret_cast<uintptr_t>(&q->write_dispatch_id);
    a.read_pointer_address = reinterpret_cast<uintptr_t>(&q->read_dispatch_id);
    a.gpu_id = p.gpu_id;
    a.queue_type = KFD_IOC_QUEUE_TYPE_COMPUTE_AQL;
    a.queue_percentage = 100;
    a.queue_priority = priority;
    const int r = p.io(AMDKFD_IOC_CREATE_QUEUE, &a);
    if (r) return r;
    queue_id = a.queue_id;
    doorbell_offset = a.doorbell_offset;
    return 0;
  }
  // A barrier-AND with no dependencies; its completion signal decrements `signal`.
  void submit_barrier(uint32_t signal_index, uint64_t completion_override = 0) {
    const uint64_t id = std::atomic_ref<uint64_t>(plain(q->write_dispatch_id)).load();
    auto* slot = ring + 64 * (id % kSlots);
    hsa_barrier_and_packet_t pkt{};
    pkt.completion_signal.handle =
        completion_override ? completion_override : reinterpret_cast<uintptr_t>(&signals[signal_index]);
    std::memcpy(slot + 4, reinterpret_cast<uint8_t*>(&pkt) + 4, 60);
    const uint32_t header = HSA_PACKET_TYPE_BARRIER_AND | (HSA_FENCE_SCOPE_SYSTEM << HSA_PACKET_HEADER_ACQUIRE_FENCE_SCOPE) |
                            (HSA_FENCE_SCOPE_SYSTEM << HSA_PACKET_HEADER_RELEASE_FENCE_SCOPE);
    std::atomic_ref<uint32_t>(*reinterpret_cast<uint32_t*>(slot)).store(header, std::memory_order_release);
    std::atomic_ref<uint64_t>(plain(q->write_dispatch_id)).store(id + 1, std::memory_order_release);
    if (doorbell) std::atomic_ref<uint64_t>(*doorbell).store(id, std::memory_order_release);
  }
};

inline int wait_events(const KfdProcess& p, std::vector<kfd_event_data>& ev, bool all, uint32_t timeout_ms,
                       uint32_t* result) {
  kfd_ioctl_wait_events_args w{};
  w.events_ptr = reinterpret_cast<uintptr_t>(ev.data());
  w.num_events = static_cast<uint32_t>(ev.size());
  w.wait_for_all = all ? 1 : 0;
  w.timeout = timeout_ms;
  const int r = p.io(AMDKFD_IOC_WAIT_EVENTS, &w);
  *result = w.wait_result;
  return r;
}

inline int create_event(const KfdProcess& p, uint32_t type, bool auto_reset, kfd_ioctl_create_event_args* out,
                        uint64_t page_handle = 0) {
  kfd_ioctl_create_event_args a{};
  a.event_page_offset = page_handle;
  a.event_type = type;
  a.auto_reset = auto_reset ? 1 : 0;
  const int r = p.io(AMDKFD_IOC_CREATE_EVENT, &a);
  *out = a;
  return r;
}

}  // namespace kfdconf
