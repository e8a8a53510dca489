// hsa/signal_object.h - an HSA signal: a real amd_signal_t plus the host's view of it.
//
// The handle is the address of the amd_signal_t (ROCR's convention), which is
// the first member of a SignalObject living in GPU-mapped system memory (the
// SignalPool), so the GPU model reaches the value and the mailbox through
// GPUVM. Value operations are common/signal.h's single atomics (HSA-SIG-1).
// Interrupt signals own a KFD event: a waiter that has spun sleeps in
// hsaKmtWaitOnEvent (HSA-SIG-4); a host update sets the event only when a
// waiter announced itself (HSA-SIG-5, a store-buffering pair: both sides fence).
#pragma once

#include <hsa/amd_hsa_signal.h>
#include <hsa/hsa.h>
#include <hsakmt.h>

#include <atomic>
#include <cstdint>
#include <mutex>
#include <vector>

#include "common/signal.h"

namespace rocref::hsa {

class Agent;

class alignas(64) SignalObject {
 public:
  static constexpr uint64_t kMagic = 0x4c474953'46455243ull;  // "CREFSIGL"
  // Upper bound of one sleep in the KFD. The 5.2.3 thunk API has no event age,
  // so with auto-reset events and several sleepers one may miss a wake; the bound
  // turns that into latency instead of a hang (ROCm/rocm-systems#10463). HSA-SIG-4.
  static constexpr uint32_t kMaxSleepMs = 4;

  amd_signal_t amd{};  // first member: handle == this

  static SignalObject* from_handle(hsa_signal_t signal) noexcept {
    return reinterpret_cast<SignalObject*>(static_cast<uintptr_t>(signal.handle));
  }
  hsa_signal_t handle() const noexcept { return {reinterpret_cast<uint64_t>(&amd)}; }
  // HSA-SIG-1: the handle is the amd_signal_t, which must sit at the object's start.
  bool handle_is_object() const noexcept {
    return reinterpret_cast<const void*>(&amd) == static_cast<const void*>(this);
  }
  bool valid() const noexcept { return magic_ == kMagic; }
  bool is_doorbell() const noexcept { return amd.kind == AMD_SIGNAL_KIND_DOORBELL; }
  bool is_interrupt() const noexcept { return event_ != nullptr; }
  HsaEvent* event() const noexcept { return event_; }

  // The value operations; doorbell signals take only stores (the doorbell is write-only).
  sig::Signal view(bool may_sleep = true) noexcept;
  int64_t load(MemoryOrder order) noexcept;
  void store(int64_t value, MemoryOrder order, bool silent = false) noexcept;

  // Async-handler thread and waiters: counted so host stores know to set the event.
  void add_waiter() noexcept { waiters_.fetch_add(1, std::memory_order_seq_cst); }
  void remove_waiter() noexcept { waiters_.fetch_sub(1, std::memory_order_seq_cst); }

  // HSA-MEM-7: the runtime's copy thread completes a signal between hold() and let_go(), and
  // SignalPool::destroy waits for let_go(): a waiter that saw the completion may destroy the
  // signal at once, as after a GPU's completion, while the completing call still reads it.
  void hold() noexcept { runtime_holds_.fetch_add(1, std::memory_order_relaxed); }
  void let_go() noexcept { runtime_holds_.fetch_sub(1, std::memory_order_release); }
  bool held() const noexcept { return runtime_holds_.load(std::memory_order_acquire) != 0; }

  // HSA-PROF-2: the GPU agent of the last profiled asynchronous copy that completes this signal
  // (ROCR's Signal::async_copy_agent): set when such a copy is submitted, never cleared.
  void set_async_copy_agent(Agent* agent) noexcept { async_copy_agent_.store(agent, std::memory_order_release); }
  Agent* async_copy_agent() const noexcept { return async_copy_agent_.load(std::memory_order_acquire); }

  // Hooks given to sig::Signal for interrupt signals.
  static void wake_hook(amd_signal_t* signal, void* context);
  static void sleep_hook(amd_signal_t* signal, int64_t observed, std::chrono::nanoseconds timeout,
                         void* context);

 private:
  friend class SignalPool;
  // Mixed access makes the class non-standard-layout (no offsetof); handle_is_object()
  // checks at run time that amd sits at the start.
  uint64_t magic_ = 0;
  HsaEvent* event_ = nullptr;
  std::atomic<uint32_t> waiters_{0};
  std::atomic<uint32_t> runtime_holds_{0};
  std::atomic<Agent*> async_copy_agent_{nullptr};
};
static_assert(sizeof(SignalObject) == 128);

// Slots for SignalObjects in GPU-mapped system memory (64 KiB blocks from the thunk).
class SignalPool {
 public:
  SignalPool() = default;
  ~SignalPool();
  SignalPool(const SignalPool&) = delete;
  SignalPool& operator=(const SignalPool&) = delete;

  // kind: AMD_SIGNAL_KIND_USER or AMD_SIGNAL_KIND_DOORBELL. interrupt: try to give it a KFD
  // event. nullptr when the thunk cannot provide memory (OUT_OF_RESOURCES).
  SignalObject* create(int64_t initial_value, amd_signal_kind64_t kind, bool interrupt);
  void destroy(SignalObject* signal);

 private:
  bool grow();

  static constexpr size_t kBlockBytes = 64 * 1024;
  std::mutex mutex_;
  std::vector<void*> blocks_;
  std::vector<SignalObject*> free_;
};

}  // namespace rocref::hsa
