// clr/signal_pool.h - completion signals reused instead of created per command.
//
// ROCclr's ProfilingSignal pool role (roc::VirtualGPU::HwQueueTracker): creating
// an HSA signal reaches the KFD (an event for the interrupt), so each command
// takes a signal from here and gives it back. A signal is reference counted:
// the command whose packet completes it holds one reference until the command
// layer has seen it complete; every other reader holds one for as long as it
// may look at the value or the timestamps: an event that recorded it, a host
// waiter blocked on it without the stream's lock, a barrier packet (of any
// stream) that names it as a dependency. At zero references it goes back to
// the free list, and acquire() resets its value before handing it out again,
// so no reader ever sees a reused signal.
//
// Thread-safe (one lock, clr/monitor.h): events, streams and waiters share one pool per device.
#pragma once

#include <hsa/hsa.h>

#include <cstddef>
#include <cstdint>
#include <mutex>
#include <unordered_map>
#include <vector>

#include "clr/monitor.h"

namespace rocref::clr {

// The HSA calls the pool makes; tests substitute fakes that record them.
struct SignalOps {
  hsa_status_t (*create)(hsa_signal_value_t initial, hsa_signal_t* signal);
  void (*reset)(hsa_signal_t signal, hsa_signal_value_t value);
  void (*destroy)(hsa_signal_t signal);
};
const SignalOps& hsa_signal_ops();

class SignalPool {
 public:
  // As ROCclr's ROC_SIGNAL_POOL_SIZE: free signals kept beyond this are destroyed.
  static constexpr size_t kDefaultKeep = 64;

  explicit SignalPool(const SignalOps& ops = hsa_signal_ops(), size_t keep = kDefaultKeep);
  ~SignalPool();  // destroys every signal it made; holders must be done with them
  SignalPool(const SignalPool&) = delete;
  SignalPool& operator=(const SignalPool&) = delete;

  // A signal holding `initial` and one reference: a free one reset, else a new one.
  hsa_status_t acquire(hsa_signal_value_t initial, hsa_signal_t* signal, bool* reused = nullptr);
  // acquire() without creating: false (and nothing done) when no signal is free.
  bool acquire_free(hsa_signal_value_t initial, hsa_signal_t* signal);
  // One more holder. False (and nothing done) for a signal this pool did not make.
  bool retain(hsa_signal_t signal);
  // A holder is done; at zero holders the signal is free for reuse. False for a
  // signal this pool did not make or one with no holder.
  bool release(hsa_signal_t signal);

  bool owns(hsa_signal_t signal) const;
  size_t free_signals() const;
  size_t held_signals() const;  // signals with at least one holder
  uint64_t created() const;     // signals made so far (the KFD cost the pool saves)

 private:
  SignalOps ops_;
  size_t keep_;
  mutable Monitor mutex_;
  using Holders = std::unordered_map<uint64_t, uint32_t>;
  Holders holders_;  // every signal this pool made -> holders
  // The free signals' entries in holders_ (stable: an unordered_map never moves its elements),
  // so taking one needs no lookup.
  std::vector<Holders::value_type*> free_;
  uint64_t created_ = 0;
};

}  // namespace rocref::clr
