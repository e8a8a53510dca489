// hip/hip_capture.h - stream capture: a capturing stream records its work into a graph (HIP-GRAPH-3).
#pragma once

#include <vector>

#include "hip/hip_runtime.h"

struct ihipStream_t;

namespace rocref::hip {

struct Capture {
  hipGraph_t graph = nullptr;
  hipStreamCaptureMode mode = hipStreamCaptureModeGlobal;
  unsigned long long id = 0;
  std::vector<hipGraphNode_t> leaves;  // what the next captured node depends on
  bool invalidated = false;            // an operation that cannot be captured ran on the stream
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

}  // namespace rocref::hip
