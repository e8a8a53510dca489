// hip/hip_capture.cpp - stream capture (HIP-GRAPH-3, HIP-GRAPH-4).
//
// Between hipStreamBeginCapture and hipStreamEndCapture a stream records
// instead of running: kernel launches, hipMemcpyAsync, hipMemsetAsync and
// hipLaunchHostFunc become graph nodes, each depending on the stream's
// previous one (the capture's leaves). hipEventRecord on it adds no node: the
// event keeps the leaves, and a stream that waits on the event joins the
// capture (it records into the same graph, after those leaves) or, when it is
// capturing already, depends on them too: HIP 5.2.3's fork and join. Anything
// else that would enqueue on the stream or wait for it (other copies,
// synchronization) finds the stream capturing in shared_virtual_gpu, is
// hipErrorStreamCaptureUnsupported and invalidates the capture, which
// hipStreamEndCapture then reports as hipErrorStreamCaptureInvalidated.
#include "hip/hip_capture.h"

#include <algorithm>
#include <atomic>
#include <mutex>

#include "hip/hip_graph.h"
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

// Leaves of the capture's graph: nodes nothing depends on.
std::vector<hipGraphNode_t> graph_leaves(hipGraph_t graph) {
  std::vector<hipGraphNode_t> leaves;
  for (const auto& n : graph->nodes) {
    if (n->dependents.empty()) leaves.push_back(n.get());
  }
  return leaves;
}

// Ends the capture of `s` (and of the streams that joined it): its events stop being captured.
// Called with g_capture_mutex held.
void end_capture_locked(ihipStream_t* s) {
  if (!s->capture) return;
  for (ihipEvent_t* e : s->capture->events) {
    if (e->capture_stream == s) {
      e->capture_stream = nullptr;
      e->capture_nodes.clear();
    }
  }
  std::vector<ihipStream_t*> joined = std::move(s->capture->joined);
  s->capture.reset();
  s->capture_active.store(false, std::memory_order_release);
  for (ihipStream_t* j : joined) end_capture_locked(j);
}

void add_leaves(std::vector<hipGraphNode_t>* leaves, const std::vector<hipGraphNode_t>& nodes) {
  for (hipGraphNode_t n : nodes) {
    if (std::find(leaves->begin(), leaves->end(), n) == leaves->end()) leaves->push_back(n);
  }
}

}  // namespace

