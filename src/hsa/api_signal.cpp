// hsa/api_signal.cpp - C entry points: signal creation, value operations in every order, waits.
//
// Each operation is ROCR's shape: handle -> object -> one atomic (HSA-SIG-1).
// The value functions return no status, so a null handle is ignored (loads
// return 0); doorbell signals accept stores only (HSA-SIG-2).
#include <hsa/hsa.h>
#include <hsa/hsa_ext_amd.h>

#include <algorithm>
#include <chrono>
#include <unordered_set>
#include <vector>

#include "common/backoff.h"
#include "common/trace_checks.h"

#include "hsa/agent.h"
#include "hsa/api_orders.h"
#include "hsa/api_rules.h"
#include "hsa/async_handler.h"
#include "hsa/runtime.h"
#include "hsa/signal_object.h"

using rocref::MemoryOrder;
using rocref::hsa::Agent;
using rocref::hsa::Runtime;
using rocref::hsa::SignalObject;
using rocref::hsa::runtime;

namespace {

inline SignalObject* value_signal(hsa_signal_t signal) noexcept {
  if (signal.handle == 0) return nullptr;
  SignalObject* object = SignalObject::from_handle(signal);
  return object->is_doorbell() ? nullptr : object;
}

hsa_status_t create_signal(hsa_signal_value_t initial_value, uint32_t num_consumers, const hsa_agent_t* consumers,
                           bool gpu_only, hsa_signal_t* signal) {
  Runtime* rt = runtime();
  if (rt == nullptr) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  if (signal == nullptr || (num_consumers > 0 && consumers == nullptr)) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  // HSA-SIG-6: consumers must be distinct agents; a CPU consumer (or none named) needs an interrupt signal.
  ROCREF_CHECKED("HSA-SIG-6");
  bool host_waits = num_consumers == 0;
  std::unordered_set<uint64_t> seen;
  for (uint32_t i = 0; i < num_consumers; ++i) {
    Agent* agent = rt->find_agent(consumers[i]);
    if (agent == nullptr || !seen.insert(consumers[i].handle).second) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
    host_waits = host_waits || !agent->is_gpu();
  }
  SignalObject* object = rt->signal_pool().create(initial_value, AMD_SIGNAL_KIND_USER, host_waits && !gpu_only);
  if (object == nullptr) return HSA_STATUS_ERROR_OUT_OF_RESOURCES;
  rt->register_signal(object);
  *signal = object->handle();
  return HSA_STATUS_SUCCESS;
}

hsa_signal_value_t wait(hsa_signal_t signal, hsa_signal_condition_t condition, hsa_signal_value_t compare,
                        uint64_t timeout_hint, hsa_wait_state_t wait_state_hint, MemoryOrder order) {
  SignalObject* object = value_signal(signal);
  if (object == nullptr) return 0;
  Runtime* rt = runtime();
  const uint64_t ns = rocref::hsa::timeout_hint_to_ns(timeout_hint, rt != nullptr ? rt->timestamp_frequency() : 0);
  const auto timeout = std::chrono::nanoseconds(static_cast<int64_t>(std::min<uint64_t>(ns, INT64_MAX)));
  return object->view(wait_state_hint == HSA_WAIT_STATE_BLOCKED).wait(condition, compare, timeout, order).value;
}

// HSA-SIG-7: relaxed loads; spin, yield, then (BLOCKED) sleep on the interrupt
// signals' events, each sleep bounded like a single-signal wait.
uint32_t wait_any(uint32_t count, const hsa_signal_t* signals, const hsa_signal_condition_t* conds,
                  const hsa_signal_value_t* values, uint64_t timeout_hint, hsa_wait_state_t wait_hint,
                  hsa_signal_value_t* satisfying_value) {
  Runtime* rt = runtime();
  if (rt == nullptr || count == 0 || signals == nullptr || conds == nullptr || values == nullptr) return UINT32_MAX;
  std::vector<SignalObject*> objects(count);
  std::vector<HsaEvent*> events;
  for (uint32_t i = 0; i < count; ++i) {
    objects[i] = value_signal(signals[i]);
    if (objects[i] == nullptr) return UINT32_MAX;
    if (objects[i]->is_interrupt()) events.push_back(objects[i]->event());
  }
  const uint64_t ns = rocref::hsa::timeout_hint_to_ns(timeout_hint, rt->timestamp_frequency());
  const auto start = std::chrono::steady_clock::now();
  auto check = [&]() -> uint32_t {
    for (uint32_t i = 0; i < count; ++i) {
      const int64_t value = objects[i]->load(MemoryOrder::Relaxed);
      if (rocref::sig::condition_holds(conds[i], value, values[i])) {
        if (satisfying_value != nullptr) *satisfying_value = value;
        return i;
      }
    }
    return UINT32_MAX;
  };
  rocref::Backoff backoff;
  for (uint32_t round = 0;; ++round) {
    if (uint32_t hit = check(); hit != UINT32_MAX) return hit;
    const uint64_t elapsed = static_cast<uint64_t>(
        std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now() - start).count());
    if (elapsed >= ns) return UINT32_MAX;
    if (round < 1024 || wait_hint != HSA_WAIT_STATE_BLOCKED || events.empty()) {
      backoff.pause();
      continue;
    }
    // Announce, re-check, sleep (HSA-SIG-5's store-buffering pair, as a single wait does).
    for (SignalObject* object : objects) object->add_waiter();
    if (uint32_t hit = check(); hit != UINT32_MAX) {
      for (SignalObject* object : objects) object->remove_waiter();
      return hit;
    }
    hsaKmtWaitOnMultipleEvents(events.data(), static_cast<HSAuint32>(events.size()), false,
                               SignalObject::kMaxSleepMs);
    for (SignalObject* object : objects) object->remove_waiter();
  }
}

}  // namespace

