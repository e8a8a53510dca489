// hip/hip_event.cpp - events as barrier-AND markers with completion signals (HIP-EVT-*).
//
// Each record is a marker packet on the stream whose completion signal (from
// the device's signal pool, set to 1) the GPU model decrements and stamps with
// the marker's completion time in end_ts, which hipEventElapsedTime reads
// through hsa_amd_profiling_get_dispatch_time. The event holds a reference to
// its latest record's signal; re-recording or destroying the event gives it
// back (the marker command holds its own until it completed).
#include <hsa/hsa_ext_amd.h>

#include "common/trace.h"
#include "hip/hip_state.h"

using rocref::hip::result;

namespace {

double ticks_per_ms() {
  static const double value = [] {
    uint64_t frequency = 0;
    hsa_system_get_info(HSA_SYSTEM_INFO_TIMESTAMP_FREQUENCY, &frequency);
    return frequency == 0 ? 1e6 : static_cast<double>(frequency) / 1000.0;
  }();
  return value;
}

bool valid(hipEvent_t event) { return event != nullptr && rocref::hip::known_event(event); }

}  // namespace

hipError_t hipEventCreateWithFlags(hipEvent_t* event, unsigned flags) {
  // HIP 5.2.3 also takes the release-scope flags, one of them at most (HIP-DEV-9); the model's markers
  // release at system scope whichever is asked.
  constexpr unsigned kRelease = hipEventReleaseToDevice | hipEventReleaseToSystem;
  constexpr unsigned kKnown = hipEventBlockingSync | hipEventDisableTiming | hipEventInterprocess | kRelease;
  if (event == nullptr || (flags & ~kKnown) != 0 || (flags & kRelease) == kRelease) return result(hipErrorInvalidValue);
  if (const auto d = rocref::hip::device(); !d) return result(d.error());
  auto* e = new ihipEvent_t();
  e->flags = flags;
  rocref::hip::register_event(e);
  *event = e;
  return hipSuccess;
}

hipError_t hipEventCreate(hipEvent_t* event) { return hipEventCreateWithFlags(event, hipEventDefault); }

hipError_t hipEventRecord(hipEvent_t event, hipStream_t stream) {
  ROCREF_TRACE_SPAN(rocref::trace::Layer::Hip, "hipEventRecord", "");
  if (!valid(event)) return result(hipErrorInvalidResourceHandle);
  ihipStream_t* s = rocref::hip::resolve_stream(stream);
  if (s == nullptr) return result(hipErrorInvalidResourceHandle);
  // HIP-GRAPH-4: on a capturing stream the record is part of the capture, not a marker.
  if (stream != nullptr && rocref::hip::capturing(s)) return result(rocref::hip::capture_event_record(s, event));
  auto vgpu = rocref::hip::shared_virtual_gpu(s);
  if (!vgpu) return result(vgpu.error());
  std::shared_ptr<rocref::clr::VirtualGpu> gpu = std::move(vgpu).value();
  std::lock_guard lock(event->mutex);
  hsa_signal_t signal;
  if (hsa_status_t st = gpu->marker(&signal); st != HSA_STATUS_SUCCESS) return result(rocref::hip::from_hsa(st));
  if (event->recorded) event->gpu->device().signal_pool().release(event->signal);
  event->signal = signal;
  event->recorded = true;
  event->gpu = std::move(gpu);
  return hipSuccess;
}

hipError_t hipEventSynchronize(hipEvent_t event) {
  ROCREF_TRACE_SPAN(rocref::trace::Layer::Hip, "hipEventSynchronize", "");
  if (!valid(event)) return result(hipErrorInvalidResourceHandle);
  std::lock_guard lock(event->mutex);
  if (!event->recorded) return hipSuccess;
  return result(rocref::hip::from_hsa(event->gpu->wait_signal(event->signal)));
}

hipError_t hipEventQuery(hipEvent_t event) {
  if (!valid(event)) return result(hipErrorInvalidResourceHandle);
  std::lock_guard lock(event->mutex);
  if (!event->recorded) return hipSuccess;
  if (hsa_signal_load_scacquire(event->signal) > 0) {
    if (hsa_status_t e = event->gpu->error(); e != HSA_STATUS_SUCCESS) return result(rocref::hip::from_hsa(e));
    return hipErrorNotReady;
  }
  return hipSuccess;
}

hipError_t hipEventElapsedTime(float* ms, hipEvent_t start, hipEvent_t stop) {
  if (ms == nullptr) return result(hipErrorInvalidValue);
  if (!valid(start) || !valid(stop)) return result(hipErrorInvalidResourceHandle);
  if ((start->flags | stop->flags) & hipEventDisableTiming) return result(hipErrorInvalidResourceHandle);
  // One event may be both ends (0 ms): locking its mutex twice would deadlock.
  std::unique_lock lock_start(start->mutex, std::defer_lock), lock_stop(stop->mutex, std::defer_lock);
  if (start == stop) {
    lock_start.lock();
  } else {
    std::lock(lock_start, lock_stop);
  }
  if (!start->recorded || !stop->recorded) return result(hipErrorInvalidResourceHandle);
  if (hsa_signal_load_scacquire(start->signal) > 0 || hsa_signal_load_scacquire(stop->signal) > 0) {
    return result(hipErrorNotReady);
  }
  if (start == stop) {  // one marker: no interval (each timestamp read translates anew)
    *ms = 0.0f;
    return hipSuccess;
  }
  rocref::clr::Device* d = &start->gpu->device();
  hsa_amd_profiling_dispatch_time_t t0{}, t1{};
  if (hsa_amd_profiling_get_dispatch_time(d->gpu(), start->signal, &t0) != HSA_STATUS_SUCCESS ||
      hsa_amd_profiling_get_dispatch_time(d->gpu(), stop->signal, &t1) != HSA_STATUS_SUCCESS) {
    return result(hipErrorInvalidResourceHandle);
  }
  *ms = static_cast<float>((static_cast<double>(t1.end) - static_cast<double>(t0.end)) / ticks_per_ms());
  return hipSuccess;
}

hipError_t hipEventDestroy(hipEvent_t event) {
  if (event == nullptr || !rocref::hip::unregister_event(event)) return result(hipErrorInvalidResourceHandle);
  rocref::hip::forget_capture_event(event);
  {
    std::lock_guard lock(event->mutex);
    // No wait: a pending marker, and any stream waiting on it, hold references of their own.
    if (event->recorded) event->gpu->device().signal_pool().release(event->signal);
  }
  delete event;
  return hipSuccess;
}