namespace rocref::hip {

hipError_t capture_event_record(ihipStream_t* stream, ihipEvent_t* event) {
  std::lock_guard lock(g_capture_mutex);
  Capture* c = stream->capture.get();
  if (c == nullptr) return hipErrorIllegalState;
  if (c->invalidated) return hipErrorStreamCaptureUnsupported;
  if (event->capture_stream != nullptr && event->capture_stream != stream && event->capture_stream->capture) {
    auto& old = event->capture_stream->capture->events;
    old.erase(std::remove(old.begin(), old.end(), event), old.end());
  }
  event->capture_stream = stream;
  event->capture_nodes =
      hip_mutant_active(HipMutant::CapturedEventForgetsLeaves) ? std::vector<hipGraphNode_t>{} : c->leaves;
  if (std::find(c->events.begin(), c->events.end(), event) == c->events.end()) c->events.push_back(event);
  return hipSuccess;
}

bool event_in_capture(ihipEvent_t* event) {
  std::lock_guard lock(g_capture_mutex);
  return event->capture_stream != nullptr;
}

hipError_t capture_wait_event(ihipStream_t* stream, bool legacy_null, ihipEvent_t* event) {
  std::lock_guard lock(g_capture_mutex);
  ihipStream_t* from = event->capture_stream;
  if (from == nullptr || !from->capture) return hipErrorIllegalState;
  if (legacy_null) return hipErrorInvalidValue;  // HIP 5.2.3: the null stream cannot join a capture
  Capture* source = from->capture.get();
  if (stream->capture && stream->capture->graph != source->graph) return hipErrorStreamCaptureIsolation;
  if (!stream->capture) {
    // A fork: the stream records into the event's graph from now on, until its origin ends it.
    auto c = std::make_unique<Capture>();
    c->graph = source->graph;
    c->mode = source->mode;
    c->id = g_next_capture_id++;
    c->origin = source->origin;
    if (source->origin != nullptr && source->origin->capture) source->origin->capture->joined.push_back(stream);
    stream->capture = std::move(c);
    stream->capture_active.store(true, std::memory_order_release);
  }
  add_leaves(&stream->capture->leaves, event->capture_nodes);
  return hipSuccess;
}

void forget_capture_stream(ihipStream_t* stream) {
  std::lock_guard lock(g_capture_mutex);
  if (stream->capture) {
    ihipStream_t* origin = stream->capture->origin;
    if (origin != nullptr && origin != stream && origin->capture) {
      auto& j = origin->capture->joined;
      j.erase(std::remove(j.begin(), j.end(), stream), j.end());
    }
    if (origin == stream) {
      for (ihipStream_t* j : stream->capture->joined) end_capture_locked(j);
      stream->capture->joined.clear();
    }
    for (ihipEvent_t* e : stream->capture->events) {
      if (e->capture_stream == stream) e->capture_stream = nullptr;
    }
    // A capture its origin never ended (hipErrorStreamCaptureUnjoined leaves it open): the
    // graph it was building is nobody's once the stream is gone.
    if (origin == stream) {
      hipGraph_t graph = stream->capture->graph;
      stream->capture.reset();
      (void)hipGraphDestroy(graph);
    }
  }
}

void forget_capture_event(ihipEvent_t* event) {
  std::lock_guard lock(g_capture_mutex);
  if (event->capture_stream != nullptr && event->capture_stream->capture) {
    auto& events = event->capture_stream->capture->events;
    events.erase(std::remove(events.begin(), events.end(), event), events.end());
  }
  event->capture_stream = nullptr;
}

bool capturing(ihipStream_t* stream) {
  if (hip_mutant_active(HipMutant::CaptureIgnored)) return false;
  // The flag changes with `capture`, under g_capture_mutex; a launch reads it without the lock.
  return stream != nullptr && stream->capture_active.load(std::memory_order_acquire);
}

hipError_t refuse_in_capture(ihipStream_t* stream) {
  std::lock_guard lock(g_capture_mutex);
  if (stream->capture) {
    stream->capture->invalidated = true;
    // A joined stream's violation invalidates the capture its origin ends.
    if (ihipStream_t* o = stream->capture->origin; o != nullptr && o != stream && o->capture)
      o->capture->invalidated = true;
  }
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

// Argument checks as hipamd 5.2.3's: an unknown stream is hipErrorInvalidValue throughout (HIP-GRAPH-4).
hipError_t hipStreamBeginCapture(hipStream_t stream, hipStreamCaptureMode mode) {
  ihipStream_t* s = rocref::hip::resolve_stream(stream);
  if (s == nullptr) return result(hipErrorInvalidValue);
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
  s->capture->origin = s;
  s->capture_active.store(true, std::memory_order_release);
  return hipSuccess;
}

hipError_t hipStreamEndCapture(hipStream_t stream, hipGraph_t* pGraph) {
  if (pGraph == nullptr || stream == nullptr) return result(hipErrorInvalidValue);
  ihipStream_t* s = rocref::hip::resolve_stream(stream);
  if (s == nullptr) return result(hipErrorInvalidValue);
  std::lock_guard lock(g_capture_mutex);
  rocref::hip::Capture* c = s->capture.get();
  // Not capturing, or capturing only as a stream that joined another's capture: HIP 5.2.3's code.
  if (c == nullptr || c->origin != s) return result(hipErrorStreamCaptureUnmatched);
  if (c->invalidated) {
    hipGraph_t graph = c->graph;
    end_capture_locked(s);
    (void)hipGraphDestroy(graph);
    *pGraph = nullptr;
    return result(hipErrorStreamCaptureInvalidated);
  }
  // Every forked stream must have been joined back: one leaf, unless dependencies were dropped.
  const std::vector<hipGraphNode_t> leaves = graph_leaves(c->graph);
  if (leaves.size() > 1) {
    const bool dropped = std::any_of(leaves.begin(), leaves.end(), [&](hipGraphNode_t n) {
      return std::find(c->removed.begin(), c->removed.end(), n) != c->removed.end();
    });
    if (!dropped) return result(hipErrorStreamCaptureUnjoined);
  }
  *pGraph = c->graph;
  end_capture_locked(s);
  return hipSuccess;
}

hipError_t hipStreamIsCapturing(hipStream_t stream, hipStreamCaptureStatus* pCaptureStatus) {
  ihipStream_t* s = rocref::hip::resolve_stream(stream);
  if (pCaptureStatus == nullptr || s == nullptr) return result(hipErrorInvalidValue);
  std::lock_guard lock(g_capture_mutex);
  *pCaptureStatus = stream == nullptr ? hipStreamCaptureStatusNone : status_of(*s);
  return hipSuccess;
}

hipError_t hipStreamGetCaptureInfo(hipStream_t stream, hipStreamCaptureStatus* pCaptureStatus,
                                   unsigned long long* pId) {
  ihipStream_t* s = rocref::hip::resolve_stream(stream);
  if (pCaptureStatus == nullptr || s == nullptr) return result(hipErrorInvalidValue);
  if (stream == nullptr) return result(hipErrorUnknown);  // HIP 5.2.3's answer for the legacy null stream
  std::lock_guard lock(g_capture_mutex);
  *pCaptureStatus = status_of(*s);
  if (*pCaptureStatus == hipStreamCaptureStatusActive && pId != nullptr) *pId = s->capture->id;
  return hipSuccess;
}

hipError_t hipStreamGetCaptureInfo_v2(hipStream_t stream, hipStreamCaptureStatus* captureStatus_out,
                                      unsigned long long* id_out, hipGraph_t* graph_out,
                                      const hipGraphNode_t** dependencies_out, size_t* numDependencies_out) {
  if (captureStatus_out == nullptr) return result(hipErrorInvalidValue);
  if (stream == nullptr) return result(hipErrorUnknown);
  ihipStream_t* s = rocref::hip::resolve_stream(stream);
  if (s == nullptr) return result(hipErrorInvalidValue);
  std::lock_guard lock(g_capture_mutex);
  const rocref::hip::Capture* c = s->capture.get();
  *captureStatus_out = status_of(*s);
  // As HIP 5.2.3: the outputs are written only while the capture is active.
  if (*captureStatus_out == hipStreamCaptureStatusActive) {
    if (id_out != nullptr) *id_out = c->id;
    if (graph_out != nullptr) *graph_out = c->graph;
    if (dependencies_out != nullptr) *dependencies_out = c->leaves.data();
    if (numDependencies_out != nullptr) *numDependencies_out = c->leaves.size();
  }
  return hipSuccess;
}

hipError_t hipStreamUpdateCaptureDependencies(hipStream_t stream, hipGraphNode_t* dependencies, size_t numDependencies,
                                              unsigned int flags) {
  ihipStream_t* s = rocref::hip::resolve_stream(stream);
  if (s == nullptr) return result(hipErrorInvalidValue);
  std::lock_guard lock(g_capture_mutex);
  rocref::hip::Capture* c = s->capture.get();
  if (c == nullptr) return result(hipErrorIllegalState);
  if (dependencies == nullptr && numDependencies != 0) return result(hipErrorInvalidValue);
  // HIP 5.2.3 ignores other flags (success, nothing changes).
  if (flags != hipStreamAddCaptureDependencies && flags != hipStreamSetCaptureDependencies) return hipSuccess;
  for (size_t i = 0; i < numDependencies; ++i) {
    if (!in_graph(c->graph, dependencies[i])) return result(hipErrorInvalidValue);
  }
  if (flags == hipStreamSetCaptureDependencies) {
    add_leaves(&c->removed, c->leaves);
    c->leaves.clear();
  }
  add_leaves(&c->leaves, std::vector<hipGraphNode_t>(dependencies, dependencies + numDependencies));
  return hipSuccess;
}

hipError_t hipThreadExchangeStreamCaptureMode(hipStreamCaptureMode* mode) {
  if (mode == nullptr || *mode < hipStreamCaptureModeGlobal || *mode > hipStreamCaptureModeRelaxed) {
    return result(hipErrorInvalidValue);
  }
  std::swap(*mode, t_capture_mode);
  return hipSuccess;
}
