// gpu/engine_scheduler.cpp - one thread stepping every engine, futex sleep when idle.
#include "gpu/engine_scheduler.h"

#include <sched.h>

namespace rocref::gpu {

EngineScheduler::EngineScheduler(SchedulerOptions options) : options_(options) {}

EngineScheduler::~EngineScheduler() { stop(); }

EngineScheduler::EngineId EngineScheduler::add(StepFunction step) {
  EngineId id;
  if (round_thread_.load(std::memory_order_relaxed) == std::this_thread::get_id()) {
    // Called from an engine's step: the round already holds the lock.
    id = next_id_++;
    entries_.push_back(std::make_unique<Entry>(Entry{id, std::move(step), false}));
  } else {
    std::lock_guard lock(mutex_);
    id = next_id_++;
    entries_.push_back(std::make_unique<Entry>(Entry{id, std::move(step), false}));
  }
  wake();
  return id;
}

EngineScheduler::EngineId EngineScheduler::add(PacketProcessor& processor) {
  return add([&processor] { return processor.step().action != ProcessorAction::None; });
}

void EngineScheduler::remove(EngineId id) {
  auto erase = [&] {
    for (auto& e : entries_) {
      if (e->id == id) e->removed = true;
    }
    compact_ = true;
  };
  if (round_thread_.load(std::memory_order_relaxed) == std::this_thread::get_id()) {
    erase();  // inside a round: tombstone only, compacted after the round
    return;
  }
  std::lock_guard lock(mutex_);
  erase();
}

size_t EngineScheduler::engines() const {
  std::lock_guard lock(mutex_);
  size_t n = 0;
  for (const auto& e : entries_) n += e->removed ? 0 : 1;
  return n;
}

bool EngineScheduler::round() {
  std::lock_guard lock(mutex_);
  bool did = false;
  // By index: an engine may add another during its step.
  for (size_t i = 0; i < entries_.size(); ++i) {
    Entry& e = *entries_[i];
    if (!e.removed && e.step()) did = true;
  }
  if (compact_) {
    std::erase_if(entries_, [](const std::unique_ptr<Entry>& e) { return e->removed; });
    compact_ = false;
  }
  // One thread runs rounds at a time (the loop, or run_once while not running).
  rounds_.add();
  if (did) busy_rounds_.add();
  return did;
}

bool EngineScheduler::run_once() {
  round_thread_.store(std::this_thread::get_id(), std::memory_order_relaxed);
  const bool did = round();
  round_thread_.store(std::thread::id(), std::memory_order_relaxed);
  return did;
}

void EngineScheduler::wake() {
  // Same store-buffering shape as a doorbell (AQL-DB-4): our store, then the sleeper's flag.
  std::atomic_thread_fence(std::memory_order_seq_cst);
  channel_.notify();
}

void EngineScheduler::loop() {
  // The thread that steps engines, for add() and remove() from inside a step: set once,
  // not per round (an idle round is a poll, and the poll is the doorbell's latency).
  round_thread_.store(std::this_thread::get_id(), std::memory_order_relaxed);
  uint32_t idle = 0;
  while (!stop_.load(std::memory_order_relaxed)) {
    if (round()) {
      idle = 0;
      continue;
    }
    if (options_.spin || ++idle < options_.idle_rounds_before_sleep) {
#if defined(__x86_64__) || defined(__i386__)
      __builtin_ia32_pause();
#endif
      // Two cores: after a few empty rounds let the producers run.
      if (!options_.spin && idle > options_.idle_rounds_before_sleep / 2) sched_yield();
      continue;
    }
    // AQL-DB-4: announce, re-check every engine, only then sleep.
    channel_.announce_sleep();
    if (stop_.load(std::memory_order_relaxed) || round()) {
      channel_.cancel_sleep();
      idle = 0;
      continue;
    }
    sleeps_.add();
    if (adversary::enabled()) {
      adversarial_sleep();
    } else {
      channel_.sleep_for(options_.poll_interval);
    }
    idle = 0;
  }
  round_thread_.store(std::thread::id(), std::memory_order_relaxed);  // ids are reused after the thread ends
}

// AQL-ADV-4: no poll interval while nothing is in flight: only a doorbell's notify
// wakes the engines (a wake-up is sometimes spurious), so a lost wake-up hangs and
// the watchdog reports it (AQL-ADV-5). Launched packets may wait on signals, which
// the CP polls; foreign producers (the interposer) ring without a notify: both poll.
void EngineScheduler::adversarial_sleep() {
  if (!chooser_) chooser_.emplace(0);
  // A seeded wait is no idleness: the sleep re-check must not turn it into a lost wake-up.
  if (adversary::any_owes()) {
    channel_.cancel_sleep();
    return;
  }
  if (adversary::foreign_producers() || adversary::any_in_flight()) {
    channel_.sleep_for(options_.poll_interval);
    return;
  }
  if (chooser_->one_in(16, "spurious wake-up")) {
    channel_.sleep_for(std::chrono::microseconds(100));
    return;
  }
  // A notify between announce_sleep() and here ends the sleep at once: only a sleep that
  // lasted the whole period without one is the watchdog's business.
  const uint64_t before = channel_.wakeups();
  const auto start = std::chrono::steady_clock::now();
  channel_.sleep_for(std::chrono::duration_cast<std::chrono::microseconds>(adversary::watchdog_period()));
  if (std::chrono::steady_clock::now() - start < adversary::watchdog_period()) return;
  if (channel_.wakeups() != before || stop_.load(std::memory_order_relaxed)) return;
  std::lock_guard lock(mutex_);  // no round in progress: the engines' state is stable
  const std::string why = adversary::any_stuck();
  if (!why.empty()) adversary::report_hang(why);
}

void EngineScheduler::start() {
  if (thread_.joinable()) return;
  stop_.store(false, std::memory_order_relaxed);
  register_doorbell_listener(&channel_);
  thread_ = std::thread([this] { loop(); });
}

void EngineScheduler::stop() {
  stop_.store(true, std::memory_order_relaxed);
  // From an engine's step: the loop ends after this round; a thread cannot join itself.
  if (round_thread_.load(std::memory_order_relaxed) == std::this_thread::get_id()) return;
  if (!thread_.joinable()) return;
  wake();
  thread_.join();
  unregister_doorbell_listener(&channel_);
}

SchedulerStats EngineScheduler::stats() const {
  return SchedulerStats{rounds_.load(), busy_rounds_.load(), sleeps_.load(), channel_.wakeups()};
}

}  // namespace rocref::gpu
