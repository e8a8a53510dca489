// tests/unit/clr/fake_signals.h - signal operations for SignalPool tests without the HSA
// runtime: handles are indexes into a table of values, creations and destructions are counted.
#pragma once

#include <atomic>
#include <cstdint>
#include <mutex>
#include <unordered_map>

#include "clr/signal_pool.h"

namespace clr_test {

struct FakeSignals {
  static FakeSignals& instance() {
    static FakeSignals f;
    return f;
  }
  void clear() {
    std::lock_guard lock(mutex);
    values.clear();
    created = destroyed = resets = 0;
  }
  int64_t value(hsa_signal_t s) {
    std::lock_guard lock(mutex);
    return values.at(s.handle);
  }
  void set(hsa_signal_t s, int64_t v) {
    std::lock_guard lock(mutex);
    values.at(s.handle) = v;
  }
  bool alive(hsa_signal_t s) {
    std::lock_guard lock(mutex);
    return values.contains(s.handle);
  }

  std::mutex mutex;
  std::unordered_map<uint64_t, int64_t> values;  // live fake signals
  uint64_t next = 0x1000;
  uint64_t created = 0, destroyed = 0, resets = 0;
};

inline const rocref::clr::SignalOps& fake_ops() {
  static const rocref::clr::SignalOps ops{
      [](hsa_signal_value_t initial, hsa_signal_t* s) {
        FakeSignals& f = FakeSignals::instance();
        std::lock_guard lock(f.mutex);
        s->handle = f.next += 0x40;
        f.values[s->handle] = initial;
        ++f.created;
        return HSA_STATUS_SUCCESS;
      },
      [](hsa_signal_t s, hsa_signal_value_t v) {
        FakeSignals& f = FakeSignals::instance();
        std::lock_guard lock(f.mutex);
        f.values.at(s.handle) = v;
        ++f.resets;
      },
      [](hsa_signal_t s) {
        FakeSignals& f = FakeSignals::instance();
        std::lock_guard lock(f.mutex);
        f.values.erase(s.handle);
        ++f.destroyed;
      }};
  return ops;
}

}  // namespace clr_test
