// clr/virtual_gpu.h - one stream's view of the GPU: commands in, AQL packets out.
//
// ROCclr's roc::VirtualGPU role. Each command becomes one AQL packet on the
// stream's own HSA queue, written as ROCclr writes it (seed 002) but for the
// reservation: the stream's lock makes submit() the queue's one producer, so it
// is created SINGLE and reserves with hsa_queue_load_write_index_relaxed and
// hsa_queue_store_write_index_relaxed (AQL-IDX-7; ROCclr takes
// hsa_queue_add_write_index_screlease, a locked instruction per packet); then
// wait for room, copy the body, publish header+setup with one release store,
// ring the doorbell with hsa_signal_store_screlease. Every packet carries the barrier bit (a stream
// runs in order) and system-scope acquire and release fences.
//
// No launch reaches the KFD: kernel arguments go into a slice of the stream's
// kernarg ring (one kernarg-pool allocation made at creation), and each
// command's completion signal comes from the device's signal pool. Both are
// given back once the command layer has seen the command's signal reach 0
// (virtual_gpu_tracking.cpp); a full ring makes the launch wait for the
// oldest dispatch holding a slice; arguments larger than the ring get a
// one-off allocation.
#pragma once

#include <hsa/hsa.h>

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <memory>
#include <mutex>
#include <optional>
#include <vector>

#include "clr/kernarg_ring.h"
#include "clr/monitor.h"
#include "common/expected.h"
#include "common/kernel_abi.h"

namespace rocref::clr {

class Device;
class SignalPool;

struct KernelDispatch {
  uint64_t kernel_id = 0;           // a host-compiled kernel (common/kernel_abi.h), or
  uint64_t kernel_object = 0;       // a loaded code object's kernel descriptor (program.h); wins when set
  uint32_t static_group_bytes = 0;  // code objects: the kernel's own LDS, before the dynamic bytes
  uint32_t private_bytes = 0;       // code objects: private segment per work-item
  const char* name = "";
  kernel_abi::Dim3 grid_groups;  // work-groups per dimension
  kernel_abi::Dim3 block;        // work-items per work-group
  uint32_t dynamic_group_bytes = 0;
  const void* args = nullptr;    // copied into the kernarg segment by copy_args
  size_t args_size = 0;
  size_t args_align = 16;
  void (*copy_args)(void* dst, const void* src) = nullptr;  // null: plain byte copy
};

struct KernargStats {
  size_t ring_bytes = 0;
  size_t live_slices = 0;
  uint64_t slices = 0;     // slices handed out
  uint64_t reused = 0;     // of them, slices whose bytes an earlier dispatch had used
  uint64_t wraps = 0;      // times the ring went back to its start
  uint64_t full_waits = 0; // launches that waited for the GPU to free a slice
  uint64_t one_offs = 0;   // arguments larger than the ring: allocated on their own
};

class VirtualGpu {
 public:
  // As ROCclr's HSA_KERNARG_POOL_SIZE.
  static constexpr size_t kDefaultKernargRingBytes = size_t{1} << 20;
  struct Options {
    size_t kernarg_ring_bytes = kDefaultKernargRingBytes;
  };

  // The stream, or the HSA status that refused its kernarg ring or queue.
  static Expected<std::unique_ptr<VirtualGpu>, hsa_status_t> create(Device& device, Options options);
  static Expected<std::unique_ptr<VirtualGpu>, hsa_status_t> create(Device& device) {
    return create(device, Options{});
  }
  ~VirtualGpu();
  VirtualGpu(const VirtualGpu&) = delete;
  VirtualGpu& operator=(const VirtualGpu&) = delete;

  hsa_status_t launch(const KernelDispatch& dispatch);
  hsa_status_t copy(void* dst, const void* src, size_t size);
  hsa_status_t fill(void* dst, uint32_t pattern, uint32_t pattern_bytes, size_t size);
  // A barrier-AND marker packet (event record). *signal is its completion signal,
  // with one reference for the caller: give it back with the device's
  // signal_pool().release() when no longer read.
  hsa_status_t marker(hsa_signal_t* signal);
  // A barrier-AND packet that waits for `dependency` to reach 0 (stream wait on
  // event). A pool signal is kept from reuse until the packet completed; any
  // other signal the caller must keep alive until then.
  hsa_status_t wait_for(hsa_signal_t dependency);

