// hsa/async_handler.h - the runtime thread behind hsa_amd_signal_async_handler.
//
// One thread checks every registered (signal, condition, value) and calls the
// handler when the condition holds; a handler returning false is removed
// (HSA-ASYNC-1). Between rounds it sleeps in hsaKmtWaitOnMultipleEvents on the
// interrupt signals' events and its own control event, with a bounded timeout
// so a non-interrupt signal or a missed wake costs latency, never a hang
// (ROCm/ROCT-Thunk-Interface#56). Queue errors reach their callbacks this way.
#pragma once

#include <hsa/hsa.h>
#include <hsa/hsa_ext_amd.h>
#include <hsakmt.h>

#include <atomic>
#include <cstdint>
#include <mutex>
#include <thread>
#include <vector>

namespace rocref::hsa {

class SignalObject;

class AsyncHandler {
 public:
  AsyncHandler() = default;
  ~AsyncHandler();  // stops the thread
  AsyncHandler(const AsyncHandler&) = delete;
  AsyncHandler& operator=(const AsyncHandler&) = delete;

  // HSA_STATUS_ERROR_OUT_OF_RESOURCES if the thread or its control event cannot start.
  hsa_status_t add(SignalObject* signal, uint32_t cond, hsa_signal_value_t value, hsa_amd_signal_handler handler,
                   void* arg);
  // hsa_amd_async_function: `callback(arg)` once, on the handler thread.
  hsa_status_t add_function(void (*callback)(void* arg), void* arg);
  // Removes every registration with this signal; waits for a handler running on it.
  void remove_signal(SignalObject* signal);

 private:
  struct Entry {
    SignalObject* signal;
    uint32_t cond;  // the ABI value: HSA-ASYNC-1 keeps one past GTE
    hsa_signal_value_t value;
    hsa_amd_signal_handler handler;
    void* arg;
  };

  hsa_status_t start_locked();
  void run();
  void wake();
  bool still_registered(const Entry& entry);

  std::mutex mutex_;                // entries_, started_
  std::recursive_mutex dispatch_;   // held while handlers run; a handler may remove its own signal
  std::vector<Entry> entries_;
  std::vector<std::pair<void (*)(void*), void*>> functions_;
  std::atomic<bool> stop_{false};
  bool started_ = false;
  HsaEvent* control_ = nullptr;
  std::thread thread_;
};

}  // namespace rocref::hsa
