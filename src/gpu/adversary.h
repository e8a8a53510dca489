// gpu/adversary.h - the adversarial mode of the GPU model: seeded choices, queue registry, reports.
//
// Off by default (fast mode: one relaxed load per processor step). On when the
// process starts with ROCREF_GPU_SEED=S in its environment, or after enable(S)
// (tests; call it before the first queue is created). The mode takes the
// freedoms spec/aql-queue.md (AQL-ADV-*, AQL-FEN-3..5) allows and no other:
// completions of launched packets in any order, launches and completions
// delayed, doorbell values delivered late or coalesced, wake-ups late or
// spurious, writes of a dispatch released at less than system scope made
// visible to the host only at the next launch on the agent or system-scope
// release. Every choice comes from a per-stream splitmix64 sequence of the seed,
// so the k-th choice of a stream is the same in every run of that seed; each
// choice is a trace event ("adversary choice"). Every report names the seed.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace rocref::gpu::isa {
class AgentCache;
}

namespace rocref::gpu::adversary {

bool enabled() noexcept;
uint64_t seed() noexcept;
// Switch the mode on with `seed` (or off). Queues created before keep their mode; the
// queues created after enable() get choice streams 1, 2, ... again, so a replay matches.
void enable(uint64_t seed) noexcept;
void disable() noexcept;
// " (adversarial GPU seed S; replay: ROCREF_GPU_SEED=S)", or "" when off.
std::string seed_note();
// Producers whose doorbell stores notify nobody (the LD_PRELOAD interposer runs a
// foreign ROCR): the scheduler keeps its poll interval for them (AQL-ADV-4).
bool foreign_producers() noexcept;
// How long the engines may sit still with published, rung work before the
// watchdog reports a hang (ROCREF_GPU_WATCHDOG_MS, default 10 s).
std::chrono::milliseconds watchdog_period() noexcept;

// One deterministic stream of choices (one per queue, one for the scheduler).
class Chooser {
 public:
  explicit Chooser(uint64_t stream) noexcept;
  uint32_t below(uint32_t n, const char* what) noexcept;  // uniform in [0, n); n > 0
  bool one_in(uint32_t n, const char* what) noexcept { return below(n, what) == 0; }
  uint64_t count() const noexcept { return count_; }
  uint64_t stream() const noexcept { return stream_; }

 private:
  uint64_t stream_;
  uint64_t state_;
  uint64_t count_ = 0;
};
uint64_t next_stream() noexcept;  // 1, 2, ... in queue creation order (0 is the scheduler's)

// Violations found by the checks of this mode (AQL-DB-1, AQL-IDX-2, AQL-ADV-5):
// printed to stderr with the seed, and kept for tests.
void report(const std::string& what);
uint64_t violations() noexcept;
std::vector<std::string> violation_log();
void clear_violations();
// The last choices made (one per line), oldest first.
std::string recent_choices();
// Prints the hang report (with the seed and the last choices) and aborts (AQL-ADV-5).
[[noreturn]] void report_hang(const std::string& what);

// The queues in adversarial mode. Callbacks: `check` runs on a producer's thread
// after its doorbell store (must not block); the others on the stepping thread.
struct QueueHooks {
  std::function<void()> check;            // AQL-DB-1, AQL-IDX-2 at the doorbell
  std::function<void()> flush;            // run writes deferred by AQL-FEN-4
  std::function<bool()> in_flight;        // launched packets not yet complete
  std::function<bool()> owes;             // its last step was a seeded wait: step it again
  std::function<std::string()> stuck;     // non-empty: published, rung, launchable, not launched
};
uint64_t register_queue(QueueHooks hooks);

// AQL-FEN-6: kernarg segments as the agent's cache holds them. The host writes a kernarg
// segment and publishes the packet with a system-scope release; only a system-scope
// acquire at launch is guaranteed to see those writes. acquire_system(): a launch acquired
// at system scope; every copy is invalidated. kernarg_view(): a kernel launch reads the
// n bytes at `va` (`fresh`, memory now); with a narrower acquire it may be served, in
// *stale, the copy an earlier launch read at the same address when it differs (a seeded
// choice; true then). Otherwise the fresh bytes become the cached copy.
void acquire_system() noexcept;
bool kernarg_view(uint64_t va, const uint8_t* fresh, size_t n, bool narrow_acquire, Chooser& chooser,
                  std::vector<uint8_t>* stale);
// GPU-GRAIN-*: the agent's L2 (gpu/isa/agent_cache.h), made by enable() with the seed, dropped
// by disable(); null while the mode is off. Queues keep the one they started with.
std::shared_ptr<isa::AgentCache> agent_cache();
void unregister_queue(uint64_t id);
void flush_all();          // AQL-FEN-4: a launch or system-scope release on the agent
bool any_in_flight();
bool any_owes();           // a seeded wait is pending: the engines must not sleep yet
std::string any_stuck();   // first stuck queue's description, or ""

}  // namespace rocref::gpu::adversary
