// common/engine_wake.h - wake a sleeping GPU-model engine after a doorbell store.
//
// Doorbell writes stay plain stores (no system call on the hot path). An engine
// with nothing to do announces that it sleeps, re-checks every doorbell, then
// waits on a futex; a producer, after its doorbell store, wakes it only if it
// sleeps. That is the store-buffering shape (AQL-DB-4): both sides put a
// seq_cst fence between their store and their load, or a wake-up is lost.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>

namespace rocref {

class WakeChannel {
 public:
  // Engine side. Announce sleep, then re-check for work; sleep only if none.
  void announce_sleep() noexcept;
  void cancel_sleep() noexcept;
  // Sleeps until notify() or the timeout; returns at once if notified since announce_sleep().
  void sleep_for(std::chrono::microseconds timeout) noexcept;

  // Producer side, after the doorbell store.
  void notify() noexcept;

  uint64_t wakeups() const noexcept { return wakeups_.load(std::memory_order_relaxed); }

 private:
  std::atomic<uint32_t> sleeping_{0};
  std::atomic<uint32_t> epoch_{0};
  uint32_t announced_epoch_ = 0;
  std::atomic<uint64_t> wakeups_{0};
};

// The process's doorbell listeners: each GPU-model scheduler registers its channel.
void register_doorbell_listener(WakeChannel* channel) noexcept;
void unregister_doorbell_listener(WakeChannel* channel) noexcept;

namespace detail {
// Registered listeners, plus one for good once registration could not use an
// expedited membarrier. Zero: no engine can be asleep on a doorbell.
extern std::atomic<uint32_t> g_doorbell_fence_needed;
void notify_doorbell_listeners_slow() noexcept;
}  // namespace detail

// Called on the producer's thread at every notified doorbell store, before the
// listeners are woken (the adversarial GPU model checks AQL-DB-1 and AQL-IDX-2
// there, gpu/adversary.h). Null (the default): nothing is called.
using DoorbellObserver = void (*)() noexcept;
void set_doorbell_observer(DoorbellObserver observer) noexcept;

namespace detail {
extern std::atomic<DoorbellObserver> g_doorbell_observer;
}  // namespace detail

// Called by producers after a doorbell store: with a listener, a seq_cst fence,
// then a wake of any sleeper (AQL-DB-4). With none, one relaxed load: the
// store-buffering fence is then supplied by registration, which runs
// membarrier(PRIVATE_EXPEDITED) after raising the count, so a producer that
// read zero had its doorbell store drained before the new engine re-checks.
inline void notify_doorbell_listeners() noexcept {
  // The doorbell store before this call must not sink below the count load.
  std::atomic_signal_fence(std::memory_order_seq_cst);
  if (detail::g_doorbell_fence_needed.load(std::memory_order_relaxed) == 0) return;
  detail::notify_doorbell_listeners_slow();
}

}  // namespace rocref
