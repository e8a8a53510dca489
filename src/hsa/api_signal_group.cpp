// hsa/api_signal_group.cpp - C entry points: signal groups (HSA-SIG-8) and
// hsa_amd_signal_value_pointer (HSA-SIG-9).
//
// A group is the list of its signals, checked at creation; waiting on it is
// hsa_amd_signal_wait_any over that list with no timeout, as in ROCR. The value
// pointer is only handed out for a signal without a KFD event (ROCR's busy-wait
// signals): a host that stores through it bypasses the event an interrupt signal's
// waiters sleep on.
#include <hsa/hsa.h>
#include <hsa/hsa_ext_amd.h>

#include <atomic>
#include <memory>
#include <mutex>
#include <unordered_map>
#include <vector>

#include "hsa/hsa_mutant.h"
#include "hsa/runtime.h"
#include "hsa/signal_object.h"

using rocref::hsa::Runtime;
using rocref::hsa::runtime;
using rocref::hsa::SignalObject;

namespace {

struct SignalGroup {
  std::vector<hsa_signal_t> signals;
};

// Handles are group addresses, checked here before any use; never destroyed (exit handlers).
std::mutex& g_groups_mutex = *new std::mutex;
auto& g_groups = *new std::unordered_map<uint64_t, std::unique_ptr<SignalGroup>>;

// The signals of a live group (copied: another thread may destroy it while we wait), or false.
bool group_signals(hsa_signal_group_t group, std::vector<hsa_signal_t>* out) {
  std::lock_guard lock(g_groups_mutex);
  auto it = g_groups.find(group.handle);
  if (it == g_groups.end()) return false;
  *out = it->second->signals;
  return true;
}

}  // namespace

extern "C" {

hsa_status_t HSA_API hsa_signal_group_create(uint32_t num_signals, const hsa_signal_t* signals, uint32_t num_consumers,
                                             const hsa_agent_t* consumers, hsa_signal_group_t* signal_group) {
  Runtime* rt = runtime();
  if (rt == nullptr) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  if (num_signals == 0 || signals == nullptr || signal_group == nullptr) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  if (num_consumers != 0 && consumers == nullptr) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  for (uint32_t i = 0; i < num_signals; ++i) {
    SignalObject* object = nullptr;
    if (hsa_status_t s = rt->checked_signal(signals[i], &object); s != HSA_STATUS_SUCCESS) return s;
  }
  for (uint32_t i = 0; i < num_consumers; ++i) {
    if (rt->find_agent(consumers[i]) == nullptr) return HSA_STATUS_ERROR_INVALID_AGENT;
  }
  auto group = std::make_unique<SignalGroup>();
  group->signals.assign(signals, signals + num_signals);
  const auto handle = reinterpret_cast<uint64_t>(group.get());
  std::lock_guard lock(g_groups_mutex);
  g_groups.emplace(handle, std::move(group));
  signal_group->handle = handle;
  return HSA_STATUS_SUCCESS;
}

hsa_status_t HSA_API hsa_signal_group_destroy(hsa_signal_group_t signal_group) {
  if (runtime() == nullptr) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  std::lock_guard lock(g_groups_mutex);
  if (g_groups.erase(signal_group.handle) == 0) return HSA_STATUS_ERROR_INVALID_SIGNAL_GROUP;
  return HSA_STATUS_SUCCESS;
}

hsa_status_t HSA_API hsa_signal_group_wait_any_relaxed(hsa_signal_group_t signal_group,
                                                       const hsa_signal_condition_t* conditions,
                                                       const hsa_signal_value_t* compare_values,
                                                       hsa_wait_state_t wait_state_hint, hsa_signal_t* signal,
                                                       hsa_signal_value_t* value) {
  if (runtime() == nullptr) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  if (conditions == nullptr || compare_values == nullptr || signal == nullptr || value == nullptr) {
    return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  }
  std::vector<hsa_signal_t> signals;
  if (!group_signals(signal_group, &signals)) return HSA_STATUS_ERROR_INVALID_SIGNAL_GROUP;
  std::vector<hsa_signal_condition_t> conds(conditions, conditions + signals.size());
  std::vector<hsa_signal_value_t> values(compare_values, compare_values + signals.size());
  const uint32_t index = hsa_amd_signal_wait_any(static_cast<uint32_t>(signals.size()), signals.data(), conds.data(),
                                                 values.data(), UINT64_MAX, wait_state_hint, value);
  if (index >= signals.size()) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  *signal = signals[rocref::hsa::hsa_mutant_active(rocref::hsa::HsaMutant::SignalGroupAnswersTheFirst) ? 0 : index];
  return HSA_STATUS_SUCCESS;
}

hsa_status_t HSA_API hsa_signal_group_wait_any_scacquire(hsa_signal_group_t signal_group,
                                                         const hsa_signal_condition_t* conditions,
                                                         const hsa_signal_value_t* compare_values,
                                                         hsa_wait_state_t wait_state_hint, hsa_signal_t* signal,
                                                         hsa_signal_value_t* value) {
  const hsa_status_t status =
      hsa_signal_group_wait_any_relaxed(signal_group, conditions, compare_values, wait_state_hint, signal, value);
  std::atomic_thread_fence(std::memory_order_acquire);
  return status;
}

hsa_status_t HSA_API hsa_amd_signal_value_pointer(hsa_signal_t signal, volatile hsa_signal_value_t** value_ptr) {
  Runtime* rt = runtime();
  if (rt == nullptr) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  if (value_ptr == nullptr) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  SignalObject* object = nullptr;
  if (hsa_status_t s = rt->checked_signal(signal, &object); s != HSA_STATUS_SUCCESS) return s;
  if (object->is_interrupt() || object->is_doorbell()) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  *value_ptr = &object->amd.value;
  return HSA_STATUS_SUCCESS;
}

}  // extern "C"
