// common/trace_format.h - renders recorded trace events for people and for trace viewers.
#pragma once

#include <string>
#include <vector>

#include "common/trace.h"

namespace rocref::trace {

// Chrome / Perfetto trace-event JSON: one process track per layer, one thread
// track per host thread inside it (so each GPU-model engine thread is its own track).
std::string to_chrome_json(const std::vector<Event>& events);

// The layer-by-layer account: one line per event, indented by nesting depth on
// its thread, with the time since the first event and the layer's name.
std::string to_text(const std::vector<Event>& events);

}  // namespace rocref::trace
