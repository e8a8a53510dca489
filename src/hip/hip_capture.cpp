// hip/hip_capture.cpp - stream capture (HIP-GRAPH-3).
//
// Between hipStreamBeginCapture and hipStreamEndCapture a stream records
// instead of running: kernel launches, hipMemcpyAsync, hipMemsetAsync and
// hipLaunchHostFunc become graph nodes, each depending on the stream's
// previous one (the capture's leaves). Anything else that would enqueue on the
// stream or wait for it (other copies, events, synchronization) finds the
// stream capturing in shared_virtual_gpu, is hipErrorStreamCaptureUnsupported
// and invalidates the capture, which hipStreamEndCapture then reports as
// hipErrorStreamCaptureInvalidated.
#include "hip/hip_capture.h"

#include <algorithm>
#include <atomic>
#include <mutex>

#include "hip/hip_mutant.h"
#include "hip/hip_state.h"

using rocref::hip::result;

namespace {

std::mutex g_capture_mutex;
std::atomic<unsigned long long> g_next_capture_id{1};
thread_local hipStreamCaptureMode t_capture_mode = hipStreamCaptureModeGlobal;

hipStreamCaptureStatus status_of(const ihipStream_t& s) {
  if (!s.capture) return hipStreamCaptureStatusNone;
  return s.capture->invalidated ? hipStreamCaptureStatusInvalidated : hipStreamCaptureStatusActive;
}

bool in_graph(hipGraph_t graph, hipGraphNode_t node) {
  size_t count = 0;
  if (hipGraphGetNodes(graph, nullptr, &count) != hipSuccess) return false;
  std::vector<hipGraphNode_t> nodes(count);
  if (hipGraphGetNodes(graph, nodes.data(), &count) != hipSuccess) return false;
  return std::find(nodes.begin(), nodes.end(), node) != nodes.end();
}

}  // namespace

namespace rocref::hip {

bool capturing(ihipStream_t* stream) {
  if (hip_mutant_active(HipMutant::CaptureIgnored)) return false;
  // The flag changes with `capture`, under g_capture_mutex; a launch reads it without the lock.
  return stream != nullptr && stream->capture_active.load(std::memory_order_acquire);
}

hipError_t refuse_in_capture(ihipStream_t* stream) {
  std::lock_guard lock(g_capture_mutex);
  if (stream->capture) stream->capture->invalidated = true;
  return hipErrorStreamCaptureUnsupported;
}

hipError_t capture_node(ihipStream_t* stream,
                        hipError_t (*add_node)(hipGraphNode_t*, hipGraph_t, const hipGraphNode_t*, size_t, const void*),
                        const void* params) {
  std::lock_guard lock(g_capture_mutex);
  Capture* c = stream->capture.get();
  if (c == nullptr) return hipErrorIllegalState;
  if (c->invalidated) return hipErrorStreamCaptureInvalidated;
  hipGraphNode_t node = nullptr;
  if (hipError_t e = add_node(&node, c->graph, c->leaves.data(), c->leaves.size(), params); e != hipSuccess) return e;
  c->leaves.assign(1, node);
  return hipSuccess;
}

}  // namespace rocref::hip

hipError_t hipStreamBeginCapture(hipStream_t stream, hipStreamCaptureMode mode) {
  ihipStream_t* s = rocref::hip::resolve_stream(stream);
  if (s == nullptr) return result(hipErrorInvalidHandle);
  if (stream == nullptr) return result(hipErrorStreamCaptureUnsupported);  // the legacy null stream is never captured
  if (mode < hipStreamCaptureModeGlobal || mode > hipStreamCaptureModeRelaxed) return result(hipErrorInvalidValue);
  std::lock_guard lock(g_capture_mutex);
  if (s->capture) return result(hipErrorIllegalState);
  hipGraph_t graph = nullptr;
  if (hipError_t e = hipGraphCreate(&graph, 0); e != hipSuccess) return e;
  s->capture = std::make_unique<rocref::hip::Capture>();
  s->capture->graph = graph;
  s->capture->mode = mode;
  s->capture->id = g_next_capture_id++;
  s->capture_active.store(true, std::memory_order_release);
  return hipSuccess;
}

