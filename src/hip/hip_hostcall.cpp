// hip/hip_hostcall.cpp - the device's hostcall buffer in fine-grained memory and the listener thread
// that serves its packets (HIP-PRINTF-1).
//
// The ISA interpreter runs a whole dispatch on the GPU model's thread, and a wave that made a
// hostcall spins (s_sleep, loads of its packet's control word) until the reply: the service
// therefore runs on a thread of its own, which the doorbell signal wakes. The GPU model raises
// no interrupt for the doorbell's s_sendmsg, so the listener's wait is bounded (1 ms) and it
// looks at the ready stack after every wait.
#include "hip/hip_hostcall.h"

#include <hsa/hsa.h>
#include <hsa/hsa_ext_amd.h>

#include <atomic>
#include <cstddef>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <thread>

#include "clr/device.h"
#include "clr/program.h"

namespace rocref::hip {
namespace {

// The layout the device libraries' __ockl_hostcall_internal reads and writes.
struct PacketHeader {
  uint64_t next;        // tagged pointer: the next packet of the stack this one is on
  uint64_t activemask;  // lanes whose payload slot holds a request
  uint32_t service;
  uint32_t control;  // bit 0: READY, the wave waits for the host to clear it
};
struct Payload {
  uint64_t slots[64][8];
};
struct BufferHeader {
  uint64_t headers;      // PacketHeader[num_packets]
  uint64_t payloads;     // Payload[num_packets]
  uint64_t doorbell;     // hsa_signal_t the waves add 1 to
  uint64_t free_stack;   // tagged pointer
  uint64_t ready_stack;  // tagged pointer
  uint64_t index_mask;   // the packet index bits of a tagged pointer
};
static_assert(sizeof(PacketHeader) == 24 && offsetof(PacketHeader, activemask) == 8 &&
              offsetof(PacketHeader, service) == 16 && offsetof(PacketHeader, control) == 20);
static_assert(offsetof(BufferHeader, doorbell) == 16 && offsetof(BufferHeader, free_stack) == 24 &&
              offsetof(BufferHeader, ready_stack) == 32 && offsetof(BufferHeader, index_mask) == 40);
static_assert(sizeof(Payload) == 4096);

constexpr uint32_t kReadyFlag = 1;

size_t align_up(size_t v, size_t a) { return (v + a - 1) / a * a; }

class Listener {
 public:
  static Listener& get() {
    static Listener* listener = new Listener;  // lives to the end: its thread may outlast statics
    return *listener;
  }

  // The buffer of `device`, made on first use; nullptr when memory or the signal failed.
  BufferHeader* buffer(clr::Device& device) {
    std::lock_guard lock(mutex_);
    for (const auto& [d, b] : buffers_) {
      if (d == &device) return b;
    }
    if (!start()) return nullptr;
    // One packet per wave slot of the device (gfx9: 40 waves per CU), as ROCclr sizes it.
    const uint32_t cus = device.info().compute_units != 0 ? device.info().compute_units : 1;
    uint32_t packets = 2;
    while (packets < cus * 40) packets *= 2;
    const size_t headers_at = align_up(sizeof(BufferHeader), alignof(PacketHeader));
    const size_t payloads_at = align_up(headers_at + packets * sizeof(PacketHeader), alignof(Payload));
    const size_t size = payloads_at + packets * sizeof(Payload);
    void* memory = nullptr;
    if (hsa_amd_memory_pool_allocate(device.host_pool(), size, 0, &memory) != HSA_STATUS_SUCCESS) return nullptr;
    const auto agents = device.access_agents();
    if (hsa_amd_agents_allow_access(static_cast<uint32_t>(agents.size()), agents.data(), nullptr, memory) !=
        HSA_STATUS_SUCCESS) {
      hsa_amd_memory_pool_free(memory);
      return nullptr;
    }
    std::memset(memory, 0, size);
    auto* b = static_cast<BufferHeader*>(memory);
    auto* base = static_cast<uint8_t*>(memory);
    b->headers = reinterpret_cast<uint64_t>(base + headers_at);
    b->payloads = reinterpret_cast<uint64_t>(base + payloads_at);
    b->doorbell = doorbell_.handle;
    b->index_mask = packets - 1;
    // The free stack holds every packet; index 0's pointer carries tag 1 so that it is not null.
    auto* h = reinterpret_cast<PacketHeader*>(b->headers);
    uint64_t next = b->index_mask + 1;
    h[0].next = 0;
    for (uint32_t i = 1; i < packets; ++i) {
      h[i].next = next;
      next = i;
    }
    b->free_stack = next;
    b->ready_stack = 0;
    std::atomic_thread_fence(std::memory_order_release);
    buffers_.emplace_back(&device, b);
    return b;
  }