extern "C" {

hsa_status_t HSA_API hsa_signal_create(hsa_signal_value_t initial_value, uint32_t num_consumers,
                                       const hsa_agent_t* consumers, hsa_signal_t* signal) {
  return create_signal(initial_value, num_consumers, consumers, false, signal);
}

hsa_status_t HSA_API hsa_amd_signal_create(hsa_signal_value_t initial_value, uint32_t num_consumers,
                                           const hsa_agent_t* consumers, uint64_t attributes, hsa_signal_t* signal) {
  if (runtime() == nullptr) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  // HSA-SIG-6: IPC signals are not modelled; unknown attribute bits are rejected.
  if ((attributes & ~uint64_t{HSA_AMD_SIGNAL_AMD_GPU_ONLY}) != 0) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  return create_signal(initial_value, num_consumers, consumers, (attributes & HSA_AMD_SIGNAL_AMD_GPU_ONLY) != 0,
                       signal);
}

hsa_status_t HSA_API hsa_signal_destroy(hsa_signal_t signal) {
  Runtime* rt = runtime();
  if (rt == nullptr) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  SignalObject* object = nullptr;
  if (hsa_status_t s = rt->checked_signal(signal, &object); s != HSA_STATUS_SUCCESS) return s;
  if (auto* handler = rt->started_async_handler()) handler->remove_signal(object);
  rt->unregister_signal(object);
  rt->signal_pool().destroy(object);
  return HSA_STATUS_SUCCESS;
}

hsa_status_t HSA_API hsa_amd_signal_async_handler(hsa_signal_t signal, hsa_signal_condition_t cond,
                                                  hsa_signal_value_t value, hsa_amd_signal_handler handler,
                                                  void* arg) {
  Runtime* rt = runtime();
  if (rt == nullptr) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  SignalObject* object = nullptr;
  if (hsa_status_t s = rt->checked_signal(signal, &object); s != HSA_STATUS_SUCCESS) return s;
  if (handler == nullptr) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  // HSA-ASYNC-1: ROCR 5.2.3 registers any condition; one past GTE never holds, so its handler
  // never runs and the registration lasts until the signal is destroyed.
  return rt->async_handler().add(object, static_cast<uint32_t>(cond), value, handler, arg);
}

uint32_t HSA_API hsa_amd_signal_wait_any(uint32_t signal_count, hsa_signal_t* signals, hsa_signal_condition_t* conds,
                                         hsa_signal_value_t* values, uint64_t timeout_hint, hsa_wait_state_t wait_hint,
                                         hsa_signal_value_t* satisfying_value) {
  return wait_any(signal_count, signals, conds, values, timeout_hint, wait_hint, satisfying_value);
}

hsa_status_t HSA_API hsa_amd_async_function(void (*callback)(void* arg), void* arg) {
  Runtime* rt = runtime();
  if (rt == nullptr) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  if (callback == nullptr) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  return rt->async_handler().add_function(callback, arg);
}

// --- loads and stores ---------------------------------------------------------
hsa_signal_value_t HSA_API hsa_signal_load_scacquire(hsa_signal_t signal) {
  SignalObject* s = value_signal(signal);
  return s == nullptr ? 0 : s->load(MemoryOrder::Acquire);
}
hsa_signal_value_t HSA_API hsa_signal_load_relaxed(hsa_signal_t signal) {
  SignalObject* s = value_signal(signal);
  return s == nullptr ? 0 : s->load(MemoryOrder::Relaxed);
}
hsa_signal_value_t HSA_API hsa_signal_load_acquire(hsa_signal_t signal) { return hsa_signal_load_scacquire(signal); }

// Stores reach doorbell signals too: that is how a producer rings a queue's doorbell.
void HSA_API hsa_signal_store_relaxed(hsa_signal_t signal, hsa_signal_value_t value) {
  if (signal.handle != 0) SignalObject::from_handle(signal)->store(value, MemoryOrder::Relaxed);
}
void HSA_API hsa_signal_store_screlease(hsa_signal_t signal, hsa_signal_value_t value) {
  if (signal.handle != 0) SignalObject::from_handle(signal)->store(value, MemoryOrder::Release);
}
void HSA_API hsa_signal_store_release(hsa_signal_t signal, hsa_signal_value_t value) {
  hsa_signal_store_screlease(signal, value);
}
void HSA_API hsa_signal_silent_store_relaxed(hsa_signal_t signal, hsa_signal_value_t value) {
  if (signal.handle != 0) SignalObject::from_handle(signal)->store(value, MemoryOrder::Relaxed, true);
}
void HSA_API hsa_signal_silent_store_screlease(hsa_signal_t signal, hsa_signal_value_t value) {
  if (signal.handle != 0) SignalObject::from_handle(signal)->store(value, MemoryOrder::Release, true);
}

// --- read-modify-writes: every order hsa.h declares, legacy names included ------
#define ROCREF_SIGNAL_VOID_OP(op, method, suffix, order)                                   \
  void HSA_API hsa_signal_##op##_##suffix(hsa_signal_t signal, hsa_signal_value_t value) { \
    if (SignalObject* s = value_signal(signal)) s->view().method(value, order);            \
  }
