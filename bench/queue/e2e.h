// bench/queue/e2e.h - submit -> doorbell -> packet processor -> completion signal, as the producer sees it.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace rocref::bench {

struct E2eResult {
  std::vector<double> latency_ns;  // one per packet
  std::string error;               // non-empty: nothing measured
  bool realtime = false;           // producer and processor threads ran SCHED_FIFO
};

// False when the GPU model was not built into this program.
bool e2e_available() noexcept;

// Up to `samples` barrier-AND packets (no dependencies, one completion signal),
// one at a time, each waited for, stopping early after `max_seconds` (a
// spinning processor that shares its CPU waits out whole time slices); the
// packet processor runs on the GPU model's engine scheduler, spinning or
// sleeping between doorbells.
E2eResult run_e2e(bool spinning, uint32_t samples, double max_seconds);

}  // namespace rocref::bench
