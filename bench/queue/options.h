// bench/queue/options.h - what `rocref bench` and rocref_bench_queue accept.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace rocref::bench {

struct SuiteOptions {
  bool quick = false;
  std::string out_dir = "bench-out";
  std::vector<uint32_t> producers;  // scaling points; empty: 1,2,4,8,15 on 16+ CPUs, else 1,2,4
  double seconds = 0.05;            // per concurrent measurement
  uint32_t repetitions = 5;
  double canary_limit_ns = 60;     // negative: calibrate at start (--canary-limit auto)
  uint32_t canary_attempts = 4;     // tries per repetition before it is reported as discarded
  std::vector<std::string> only;    // implementation names; empty: all
  bool scaling_only = false;        // just the producer-count sweep (the 16-core run)
  bool instructions = true;         // callgrind instructions per pair
  bool e2e = true;
  std::string filter;               // extra --benchmark_filter
  // Child and check modes.
  std::string pairs_child;          // run one implementation's pairs under callgrind
  bool planted = false;             // ROCREF_BENCH_PLANT_SLOW: the slower path the check must catch
  std::string check_baseline;       // compare instructions per pair with this file, exit 1 on regression
  std::vector<std::string> self_command;  // how to re-run this program (argv prefix)
};

// Parses args (not argv[0]); nullopt after printing a message (help: exit 0, else 2) into *exit_code.
std::optional<SuiteOptions> parse_options(const std::vector<std::string>& args, int* exit_code);
void print_usage(const char* program);

}  // namespace rocref::bench
