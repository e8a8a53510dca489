// common/owner_counter.h - a statistics counter one thread at a time adds to and any thread reads.
//
// The GPU model's engine thread counts rounds, steps, launches and completions on every
// packet; a locked fetch_add there costs a drained store buffer per count. Its owner adds
// with a plain load and store (each count still a single atomic word, so readers see
// no torn value); a handover between owners must be ordered by something else (a lock,
// a thread join), as the engine thread's start and stop are.
#pragma once

#include <atomic>
#include <cstdint>

namespace rocref {

class OwnerCounter {
 public:
  void add(uint64_t n = 1) noexcept {
    value_.store(value_.load(std::memory_order_relaxed) + n, std::memory_order_relaxed);
  }
  uint64_t load() const noexcept { return value_.load(std::memory_order_relaxed); }

 private:
  std::atomic<uint64_t> value_{0};
};

}  // namespace rocref
