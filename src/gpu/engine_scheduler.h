// gpu/engine_scheduler.h - runs GPU-model engines on one thread; sleeps when none has work.
//
// An engine is anything with a step that reports whether it did work (a
// PacketProcessor, an SDMA engine). The scheduler steps them round-robin; when a
// whole round did nothing it spins briefly, then announces sleep on its
// WakeChannel (a doorbell listener), re-checks every engine and sleeps on the
// futex. Producers that ring doorbells through aql::QueueRing wake it at once
// (AQL-DB-4); foreign producers (the LD_PRELOAD interposer) store doorbells
// with no notify, so the sleep is bounded by a poll interval. Spin mode never
// sleeps: for latency benchmarks and machines with cores to spare. In the
// adversarial mode (gpu/adversary.h) an idle sleep has no poll interval and a
// watchdog reports a hang (spec/adversarial-gpu.md AQL-ADV-4, AQL-ADV-5).
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <thread>
#include <vector>

#include "common/engine_wake.h"
#include "common/futex_lock.h"
#include "common/owner_counter.h"
#include "gpu/adversary.h"
#include "gpu/packet_processor.h"

namespace rocref::gpu {

struct SchedulerOptions {
  std::chrono::microseconds poll_interval{1000};  // longest sleep without a notify
  uint32_t idle_rounds_before_sleep = 64;          // empty rounds (pause, then yield) before sleeping
  bool spin = false;                               // never sleep
};

struct SchedulerStats {
  uint64_t rounds = 0;
  uint64_t busy_rounds = 0;
  uint64_t sleeps = 0;    // futex sleeps entered
  uint64_t wakeups = 0;   // sleeps ended early by a notify (channel's count)
};

class EngineScheduler {
 public:
  using StepFunction = std::function<bool()>;  // true: did work
  using EngineId = uint64_t;

  explicit EngineScheduler(SchedulerOptions options = {});
  ~EngineScheduler();  // stops and joins
  EngineScheduler(const EngineScheduler&) = delete;
  EngineScheduler& operator=(const EngineScheduler&) = delete;

  // Safe while running, also from inside an engine's step. After remove()
  // returns (from any other thread) the engine is never stepped again, so its
  // owner may destroy it (queue destroy). remove() waits for a round in
  // progress: never call it holding a lock that an engine's step takes.
  EngineId add(StepFunction step);
  EngineId add(PacketProcessor& processor);  // steps processor.step()
  void remove(EngineId id);
  size_t engines() const;

  void start();  // one thread; registers the channel as a doorbell listener
  void stop();   // joins; idempotent; from an engine's step it only asks the thread to end
  bool running() const noexcept { return thread_.joinable(); }

  // One round on the calling thread (deterministic use; not while running).
  bool run_once();

  WakeChannel& channel() noexcept { return channel_; }
  SchedulerStats stats() const;

 private:
  struct Entry {
    EngineId id = 0;
    StepFunction step;
    bool removed = false;
  };
  bool round();
  void loop();
  void adversarial_sleep();  // AQL-ADV-4, AQL-ADV-5
  void wake();

  SchedulerOptions options_;
  mutable FutexLock mutex_;  // held for a whole round: remove() waits for it (one atomic each way)
  // Each entry on the heap: a push_back inside a round (an engine adding one) leaves the
  // stepping entry where it is; a vector indexes in one load, a deque in a dozen instructions.
  std::vector<std::unique_ptr<Entry>> entries_;
  EngineId next_id_ = 1;
  std::atomic<std::thread::id> round_thread_{};  // the thread inside round(), if any
  bool compact_ = false;
  std::thread thread_;
  std::atomic<bool> stop_{false};
  WakeChannel channel_;
  OwnerCounter rounds_, busy_rounds_, sleeps_;  // the loop's thread counts
  std::optional<adversary::Chooser> chooser_;  // adversarial mode: made at the first sleep
};

}  // namespace rocref::gpu
