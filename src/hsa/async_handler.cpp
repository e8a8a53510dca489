// hsa/async_handler.cpp - the asynchronous signal handler thread (see async_handler.h).
#include "hsa/async_handler.h"

#include <algorithm>

#include "common/signal.h"
#include "hsa/signal_object.h"

namespace rocref::hsa {
namespace {
// Sleep bounds: short while a non-interrupt signal is watched (nothing wakes us for it).
constexpr uint32_t kPollMs = 1;
constexpr uint32_t kIdleMs = 50;
}  // namespace

AsyncHandler::~AsyncHandler() {
  {
    std::lock_guard lock(mutex_);
    if (!started_) return;
    stop_.store(true, std::memory_order_seq_cst);
  }
  wake();
  thread_.join();
  std::lock_guard lock(mutex_);
  for (const Entry& entry : entries_)
    if (entry.signal->is_interrupt()) entry.signal->remove_waiter();
  entries_.clear();
  hsaKmtDestroyEvent(control_);
}

hsa_status_t AsyncHandler::start_locked() {
  if (started_) return HSA_STATUS_SUCCESS;
  HsaEventDescriptor descriptor{};
  descriptor.EventType = HSA_EVENTTYPE_SIGNAL;
  descriptor.SyncVar.SyncVarSize = sizeof(hsa_signal_value_t);
  if (hsaKmtCreateEvent(&descriptor, false, false, &control_) != HSAKMT_STATUS_SUCCESS || control_ == nullptr)
    return HSA_STATUS_ERROR_OUT_OF_RESOURCES;
  try {
    thread_ = std::thread([this] { run(); });
  } catch (...) {
    hsaKmtDestroyEvent(control_);
    control_ = nullptr;
    return HSA_STATUS_ERROR_OUT_OF_RESOURCES;
  }
  started_ = true;
  return HSA_STATUS_SUCCESS;
}

hsa_status_t AsyncHandler::add(SignalObject* signal, uint32_t cond, hsa_signal_value_t value,
                               hsa_amd_signal_handler handler, void* arg) {
  {
    std::lock_guard lock(mutex_);
    if (hsa_status_t status = start_locked(); status != HSA_STATUS_SUCCESS) return status;
    entries_.push_back(Entry{signal, cond, value, handler, arg});
    if (signal->is_interrupt()) signal->add_waiter();
  }
  wake();
  return HSA_STATUS_SUCCESS;
}

hsa_status_t AsyncHandler::add_function(void (*callback)(void* arg), void* arg) {
  {
    std::lock_guard lock(mutex_);
    if (hsa_status_t status = start_locked(); status != HSA_STATUS_SUCCESS) return status;
    functions_.emplace_back(callback, arg);
  }
  wake();
  return HSA_STATUS_SUCCESS;
}

void AsyncHandler::remove_signal(SignalObject* signal) {
  std::lock_guard dispatch(dispatch_);
  std::lock_guard lock(mutex_);
  auto it = std::remove_if(entries_.begin(), entries_.end(), [&](const Entry& e) { return e.signal == signal; });
  for (auto e = it; e != entries_.end(); ++e)
    if (signal->is_interrupt()) signal->remove_waiter();
  entries_.erase(it, entries_.end());
}

bool AsyncHandler::still_registered(const Entry& entry) {
  std::lock_guard lock(mutex_);
  return std::any_of(entries_.begin(), entries_.end(), [&](const Entry& e) {
    return e.signal == entry.signal && e.handler == entry.handler && e.arg == entry.arg;
  });
}

void AsyncHandler::wake() {
  if (control_ != nullptr) hsaKmtSetEvent(control_);
}

void AsyncHandler::run() {
  std::vector<HsaEvent*> events;
  while (!stop_.load(std::memory_order_seq_cst)) {
    bool fired;
    bool polling = false;
    events.clear();
    events.push_back(control_);
    {
      std::lock_guard dispatch(dispatch_);
      std::vector<Entry> snapshot;
      std::vector<std::pair<void (*)(void*), void*>> functions;
      {
        std::lock_guard lock(mutex_);
        snapshot = entries_;
        functions.swap(functions_);
      }
      for (auto [callback, arg] : functions) callback(arg);
      fired = !functions.empty();
      for (const Entry& entry : snapshot) {
        // A handler that ran earlier in this round may have removed (and destroyed) a signal.
        if (!still_registered(entry)) continue;
        const int64_t value = sig::Signal(&entry.signal->amd).load(MemoryOrder::Acquire);
        if (!sig::condition_holds(entry.cond, value, entry.value)) {
          if (entry.signal->is_interrupt())
            events.push_back(entry.signal->event());
          else
            polling = true;
          continue;
        }
        fired = true;
        const bool keep = entry.handler(value, entry.arg);
        if (!keep) {
          std::lock_guard lock(mutex_);
          // Remove this one registration (the first identical entry still present).
          auto it = std::find_if(entries_.begin(), entries_.end(), [&](const Entry& e) {
            return e.signal == entry.signal && e.handler == entry.handler && e.arg == entry.arg &&
                   e.cond == entry.cond && e.value == entry.value;
          });
          if (it != entries_.end()) {
            if (it->signal->is_interrupt()) it->signal->remove_waiter();
            entries_.erase(it);
          }
        }
      }
    }
    if (fired) continue;
    hsaKmtWaitOnMultipleEvents(events.data(), static_cast<HSAuint32>(events.size()), false,
                               polling ? kPollMs : kIdleMs);
  }
}

}  // namespace rocref::hsa
