// bench/queue/suite.h - the whole comparison: callgrind counts, Google Benchmark runs, table, JSON, plot.
#pragma once

#include "bench/queue/options.h"

namespace rocref::bench {

// Entry point of both `rocref bench` and rocref_bench_queue (after argument
// parsing); handles the child and check modes too. Returns the exit status.
int run_suite(const SuiteOptions& options);

}  // namespace rocref::bench