 private:
  bool start() {
    if (thread_.joinable()) return true;
    if (hsa_signal_create(1, 0, nullptr, &doorbell_) != HSA_STATUS_SUCCESS) return false;
    uint64_t frequency = 0;
    hsa_system_get_info(HSA_SYSTEM_INFO_TIMESTAMP_FREQUENCY, &frequency);
    timeout_ = frequency != 0 ? frequency / 1000 : 1000000;
    thread_ = std::thread([this] { run(); });
    // Ended before the runtime's statics go (registered after HSA opened, so it runs first).
    std::atexit([] { Listener::get().stop(); });
    return true;
  }

  void stop() {
    if (!thread_.joinable()) return;
    stopping_.store(true, std::memory_order_release);
    hsa_signal_store_screlease(doorbell_, 0);
    thread_.join();
  }

  void run() {
    hsa_signal_value_t seen = 1;
    while (!stopping_.load(std::memory_order_acquire)) {
      seen = hsa_signal_wait_scacquire(doorbell_, HSA_SIGNAL_CONDITION_NE, seen, timeout_, HSA_WAIT_STATE_BLOCKED);
      std::lock_guard lock(mutex_);
      for (const auto& entry : buffers_) serve(entry.second);
    }
  }

  // Takes the whole ready stack; every wave has at most one packet on it, so the order across
  // packets does not reorder any one wave's calls. Lanes are served in lane order.
  void serve(BufferHeader* b) {
    uint64_t ready = __atomic_exchange_n(&b->ready_stack, 0, __ATOMIC_ACQUIRE);
    auto* headers = reinterpret_cast<PacketHeader*>(b->headers);
    auto* payloads = reinterpret_cast<Payload*>(b->payloads);
    while (ready != 0) {
      PacketHeader& h = headers[ready & b->index_mask];
      Payload& p = payloads[ready & b->index_mask];
      const uint64_t next = h.next;
      uint64_t active = h.activemask;
      while (active != 0) {
        const int lane = __builtin_ctzll(active);
        active &= active - 1;
        serve_slot(h.service, p.slots[lane]);
      }
      __atomic_store_n(&h.control, h.control & ~kReadyFlag, __ATOMIC_RELEASE);
      ready = next;
    }
  }

  void serve_slot(uint32_t service, uint64_t* slot) {
    if (service == kServiceFunctionCall) {
      // slot[0]: void (*)(uint64_t* out, const uint64_t* in); in: slot[1..7]; out: slot[0..1].
      using Function = void (*)(uint64_t*, const uint64_t*);
      uint64_t out[2] = {0, 0};
      reinterpret_cast<Function>(slot[0])(out, slot + 1);
      std::memcpy(slot, out, sizeof out);
      return;
    }
    // An unknown service or message id: ROCclr ends the process; the model answers -1 instead.
    if (service != kServicePrintf || !messages_.handle(service, slot)) slot[0] = ~uint64_t{0};
  }

  std::mutex mutex_;
  std::vector<std::pair<clr::Device*, BufferHeader*>> buffers_;
  hsa_signal_t doorbell_{0};
  uint64_t timeout_ = 0;
  std::thread thread_;
  std::atomic<bool> stopping_{false};
  HostcallMessages messages_;
};

}  // namespace

hipError_t fill_hostcall_buffer(clr::Device& device, const clr::KernelInfo& kernel, std::vector<uint8_t>* kernargs) {
  for (const code_object::KernelArg& a : kernel.args) {
    if (a.value_kind != "hidden_hostcall_buffer") continue;
    if (a.size < sizeof(uint64_t) || a.offset + sizeof(uint64_t) > kernargs->size()) return hipErrorInvalidKernelFile;
    BufferHeader* b = Listener::get().buffer(device);
    if (b == nullptr) return hipErrorOutOfMemory;
    const uint64_t address = reinterpret_cast<uint64_t>(b);
    std::memcpy(kernargs->data() + a.offset, &address, sizeof address);
  }
  return hipSuccess;
}

}  // namespace rocref::hip
