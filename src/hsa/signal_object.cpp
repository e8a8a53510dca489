// hsa/signal_object.cpp - signal value operations, KFD sleeps and the signal pool.
#include "hsa/signal_object.h"

#include <algorithm>
#include <atomic>
#include <cstring>
#include <new>
#include <thread>

#include "common/engine_wake.h"
#include "common/trace.h"
#include "hsa/runtime.h"

#if ROCREF_HSA_EVENT_AGE
#include "thunk/hsakmt_ext.h"
#endif

namespace rocref::hsa {

sig::Signal SignalObject::view(bool may_sleep) noexcept {
  if (event_ == nullptr) return sig::Signal(&amd);
  sig::SignalHooks hooks;
  hooks.wake = &SignalObject::wake_hook;
  hooks.sleep = may_sleep ? &SignalObject::sleep_hook : nullptr;
  hooks.context = this;
  return sig::Signal(&amd, hooks);
}

int64_t SignalObject::load(MemoryOrder order) noexcept {
  // HSA-SIG-2: a doorbell signal is write-only (ROCR's AqlQueue returns 0 as well).
  if (is_doorbell()) return 0;
  return view().load(order);
}

void SignalObject::store(int64_t value, MemoryOrder order, bool silent) noexcept {
  if (is_doorbell()) {
    // HSA-SIG-2 / AQL-DB-4: the doorbell word, then wake a sleeping packet processor.
    std::atomic_ref<uint64_t> bell(*const_cast<uint64_t*>(amd.hardware_doorbell_ptr));
    bell.store(static_cast<uint64_t>(value), store_order(order));
    notify_doorbell_listeners();
    return;
  }
  if (silent) {
    // hsa_signal_silent_store_*: the value only, no waiter is woken.
    sig::Signal(&amd).store(value, order);
    return;
  }
  view().store(value, order);
}

void SignalObject::wake_hook(amd_signal_t*, void* context) {
  auto* self = static_cast<SignalObject*>(context);
  // HSA-SIG-5: store-buffering with sleep_hook's waiter count; seq_cst on both sides.
  std::atomic_thread_fence(std::memory_order_seq_cst);
  if (self->waiters_.load(std::memory_order_seq_cst) != 0) hsaKmtSetEvent(self->event_);
}

void SignalObject::sleep_hook(amd_signal_t* signal, int64_t observed, std::chrono::nanoseconds timeout,
                              void* context) {
  auto* self = static_cast<SignalObject*>(context);
  self->waiters_.fetch_add(1, std::memory_order_seq_cst);
  const int64_t now = std::atomic_ref<int64_t>(const_cast<int64_t&>(signal->value)).load(std::memory_order_seq_cst);
  if (now == observed) {
    const auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(timeout).count();
    ROCREF_TRACE_SPAN(rocref::trace::Layer::Hsa, "signal wait: sleep in the KFD", "");
    const uint32_t bounded = static_cast<uint32_t>(std::clamp<int64_t>(ms, 1, kMaxSleepMs));
#if ROCREF_HSA_EVENT_AGE
    // HSA-SIG-4: the event age this thread last saw on this signal; the wait returns
    // at once if the event fired since, closing the check-then-sleep window.
    thread_local const SignalObject* t_signal = nullptr;
    thread_local uint64_t t_age = 1;  // 0 would switch ages off (KFD: backward compatible)
    if (t_signal != self) {
      t_signal = self;
      t_age = 1;
    }
    hsaKmtWaitOnEvent_Ext(self->event_, bounded, &t_age);
#else
    hsaKmtWaitOnEvent(self->event_, bounded);
#endif
  }
  self->waiters_.fetch_sub(1, std::memory_order_seq_cst);
}

SignalPool::~SignalPool() {
  for (void* block : blocks_) {
    hsaKmtUnmapMemoryToGPU(block);
    hsaKmtFreeMemory(block, kBlockBytes);
  }
}

bool SignalPool::grow() {
  HsaMemFlags flags{};
  flags.ui32.HostAccess = 1;
  flags.ui32.NonPaged = 1;
  flags.ui32.CachePolicy = HSA_CACHING_CACHED;
  void* block = nullptr;
  if (hsaKmtAllocMemory(0, kBlockBytes, flags, &block) != HSAKMT_STATUS_SUCCESS || block == nullptr) return false;
  HSAuint64 gpu_va = 0;
  if (hsaKmtMapMemoryToGPU(block, kBlockBytes, &gpu_va) != HSAKMT_STATUS_SUCCESS) {
    hsaKmtFreeMemory(block, kBlockBytes);
    return false;
  }
  blocks_.push_back(block);
  auto* slots = static_cast<SignalObject*>(block);
  for (size_t i = kBlockBytes / sizeof(SignalObject); i-- > 0;) free_.push_back(&slots[i]);
  return true;
}

SignalObject* SignalPool::create(int64_t initial_value, amd_signal_kind64_t kind, bool interrupt) {
  HsaEvent* event = nullptr;
  if (interrupt) {
    HsaEventDescriptor descriptor{};
    descriptor.EventType = HSA_EVENTTYPE_SIGNAL;
    descriptor.NodeId = 0;
    descriptor.SyncVar.SyncVar.UserData = nullptr;
    descriptor.SyncVar.SyncVarSize = sizeof(hsa_signal_value_t);
    // HSA-SIG-4: with the KFD's events used up the signal still works, without an
    // event: its waiters poll (yield) instead of sleeping in the driver.
    if (hsaKmtCreateEvent(&descriptor, false, false, &event) != HSAKMT_STATUS_SUCCESS) event = nullptr;
  }
  SignalObject* signal = nullptr;
  {
    std::lock_guard lock(mutex_);
    if (free_.empty() && !grow()) {
      if (event != nullptr) hsaKmtDestroyEvent(event);
      return nullptr;
    }
    signal = free_.back();
    free_.pop_back();
  }
  signal = new (signal) SignalObject();
  signal->amd.kind = kind;
  signal->amd.value = initial_value;
  if (event != nullptr) {
    // HSA-SIG-4: where the GPU writes on completion (AQL-SIG-3). The thunk keeps the
    // event slot's address in HWData2 and the trigger data in HWData3 (ROCR reads the same).
    signal->amd.event_mailbox_ptr = event->EventData.HWData2;
    signal->amd.event_id = event->EventData.HWData3 != 0 ? event->EventData.HWData3 : event->EventId;
  }
  signal->event_ = event;
  signal->magic_ = SignalObject::kMagic;
  std::atomic_thread_fence(std::memory_order_release);
  return signal;
}

void SignalPool::destroy(SignalObject* signal) {
  while (signal->held()) std::this_thread::yield();  // a completion still inside its call
  if (signal->event_ != nullptr) hsaKmtDestroyEvent(signal->event_);
  signal->magic_ = 0;
  signal->event_ = nullptr;
  signal->amd.kind = AMD_SIGNAL_KIND_INVALID;
  signal->~SignalObject();
  std::lock_guard lock(mutex_);
  free_.push_back(signal);
}

}  // namespace rocref::hsa