  // Blocks until every submitted command completed; the queue's error if it failed.
  hsa_status_t synchronize();
  // Blocks until `signal` drops below 1, or the queue fails (then its error).
  hsa_status_t wait_signal(hsa_signal_t signal);
  // True when every submitted command completed (or the queue failed).
  bool idle();
  hsa_status_t error() const { return error_.load(std::memory_order_acquire); }
  Device& device() const { return device_; }
  KernargStats kernarg_stats();

 private:
  explicit VirtualGpu(Device& device);
  // A submitted command and what it holds until the command layer saw it complete.
  struct Pending {
    hsa_signal_t signal{0};               // completion signal: one pool reference
    hsa_signal_t dependency{0};           // barrier dependency: a pool reference when the pool made it
    std::optional<uint64_t> slice;        // kernarg ring ticket
    void* slice_address = nullptr;        // where that slice starts
    void* one_off = nullptr;              // kernarg allocation too large for the ring
  };
  static void on_queue_error(hsa_status_t status, hsa_queue_t* queue, void* data);
  SignalPool& pool();
  hsa_status_t submit(const void* packet, const char* what, Pending pending);
  // submit() with mutex_ held in `lock` (unlocked on return only by the planted bug).
  hsa_status_t submit_locked(const void* packet, const char* what, const Pending& pending,
                             std::unique_lock<Monitor>& lock);
  hsa_status_t launch_blit(uint64_t kernel_id, const char* name, const void* args, size_t args_size, size_t bytes);
  hsa_status_t barrier_packet(hsa_signal_t dependency, Pending pending);

  // virtual_gpu_tracking.cpp: the resources of commands in flight.
  hsa_status_t completion_signal(Pending* pending);
  // A launch's kernarg slice (none for size 0) and completion signal: both under one
  // lock while the ring has room, else through kernarg_for and completion_signal.
  // Called and returns with mutex_ held in `lock`.
  hsa_status_t launch_resources(size_t size, size_t align, void** address, Pending* pending,
                                std::unique_lock<Monitor>& lock);
  void record_slice_locked(const KernargRing::Slice& slice, size_t size, void** address, Pending* pending);
  hsa_status_t kernarg_for(size_t size, size_t align, void** address, Pending* pending);
  hsa_status_t one_off_kernarg(size_t size, size_t align, void** address, Pending* pending);
  // Gives back what every completed command at the front of pending_ holds.
  void reclaim_completed_locked();
  // A launch's half of it, before its doorbell: completed commands leave pending_ and their
  // kernarg slices go back to the ring (a ring with nothing live starts over at its base: few,
  // warm bytes); the rest waits in retired_ for give_back_retired_locked() after the doorbell,
  // so the signal pool's locks and the prefetches overlap the GPU's work on the new packet.
  void retire_completed_locked();
  void give_back_retired_locked();
  // submit_locked's step after the doorbell: give_back_retired_locked, while the GPU works.
  void after_doorbell_locked();
  void give_back_locked(const Pending& pending);
  void give_back(const Pending& pending);

  Device& device_;
  hsa_queue_t* queue_ = nullptr;
  void* kernarg_base_ = nullptr;
  // The stream's lock: its pending list, ring and stats, and, held from the reservation to
  // the doorbell, what makes submit() the queue's one producer (AQL-IDX-7).
  Monitor mutex_;
  std::optional<KernargRing> ring_;  // set once in create()
  KernargStats stats_;
  std::deque<Pending> pending_;
  // Completed commands whose signals a launch gives back after its doorbell; empty whenever
  // mutex_ is free.
  std::vector<Pending> retired_;
  static constexpr uint64_t kProbeEvery = 8;
  uint64_t launches_unprobed_ = 0;  // launches since one looked for completed commands
  // The queue's read index as last acquire-loaded by submit (AQL-IDX-2): a slot below it + size
  // is free without another load, so a launch reads the line the packet processor writes
  // only when the ring looks full from what it saw. Atomic: the planted SubmitWithoutStreamLock
  // submits unlocked.
  std::atomic<uint64_t> read_index_seen_{0};
  std::atomic<hsa_status_t> error_{HSA_STATUS_SUCCESS};
};

}  // namespace rocref::clr
