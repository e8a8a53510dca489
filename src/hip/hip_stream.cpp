// hip/hip_stream.cpp - streams: each one a virtual GPU with its own AQL queue (HIP-STR-*).
#include "common/trace.h"
#include "hip/hip_state.h"

using rocref::hip::result;

hipError_t hipStreamCreateWithFlags(hipStream_t* stream, unsigned int flags) {
  ROCREF_TRACE_SPAN(rocref::trace::Layer::Hip, "hipStreamCreate", "");
  if (stream == nullptr || (flags != hipStreamDefault && flags != hipStreamNonBlocking)) {
    return result(hipErrorInvalidValue);
  }
  if (const auto d = rocref::hip::device(); !d) return result(d.error());
  auto* s = new ihipStream_t();
  s->device = rocref::hip::current_device();  // HIP-DEV-8: the stream belongs to the current device
  s->flags = flags;
  if (const auto gpu = rocref::hip::virtual_gpu(s); !gpu) {
    delete s;
    return result(gpu.error());
  }
  rocref::hip::register_stream(s);
  *stream = s;
  return hipSuccess;
}

hipError_t hipStreamCreate(hipStream_t* stream) { return hipStreamCreateWithFlags(stream, hipStreamDefault); }

hipError_t hipStreamDestroy(hipStream_t stream) {
  ROCREF_TRACE_SPAN(rocref::trace::Layer::Hip, "hipStreamDestroy", "");
  if (stream == nullptr || !rocref::hip::unregister_stream(stream)) return result(hipErrorInvalidResourceHandle);
  rocref::hip::forget_capture_stream(stream);
  delete stream;  // the virtual GPU waits for its work, then destroys its queue
  return hipSuccess;
}

hipError_t hipStreamSynchronize(hipStream_t stream) {
  ROCREF_TRACE_SPAN(rocref::trace::Layer::Hip, "hipStreamSynchronize", "");
  ihipStream_t* s = rocref::hip::resolve_stream(stream);
  if (s == nullptr) return result(hipErrorInvalidResourceHandle);
  const auto vgpu = rocref::hip::virtual_gpu(s);
  if (!vgpu) return result(vgpu.error());
  rocref::clr::VirtualGpu* gpu = *vgpu;
  return result(rocref::hip::from_hsa(gpu->synchronize()));
}

hipError_t hipStreamQuery(hipStream_t stream) {
  ihipStream_t* s = rocref::hip::resolve_stream(stream);
  if (s == nullptr) return result(hipErrorInvalidResourceHandle);
  const auto vgpu = rocref::hip::virtual_gpu(s);
  if (!vgpu) return result(vgpu.error());
  rocref::clr::VirtualGpu* gpu = *vgpu;
  if (!gpu->idle()) return hipErrorNotReady;  // not an error: not recorded as the last one
  return result(rocref::hip::from_hsa(gpu->error()));
}

hipError_t hipStreamWaitEvent(hipStream_t stream, hipEvent_t event, unsigned int flags) {
  ROCREF_TRACE_SPAN(rocref::trace::Layer::Hip, "hipStreamWaitEvent", "");
  // HIP-GRAPH-4: an event recorded in a capture joins the waiting stream to it (checked first, as HIP 5.2.3).
  if (event != nullptr && rocref::hip::known_event(event) && rocref::hip::event_in_capture(event)) {
    ihipStream_t* s = rocref::hip::resolve_stream(stream);
    if (s == nullptr) return result(hipErrorInvalidValue);
    return result(rocref::hip::capture_wait_event(s, stream == nullptr, event));
  }
  if (flags != 0) return result(hipErrorInvalidValue);
  ihipStream_t* s = rocref::hip::resolve_stream(stream);
  if (s == nullptr || event == nullptr || !rocref::hip::known_event(event)) {
    return result(hipErrorInvalidResourceHandle);
  }
  // Locked: a concurrent re-record gives the old signal back; wait_for takes its reference first.
  std::lock_guard lock(event->mutex);
  if (!event->recorded) return hipSuccess;  // HIP-STR-4: waiting on an unrecorded event is no wait
  const auto vgpu = rocref::hip::virtual_gpu(s);
  if (!vgpu) return result(vgpu.error());
  rocref::clr::VirtualGpu* gpu = *vgpu;
  return result(rocref::hip::from_hsa(gpu->wait_for(event->signal)));
}

hipError_t hipStreamGetFlags(hipStream_t stream, unsigned int* flags) {
  if (flags == nullptr) return result(hipErrorInvalidValue);
  ihipStream_t* s = rocref::hip::resolve_stream(stream);
  if (s == nullptr) return result(hipErrorInvalidResourceHandle);
  *flags = s->flags;
  return hipSuccess;
}