hipError_t hipStreamEndCapture(hipStream_t stream, hipGraph_t* pGraph) {
  if (pGraph == nullptr) return result(hipErrorInvalidValue);
  ihipStream_t* s = rocref::hip::resolve_stream(stream);
  if (s == nullptr) return result(hipErrorInvalidHandle);
  std::unique_ptr<rocref::hip::Capture> c;
  {
    std::lock_guard lock(g_capture_mutex);
    c = std::move(s->capture);
    s->capture_active.store(false, std::memory_order_release);
  }
  if (!c) return result(hipErrorStreamCaptureUnmatched);  // not capturing: HIP 5.2.3's code
  if (c->invalidated) {
    (void)hipGraphDestroy(c->graph);
    *pGraph = nullptr;
    return result(hipErrorStreamCaptureInvalidated);
  }
  *pGraph = c->graph;
  return hipSuccess;
}

hipError_t hipStreamIsCapturing(hipStream_t stream, hipStreamCaptureStatus* pCaptureStatus) {
  if (pCaptureStatus == nullptr) return result(hipErrorInvalidValue);
  ihipStream_t* s = rocref::hip::resolve_stream(stream);
  if (s == nullptr) return result(hipErrorInvalidHandle);
  std::lock_guard lock(g_capture_mutex);
  *pCaptureStatus = status_of(*s);
  return hipSuccess;
}

hipError_t hipStreamGetCaptureInfo(hipStream_t stream, hipStreamCaptureStatus* pCaptureStatus, unsigned long long* pId) {
  if (pCaptureStatus == nullptr) return result(hipErrorInvalidValue);
  ihipStream_t* s = rocref::hip::resolve_stream(stream);
  if (s == nullptr) return result(hipErrorInvalidHandle);
  std::lock_guard lock(g_capture_mutex);
  *pCaptureStatus = status_of(*s);
  if (pId != nullptr) *pId = s->capture ? s->capture->id : 0;
  return hipSuccess;
}

hipError_t hipStreamGetCaptureInfo_v2(hipStream_t stream, hipStreamCaptureStatus* captureStatus_out,
                                      unsigned long long* id_out, hipGraph_t* graph_out,
                                      const hipGraphNode_t** dependencies_out, size_t* numDependencies_out) {
  if (captureStatus_out == nullptr) return result(hipErrorInvalidValue);
  ihipStream_t* s = rocref::hip::resolve_stream(stream);
  if (s == nullptr) return result(hipErrorInvalidHandle);
  std::lock_guard lock(g_capture_mutex);
  const rocref::hip::Capture* c = s->capture.get();
  *captureStatus_out = status_of(*s);
  if (id_out != nullptr) *id_out = c != nullptr ? c->id : 0;
  if (graph_out != nullptr) *graph_out = c != nullptr ? c->graph : nullptr;
  if (dependencies_out != nullptr) *dependencies_out = c != nullptr ? c->leaves.data() : nullptr;
  if (numDependencies_out != nullptr) *numDependencies_out = c != nullptr ? c->leaves.size() : 0;
  return hipSuccess;
}

hipError_t hipStreamUpdateCaptureDependencies(hipStream_t stream, hipGraphNode_t* dependencies, size_t numDependencies,
                                              unsigned int flags) {
  ihipStream_t* s = rocref::hip::resolve_stream(stream);
  if (s == nullptr) return result(hipErrorInvalidHandle);
  if (flags != hipStreamAddCaptureDependencies && flags != hipStreamSetCaptureDependencies) {
    return result(hipErrorInvalidValue);
  }
  if (dependencies == nullptr && numDependencies != 0) return result(hipErrorInvalidValue);
  std::lock_guard lock(g_capture_mutex);
  rocref::hip::Capture* c = s->capture.get();
  if (c == nullptr || c->invalidated) return result(hipErrorIllegalState);
  for (size_t i = 0; i < numDependencies; ++i) {
    if (!in_graph(c->graph, dependencies[i])) return result(hipErrorInvalidValue);
  }
  if (flags == hipStreamSetCaptureDependencies) c->leaves.clear();
  for (size_t i = 0; i < numDependencies; ++i) {
    if (std::find(c->leaves.begin(), c->leaves.end(), dependencies[i]) == c->leaves.end()) {
      c->leaves.push_back(dependencies[i]);
    }
  }
  return hipSuccess;
}

hipError_t hipThreadExchangeStreamCaptureMode(hipStreamCaptureMode* mode) {
  if (mode == nullptr || *mode < hipStreamCaptureModeGlobal || *mode > hipStreamCaptureModeRelaxed) {
    return result(hipErrorInvalidValue);
  }
  std::swap(*mode, t_capture_mode);
  return hipSuccess;
}
