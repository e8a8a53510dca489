// clr/signal_pool.cpp - reference-counted completion signals (see signal_pool.h).
#include "clr/signal_pool.h"

#include "clr/clr_mutant.h"

namespace rocref::clr {

SignalPool::SignalPool(const SignalOps& ops, size_t keep) : ops_(ops), keep_(keep) {}

SignalPool::~SignalPool() {
  for (const auto& [handle, holders] : holders_) ops_.destroy(hsa_signal_t{handle});
}

bool SignalPool::acquire_free(hsa_signal_value_t initial, hsa_signal_t* signal) {
  std::lock_guard lock(mutex_);
  if (free_.empty()) return false;
  Holders::value_type* entry = free_.back();
  free_.pop_back();
  entry->second = 1;
  const hsa_signal_t s{entry->first};
  // The reset happens before the signal is named by any packet or waiter: the
  // packet's header release-store (or this mutex) orders it before every reader.
  if (!clr_mutant_active(ClrMutant::NoResetOnReuse)) ops_.reset(s, initial);
  *signal = s;
  return true;
}

hsa_status_t SignalPool::acquire(hsa_signal_value_t initial, hsa_signal_t* signal, bool* reused) {
  if (acquire_free(initial, signal)) {
    if (reused) *reused = true;
    return HSA_STATUS_SUCCESS;
  }
  // Creation reaches the KFD, without the lock: no need to hold others up.
  hsa_signal_t s{0};
  if (hsa_status_t status = ops_.create(initial, &s); status != HSA_STATUS_SUCCESS) return status;
  std::lock_guard lock(mutex_);
  holders_[s.handle] = 1;
  ++created_;
  *signal = s;
  if (reused) *reused = false;
  return HSA_STATUS_SUCCESS;
}

bool SignalPool::retain(hsa_signal_t signal) {
  std::lock_guard lock(mutex_);
  auto it = holders_.find(signal.handle);
  if (it == holders_.end() || it->second == 0) return false;  // a free signal has no holder to share with
  ++it->second;
  return true;
}

bool SignalPool::release(hsa_signal_t signal) {
  bool destroy = false;
  {
    std::lock_guard lock(mutex_);
    auto it = holders_.find(signal.handle);
    if (it == holders_.end() || it->second == 0) return false;
    if (clr_mutant_active(ClrMutant::ReuseWhileHeld)) it->second = 1;
    if (--it->second != 0) return true;
    if (free_.size() < keep_) {
      free_.push_back(&*it);
    } else {
      holders_.erase(it);
      destroy = true;
    }
  }
  if (destroy) ops_.destroy(signal);
  return true;
}

bool SignalPool::owns(hsa_signal_t signal) const {
  std::lock_guard lock(mutex_);
  return holders_.contains(signal.handle);
}

size_t SignalPool::free_signals() const {
  std::lock_guard lock(mutex_);
  return free_.size();
}

size_t SignalPool::held_signals() const {
  std::lock_guard lock(mutex_);
  return holders_.size() - free_.size();
}

uint64_t SignalPool::created() const {
  std::lock_guard lock(mutex_);
  return created_;
}

}  // namespace rocref::clr
