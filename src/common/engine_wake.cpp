// common/engine_wake.cpp - futex-backed sleep and wake for GPU-model engines.
#include "common/engine_wake.h"

#include <linux/futex.h>
#include <linux/membarrier.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include <array>
#include <mutex>

namespace rocref {
namespace {

long futex(std::atomic<uint32_t>* word, int op, uint32_t value, const timespec* timeout) {
  return syscall(SYS_futex, reinterpret_cast<uint32_t*>(word), op, value, timeout, nullptr, 0);
}

constexpr size_t kMaxListeners = 64;
std::array<std::atomic<WakeChannel*>, kMaxListeners> g_listeners{};
std::atomic<size_t> g_listener_high_water{0};  // slots at or past it were never used
std::mutex g_listeners_mutex;  // registration only; notify is lock-free

long membarrier(int cmd) { return syscall(SYS_membarrier, cmd, 0U, 0); }

// The heavy side of the asymmetric fence (AQL-DB-4): every running thread of
// the process executes a full barrier before this returns. False if the
// kernel cannot do it; producers then always fence.
bool expedited_barrier() noexcept {
  static const bool registered = membarrier(MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED) == 0;
  return registered && membarrier(MEMBARRIER_CMD_PRIVATE_EXPEDITED) == 0;
}

}  // namespace

namespace detail {
std::atomic<uint32_t> g_doorbell_fence_needed{0};
std::atomic<DoorbellObserver> g_doorbell_observer{nullptr};
}  // namespace detail

void set_doorbell_observer(DoorbellObserver observer) noexcept {
  detail::g_doorbell_observer.store(observer, std::memory_order_release);
}

void WakeChannel::announce_sleep() noexcept {
  announced_epoch_ = epoch_.load(std::memory_order_relaxed);
  sleeping_.store(1, std::memory_order_relaxed);
  // AQL-DB-4: the sleeper's store must be ordered before its doorbell re-check.
  std::atomic_thread_fence(std::memory_order_seq_cst);
}

void WakeChannel::cancel_sleep() noexcept { sleeping_.store(0, std::memory_order_relaxed); }

void WakeChannel::sleep_for(std::chrono::microseconds timeout) noexcept {
  timespec ts{};
  ts.tv_sec = static_cast<time_t>(timeout.count() / 1000000);
  ts.tv_nsec = static_cast<long>((timeout.count() % 1000000) * 1000);
  futex(&epoch_, FUTEX_WAIT_PRIVATE, announced_epoch_, &ts);
  sleeping_.store(0, std::memory_order_relaxed);
}

void WakeChannel::notify() noexcept {
  if (sleeping_.load(std::memory_order_relaxed) == 0) return;
  if (sleeping_.exchange(0, std::memory_order_acq_rel) == 0) return;
  epoch_.fetch_add(1, std::memory_order_release);
  wakeups_.fetch_add(1, std::memory_order_relaxed);
  futex(&epoch_, FUTEX_WAKE_PRIVATE, 1, nullptr);
}

void register_doorbell_listener(WakeChannel* channel) noexcept {
  std::lock_guard lock(g_listeners_mutex);
  for (size_t i = 0; i < kMaxListeners; ++i) {
    if (g_listeners[i].load(std::memory_order_relaxed) != nullptr) continue;
    g_listeners[i].store(channel, std::memory_order_release);
    if (i >= g_listener_high_water.load(std::memory_order_relaxed)) {
      g_listener_high_water.store(i + 1, std::memory_order_release);
    }
    detail::g_doorbell_fence_needed.fetch_add(1, std::memory_order_seq_cst);
    // AQL-DB-4: producers that still read zero skipped their fence; drain them.
    if (!expedited_barrier()) {
      static std::once_flag always;
      std::call_once(always, [] { detail::g_doorbell_fence_needed.fetch_add(1, std::memory_order_seq_cst); });
    }
    return;
  }
}

void unregister_doorbell_listener(WakeChannel* channel) noexcept {
  std::lock_guard lock(g_listeners_mutex);
  for (auto& slot : g_listeners) {
    if (slot.load(std::memory_order_relaxed) != channel) continue;
    slot.store(nullptr, std::memory_order_release);
    detail::g_doorbell_fence_needed.fetch_sub(1, std::memory_order_relaxed);
  }
}

namespace detail {
void notify_doorbell_listeners_slow() noexcept {
  // AQL-DB-4: the producer's doorbell store must be ordered before its load of `sleeping`.
  std::atomic_thread_fence(std::memory_order_seq_cst);
  if (DoorbellObserver observe = g_doorbell_observer.load(std::memory_order_acquire)) observe();
  const size_t used = g_listener_high_water.load(std::memory_order_acquire);
  for (size_t i = 0; i < used; ++i) {
    if (WakeChannel* channel = g_listeners[i].load(std::memory_order_acquire)) channel->notify();
  }
}
}  // namespace detail

}  // namespace rocref
