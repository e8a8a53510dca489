// kfd/kfd_events.cpp - CREATE/DESTROY/SET/RESET_EVENT and WAIT_EVENTS (kfd_events.c semantics).
//
// Signal events own a 64-bit slot of the event page (all ones = unsignaled);
// the GPU writes the event id into the slot (the signal's event mailbox) and
// raises an interrupt. Auto-reset events are consumed by the waiter they wake
// (KFD-EVT-3); a wait registers before it sleeps, so a set between the check
// and the sleep is never lost (KFD-EVT-4); event ages (KFD 1.14) let a waiter
// detect a set that happened before it called in (KFD-EVT-6).
#include <linux/kfd_ioctl.h>

#include <algorithm>
#include <chrono>
#include <cerrno>
#include <cstring>
#include <vector>

#include "kfd/device_state.h"
#include "kfd/user_copy.h"

namespace rocref::kfd {
namespace {

bool is_signal_type(uint32_t type) { return type == KFD_IOC_EVENT_SIGNAL || type == KFD_IOC_EVENT_DEBUG_EVENT; }

Event* find_event(Process& p, uint32_t id) {
  auto it = p.events.find(id);
  return it == p.events.end() ? nullptr : it->second.get();
}

int set_user_event_page(DeviceState& d, Process& p, uint64_t handle) {
  if (p.signal_slots) return -EINVAL;  // "Event page is already set"
  const int gpu = d.gpu_index(handle_gpu_id(handle));
  if (gpu < 0) return -EINVAL;
  if (p.pdd[gpu].drm_fd < 0) return -ESRCH;
  auto it = p.bos.find(handle_idr(handle));
  if (it == p.bos.end() || it->second.kind != BoKind::Gtt || it->second.gpu != static_cast<uint32_t>(gpu))
    return -EINVAL;
  p.signal_slots = reinterpret_cast<uint64_t*>(it->second.host);
  p.signal_slot_count = std::min<uint64_t>(it->second.size / 8, KFD_SIGNAL_EVENT_LIMIT);
  p.signal_page_from_user = true;
  for (uint64_t i = 0; i < p.signal_slot_count; ++i) p.reset_slot(i);
  return 0;
}

int ensure_own_event_page(Process& p) {
  if (p.signal_slots) return 0;
  auto page = std::make_unique<HostArena>("rocref-events", kEventPageSize);
  if (!page->ok()) return -ENOMEM;
  p.signal_slots = reinterpret_cast<uint64_t*>(page->at(0));
  p.signal_slot_count = KFD_SIGNAL_EVENT_LIMIT;
  for (uint64_t i = 0; i < p.signal_slot_count; ++i) p.reset_slot(i);
  p.own_event_page = std::move(page);
  return 0;
}

}  // namespace

void DeviceState::signal_event_locked(Process&, Event& ev) {
  // kfd_events.c set_event: an auto-reset event that wakes a waiter stays unsignaled.
  ev.signaled = !ev.auto_reset || ev.waiters.empty();
  for (EventWaiter* w : ev.waiters) w->activated = true;
  ++ev.age;
  // As set_event's wake_up_all on the event's own queue: nobody waits on this event, nobody
  // wakes (the waiters of other events would only find theirs unset and sleep again).
  if (!ev.waiters.empty()) event_cv.notify_all();
}

void DeviceState::destroy_event_locked(Process& p, uint32_t id) {
  auto it = p.events.find(id);
  if (it == p.events.end()) return;
  for (EventWaiter* w : it->second->waiters) w->event = nullptr;  // KFD-EVT-5: waiters fail
  if (is_signal_type(it->second->type) && p.signal_slots && id < p.signal_slot_count)
    p.reset_slot(id);
  p.events.erase(it);
  event_cv.notify_all();
}

// KFD-EVT-1
int kfd_ioctl_create_event(IoctlCall& c) {
  auto* args = static_cast<kfd_ioctl_create_event_args*>(c.args);
  DeviceState& d = c.dev;
  Process& p = c.p;
  if (args->event_page_offset) {  // dGPU: the thunk's 32 KiB GTT buffer, passed once
    if (const int err = set_user_event_page(d, p, args->event_page_offset)) return err;
  }
  auto ev = std::make_unique<Event>();
  ev->type = args->event_type;
  ev->auto_reset = args->auto_reset != 0;
  if (is_signal_type(ev->type)) {
    if (const int err = ensure_own_event_page(p)) return err;
    uint32_t id = 0;
    while (id < p.signal_slot_count && p.events.count(id)) ++id;
    if (id >= p.signal_slot_count) return -ENOSPC;
    ev->id = id;
    p.reset_slot(id);
    args->event_page_offset = kMmapTypeEvents;
    args->event_trigger_data = id;
    args->event_slot_index = id;
  } else {
    uint32_t id = kFirstNonSignalEventId;
    while (p.events.count(id)) {
      if (id == 0xffffffffu) return -ENOMEM;
      ++id;
    }
    ev->id = id;
    args->event_trigger_data = 0;
    args->event_slot_index = 0;
  }
  args->event_id = ev->id;
  p.events[ev->id] = std::move(ev);
  return 0;
}

int kfd_ioctl_destroy_event(IoctlCall& c) {
  auto* args = static_cast<kfd_ioctl_destroy_event_args*>(c.args);
  if (!find_event(c.p, args->event_id)) return -EINVAL;
  c.dev.destroy_event_locked(c.p, args->event_id);
  return 0;
}

// KFD-EVT-2: only signal events can be set from the CPU.
int kfd_ioctl_set_event(IoctlCall& c) {
  auto* args = static_cast<kfd_ioctl_set_event_args*>(c.args);
  Event* ev = find_event(c.p, args->event_id);
  if (!ev || ev->type != KFD_IOC_EVENT_SIGNAL) return -EINVAL;
  c.dev.signal_event_locked(c.p, *ev);
  return 0;
}

int kfd_ioctl_reset_event(IoctlCall& c) {
  auto* args = static_cast<kfd_ioctl_reset_event_args*>(c.args);
  Event* ev = find_event(c.p, args->event_id);
  if (!ev) return -EINVAL;
  ev->signaled = false;
  return 0;
}

// KFD-EVT-3..6
int kfd_ioctl_wait_events(IoctlCall& c) {
  auto* args = static_cast<kfd_ioctl_wait_events_args*>(c.args);
  DeviceState& d = c.dev;
  Process& p = c.p;
  const uint32_t n = args->num_events;
  if (n > KFD_SIGNAL_EVENT_LIMIT * 4) return -ENOMEM;
  std::vector<kfd_event_data> data(n);
  if (copy_from_user(data.data(), args->events_ptr, n * sizeof(kfd_event_data)) != 0) return -EFAULT;
  for (const auto& e : data)
    if (!find_event(p, e.event_id)) return -EINVAL;  // checked before any event is touched

  std::vector<EventWaiter> waiters(n);
  std::vector<bool> age_enabled(n, false);
  for (uint32_t i = 0; i < n; ++i) {
    Event* ev = find_event(p, data[i].event_id);
    waiters[i].event = ev;
    waiters[i].activated = ev->signaled;
    ev->signaled = ev->signaled && !ev->auto_reset;  // the waiter consumes an auto-reset event
    EventAgeData age{};
    std::memcpy(&age, &data[i], sizeof(age));
    if (ev->type == KFD_IOC_EVENT_SIGNAL && age.last_event_age != 0) {
      age_enabled[i] = true;
      if (age.last_event_age != ev->age) waiters[i].activated = true;  // set since the caller looked
    }
  }
  for (auto& w : waiters) w.event->waiters.push_back(&w);

  auto test = [&]() -> uint32_t {
    uint32_t activated = 0;
    for (const auto& w : waiters) {
      if (!w.event) return KFD_IOC_WAIT_RESULT_FAIL;
      if (w.activated) {
        if (!args->wait_for_all) return KFD_IOC_WAIT_RESULT_COMPLETE;
        ++activated;
      }
    }
    return activated == n ? KFD_IOC_WAIT_RESULT_COMPLETE : KFD_IOC_WAIT_RESULT_TIMEOUT;
  };
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(args->timeout);
  uint32_t result = test();
  while (result == KFD_IOC_WAIT_RESULT_TIMEOUT && args->timeout != 0) {
    if (args->timeout == kEventTimeoutInfinite) {
      d.event_cv.wait(c.lock);
    } else if (d.event_cv.wait_until(c.lock, deadline) == std::cv_status::timeout) {
      result = test();
      break;
    }
    result = test();
  }

  for (uint32_t i = 0; i < n; ++i) {
    Event* ev = waiters[i].event;
    if (!ev) continue;
    auto& list = ev->waiters;
    list.erase(std::remove(list.begin(), list.end(), &waiters[i]), list.end());
    if (age_enabled[i]) {
      const EventAgeData age{ev->age};
      std::memcpy(&data[i], &age, sizeof(age));
    }
    if (result == KFD_IOC_WAIT_RESULT_COMPLETE && ev->type == KFD_IOC_EVENT_MEMORY && waiters[i].activated)
      data[i].memory_exception_data = ev->memory;
  }
  args->wait_result = result;
  if (copy_to_user(args->events_ptr, data.data(), n * sizeof(kfd_event_data)) != 0) return -EFAULT;
  return 0;
}

}  // namespace rocref::kfd
