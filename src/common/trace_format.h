// common/trace_format.h - renders recorded trace events for people and for trace viewers.
#pragma once

#include <cstdint>
#include <map>
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

// ISA-TRACE-1: the GPU model's "dispatch stats" events (one per kernel dispatch): the counters of
// its detail ("key=value" words) by name, in dispatch order; and a one-line-per-dispatch table.
struct DispatchStats {
  std::string code;  // "gfx900" (the ISA interpreter ran it) or "host" (a host-compiled kernel)
  std::map<std::string, uint64_t>
      counts;  // id, work-groups, waves; gfx900: instructions, scalar, vector, lane-instructions
};
std::vector<DispatchStats> dispatch_stats(const std::vector<Event>& events);
std::string dispatch_table(const std::vector<Event>& events);

}  // namespace rocref::trace