#define ROCREF_SIGNAL_VOID_OP_ALL(op, method)                             \
  ROCREF_SIGNAL_VOID_OP(op, method, scacq_screl, MemoryOrder::AcqRel)     \
  ROCREF_SIGNAL_VOID_OP(op, method, acq_rel, MemoryOrder::AcqRel)         \
  ROCREF_SIGNAL_VOID_OP(op, method, scacquire, MemoryOrder::Acquire)      \
  ROCREF_SIGNAL_VOID_OP(op, method, acquire, MemoryOrder::Acquire)        \
  ROCREF_SIGNAL_VOID_OP(op, method, relaxed, MemoryOrder::Relaxed)        \
  ROCREF_SIGNAL_VOID_OP(op, method, screlease, MemoryOrder::Release)      \
  ROCREF_SIGNAL_VOID_OP(op, method, release, MemoryOrder::Release)

ROCREF_SIGNAL_VOID_OP_ALL(add, add)
ROCREF_SIGNAL_VOID_OP_ALL(subtract, subtract)
ROCREF_SIGNAL_VOID_OP_ALL(and, bit_and)
ROCREF_SIGNAL_VOID_OP_ALL(or, bit_or)
ROCREF_SIGNAL_VOID_OP_ALL(xor, bit_xor)

#define ROCREF_SIGNAL_EXCHANGE(suffix, order)                                                                  \
  hsa_signal_value_t HSA_API hsa_signal_exchange_##suffix(hsa_signal_t signal, hsa_signal_value_t value) {     \
    SignalObject* s = value_signal(signal);                                                                    \
    return s == nullptr ? 0 : s->view().exchange(value, order);                                                \
  }
#define ROCREF_SIGNAL_CAS(suffix, order)                                                                       \
  hsa_signal_value_t HSA_API hsa_signal_cas_##suffix(hsa_signal_t signal, hsa_signal_value_t expected,         \
                                                     hsa_signal_value_t value) {                               \
    SignalObject* s = value_signal(signal);                                                                    \
    return s == nullptr ? 0 : s->view().cas(expected, value, order);                                           \
  }

ROCREF_HSA_RMW_ORDERS(ROCREF_SIGNAL_EXCHANGE)
ROCREF_HSA_RMW_ORDERS(ROCREF_SIGNAL_CAS)

// --- waits ----------------------------------------------------------------------
hsa_signal_value_t HSA_API hsa_signal_wait_scacquire(hsa_signal_t signal, hsa_signal_condition_t condition,
                                                     hsa_signal_value_t compare_value, uint64_t timeout_hint,
                                                     hsa_wait_state_t wait_state_hint) {
  return wait(signal, condition, compare_value, timeout_hint, wait_state_hint, MemoryOrder::Acquire);
}
hsa_signal_value_t HSA_API hsa_signal_wait_relaxed(hsa_signal_t signal, hsa_signal_condition_t condition,
                                                   hsa_signal_value_t compare_value, uint64_t timeout_hint,
                                                   hsa_wait_state_t wait_state_hint) {
  return wait(signal, condition, compare_value, timeout_hint, wait_state_hint, MemoryOrder::Relaxed);
}
hsa_signal_value_t HSA_API hsa_signal_wait_acquire(hsa_signal_t signal, hsa_signal_condition_t condition,
                                                   hsa_signal_value_t compare_value, uint64_t timeout_hint,
                                                   hsa_wait_state_t wait_state_hint) {
  return wait(signal, condition, compare_value, timeout_hint, wait_state_hint, MemoryOrder::Acquire);
}

}  // extern "C"
