// gpu/adversary.cpp - seed, choice streams, queue registry and reports of the adversarial GPU mode.
#include "gpu/adversary.h"

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <mutex>
#include <unordered_map>

#include "common/engine_wake.h"
#include "common/trace.h"
#include "gpu/isa/agent_cache.h"

namespace rocref::gpu::adversary {
namespace {

struct Entry {
  uint64_t id;
  QueueHooks hooks;
};

struct State {
  std::atomic<bool> on{false};
  std::atomic<uint64_t> seed{0};
  std::atomic<uint64_t> streams{0};
  std::mutex mu;                 // the registry; the doorbell observer only try-locks it
  std::vector<Entry> queues;
  uint64_t next_id = 1;
  std::mutex log_mu;
  std::vector<std::string> log;
  std::atomic<uint64_t> violations{0};
  std::mutex choices_mu;
  std::deque<std::string> recent;  // the last kRecentChoices choices, for reports
  // AQL-FEN-6: the agent's copies of kernarg segments its launches read (its L2), by address.
  std::mutex kernarg_mu;
  std::unordered_map<uint64_t, std::vector<uint8_t>> kernarg_copies;
  std::mutex cache_mu;
  std::shared_ptr<isa::AgentCache> l2;  // GPU-GRAIN-*: the agent's L2
};

// Bounds the copies kept: forgetting one only takes a freedom less (never unsound).
constexpr size_t kMaxKernargCopies = 4096;

constexpr size_t kRecentChoices = 24;

State& state() {
  static State* s = new State;  // never destroyed: engines may report during exit
  return *s;
}

uint64_t splitmix64(uint64_t x) noexcept {
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

// AQL-DB-1, AQL-IDX-2: every queue's doorbell, checked on the ringing thread.
void observe_doorbell() noexcept {
  State& s = state();
  std::unique_lock lock(s.mu, std::try_to_lock);
  if (!lock.owns_lock()) return;  // never block a producer: a skipped check only misses
  for (Entry& e : s.queues) {
    if (e.hooks.check) e.hooks.check();
  }
}

void switch_on(uint64_t seed) noexcept {
  State& s = state();
  s.seed.store(seed, std::memory_order_relaxed);
  s.streams.store(0, std::memory_order_relaxed);  // queues made from now on replay the same streams
  {
    std::lock_guard lock(s.kernarg_mu);
    s.kernarg_copies.clear();  // a replay starts with a cold cache
  }
  {
    std::lock_guard lock(s.cache_mu);
    s.l2 = std::make_shared<isa::AgentCache>(seed);  // and a cold L2 with its own seeded stream
  }
  s.on.store(true, std::memory_order_release);
  set_doorbell_observer(&observe_doorbell);
  std::fprintf(stderr, "rocref gpu: adversarial mode, seed %llu (replay: ROCREF_GPU_SEED=%llu)\n",
               static_cast<unsigned long long>(seed), static_cast<unsigned long long>(seed));
}

// ROCREF_GPU_SEED=S switches the mode on for the whole process, before main.
const bool g_from_env = [] {
  const char* text = std::getenv("ROCREF_GPU_SEED");
  if (text == nullptr || *text == '\0') return false;
  char* end = nullptr;
  const unsigned long long seed = std::strtoull(text, &end, 0);
  if (end == nullptr || *end != '\0') {
    std::fprintf(stderr, "rocref gpu: ROCREF_GPU_SEED=%s is not a number; adversarial mode stays off\n", text);
    return false;
  }
  switch_on(seed);
  // The seed again at the end of the run, next to whatever failed (a test's own message
  // does not name it).
  std::atexit([] {
    const auto used = static_cast<unsigned long long>(state().seed.load(std::memory_order_relaxed));
    std::fprintf(stderr, "rocref gpu: this run: adversarial GPU seed %llu, %llu violation(s) (replay: ROCREF_GPU_SEED=%llu)\n",
                 used, static_cast<unsigned long long>(violations()), used);
  });
  return true;
}();

}  // namespace

bool enabled() noexcept { return state().on.load(std::memory_order_relaxed); }
uint64_t seed() noexcept { return state().seed.load(std::memory_order_relaxed); }
void enable(uint64_t seed) noexcept { switch_on(seed); }
void disable() noexcept {
  State& s = state();
  s.on.store(false, std::memory_order_release);
  std::lock_guard lock(s.cache_mu);
  s.l2.reset();
}

std::shared_ptr<isa::AgentCache> agent_cache() {
  State& s = state();
  std::lock_guard lock(s.cache_mu);
  return s.l2;
}

void acquire_system() noexcept {
  State& s = state();
  std::lock_guard lock(s.kernarg_mu);
  s.kernarg_copies.clear();
}

bool kernarg_view(uint64_t va, const uint8_t* fresh, size_t n, bool narrow_acquire, Chooser& chooser,
                  std::vector<uint8_t>* stale) {
  State& s = state();
  std::lock_guard lock(s.kernarg_mu);
  auto it = s.kernarg_copies.find(va);
  if (narrow_acquire && it != s.kernarg_copies.end() && it->second.size() == n &&
      std::memcmp(it->second.data(), fresh, n) != 0 && chooser.below(4, "stale kernarg copy") != 0) {
    *stale = it->second;  // the cache keeps its copy: later narrow launches may read it too
    return true;
  }
  if (it == s.kernarg_copies.end() && s.kernarg_copies.size() >= kMaxKernargCopies) s.kernarg_copies.clear();
  s.kernarg_copies[va].assign(fresh, fresh + n);
  return false;
}

std::string seed_note() {
  if (!enabled()) return "";
  const std::string s = std::to_string(seed());
  return " (adversarial GPU seed " + s + "; replay: ROCREF_GPU_SEED=" + s + ")";
}

bool foreign_producers() noexcept {
  static const bool foreign = [] {
    const char* preload = std::getenv("LD_PRELOAD");
    return preload != nullptr && std::strstr(preload, "rocref_preload") != nullptr;
  }();
  return foreign;
}

std::chrono::milliseconds watchdog_period() noexcept {
  static const std::chrono::milliseconds period = [] {
    const char* text = std::getenv("ROCREF_GPU_WATCHDOG_MS");
    const long long ms = text != nullptr ? std::atoll(text) : 0;
    return std::chrono::milliseconds(ms > 0 ? ms : 10000);
  }();
  return period;
}

Chooser::Chooser(uint64_t stream) noexcept
    : stream_(stream), state_(splitmix64(seed() ^ splitmix64(stream + 0x5eedull))) {}

uint32_t Chooser::below(uint32_t n, const char* what) noexcept {
  state_ = splitmix64(state_);
  const auto value = static_cast<uint32_t>((state_ >> 32) % (n == 0 ? 1 : n));
  ++count_;
  std::string line = "stream " + std::to_string(stream_) + " #" + std::to_string(count_) + " " + what + ": " +
                     std::to_string(value) + "/" + std::to_string(n);
  ROCREF_TRACE_EVENT(trace::Layer::Gpu, "adversary choice", line);
  State& s = state();
  std::lock_guard lock(s.choices_mu);
  if (s.recent.size() == kRecentChoices) s.recent.pop_front();
  s.recent.push_back(std::move(line));
  return value;
}

uint64_t next_stream() noexcept { return state().streams.fetch_add(1, std::memory_order_relaxed) + 1; }

void report(const std::string& what) {
  State& s = state();
  const std::string line = what + seed_note();
  std::fprintf(stderr, "rocref gpu: %s\n", line.c_str());
  ROCREF_TRACE_EVENT(trace::Layer::Gpu, "adversary violation", line);
  {
    std::lock_guard lock(s.log_mu);
    s.log.push_back(line);
  }
  s.violations.fetch_add(1, std::memory_order_release);
}

uint64_t violations() noexcept { return state().violations.load(std::memory_order_acquire); }

std::vector<std::string> violation_log() {
  std::lock_guard lock(state().log_mu);
  return state().log;
}

void clear_violations() {
  std::lock_guard lock(state().log_mu);
  state().log.clear();
  state().violations.store(0, std::memory_order_release);
}

std::string recent_choices() {
  State& s = state();
  std::lock_guard lock(s.choices_mu);
  std::string text;
  for (const std::string& line : s.recent) text += "  " + line + "\n";
  return text;
}

void report_hang(const std::string& what) {
  std::fprintf(stderr,
               "rocref gpu: AQL-ADV-5: hang: nothing moved for %lld ms while work is published and rung: %s%s\n"
               "rocref gpu: the last choices (the whole sequence: trace events \"adversary choice\"):\n%s",
               static_cast<long long>(watchdog_period().count()), what.c_str(), seed_note().c_str(),
               recent_choices().c_str());
  std::fflush(stderr);
  std::abort();
}

uint64_t register_queue(QueueHooks hooks) {
  State& s = state();
  std::lock_guard lock(s.mu);
  const uint64_t id = s.next_id++;
  s.queues.push_back(Entry{id, std::move(hooks)});
  return id;
}

void unregister_queue(uint64_t id) {
  State& s = state();
  std::lock_guard lock(s.mu);
  std::erase_if(s.queues, [id](const Entry& e) { return e.id == id; });
}

void flush_all() {
  State& s = state();
  std::lock_guard lock(s.mu);
  for (Entry& e : s.queues) {
    if (e.hooks.flush) e.hooks.flush();
  }
}

bool any_in_flight() {
  State& s = state();
  std::lock_guard lock(s.mu);
  for (Entry& e : s.queues) {
    if (e.hooks.in_flight && e.hooks.in_flight()) return true;
  }
  return false;
}

bool any_owes() {
  State& s = state();
  std::lock_guard lock(s.mu);
  for (Entry& e : s.queues) {
    if (e.hooks.owes && e.hooks.owes()) return true;
  }
  return false;
}

std::string any_stuck() {
  State& s = state();
  std::lock_guard lock(s.mu);
  for (Entry& e : s.queues) {
    if (!e.hooks.stuck) continue;
    std::string why = e.hooks.stuck();
    if (!why.empty()) return why;
  }
  return "";
}

}  // namespace rocref::gpu::adversary
