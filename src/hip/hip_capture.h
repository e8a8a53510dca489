// hip/hip_capture.h - stream capture: a capturing stream records its work into a graph (HIP-GRAPH-3).
#pragma once

#include <vector>

#include "hip/hip_runtime.h"

struct ihipStream_t;
struct ihipEvent_t;

namespace rocref::hip {

struct Capture {
  hipGraph_t graph = nullptr;
  hipStreamCaptureMode mode = hipStreamCaptureModeGlobal;
  unsigned long long id = 0;
  std::vector<hipGraphNode_t> leaves;  // what the next captured node depends on
  bool invalidated = false;            // an operation that cannot be captured ran on the stream
  // The stream hipStreamBeginCapture started it on; other streams join its graph by waiting on an
  // event recorded in it (fork), and the origin's hipStreamEndCapture ends them too.
  ihipStream_t* origin = nullptr;
  std::vector<ihipStream_t*> joined;    // on the origin: the streams that joined
  std::vector<ihipEvent_t*> events;     // events recorded in this stream while it captured
  std::vector<hipGraphNode_t> removed;  // leaves hipStreamSetCaptureDependencies dropped
};

// True while `stream` records instead of running (also after an invalidating operation, until
// hipStreamEndCapture).
bool capturing(ihipStream_t* stream);
// Marks the capture invalidated and gives hipErrorStreamCaptureUnsupported: what every
// operation that is not captured returns on a capturing stream.
hipError_t refuse_in_capture(ihipStream_t* stream);
// Adds a node to the stream's capture after its leaves (add_node makes it with the given
// dependencies); the node becomes the only leaf.
hipError_t capture_node(ihipStream_t* stream,
                        hipError_t (*add_node)(hipGraphNode_t* node, hipGraph_t graph, const hipGraphNode_t* deps,
                                               size_t count, const void* params),
                        const void* params);

// hipEventRecord on a capturing stream (HIP 5.2.3): no node and no marker; the event remembers the
// stream's leaves, so a stream that waits on it depends on them (HIP-GRAPH-4).
hipError_t capture_event_record(ihipStream_t* stream, ihipEvent_t* event);
// True while `event` was last recorded in a capture that has not ended.
bool event_in_capture(ihipEvent_t* event);
// hipStreamWaitEvent on such an event: `stream` (nullptr: the legacy null stream) joins the capture,
// or, capturing it already, adds the event's leaves to its own.
hipError_t capture_wait_event(ihipStream_t* stream, bool legacy_null, ihipEvent_t* event);
// A destroyed stream or event leaves every capture's lists.
void forget_capture_stream(ihipStream_t* stream);
void forget_capture_event(ihipEvent_t* event);

}  // namespace rocref::hip
