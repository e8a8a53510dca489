// bench/queue/canary.h - the cache-line ping-pong that says whether the machine is in its fast state.
#pragma once

namespace rocref::bench {

// Nanoseconds for one cache-line transfer between the first two usable CPUs:
// two pinned threads bounce a counter `round_trips` times; each round trip is
// two transfers. With one CPU it measures the same CPU (no transfer).
double cache_line_transfer_ns(int round_trips = 4000);

}  // namespace rocref::bench
