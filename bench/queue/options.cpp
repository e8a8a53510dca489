// bench/queue/options.cpp - command-line parsing (CLI11) for the queue benchmark suite.
#include "bench/queue/options.h"

#include <CLI/CLI.hpp>

#include <cstdio>
#include <cstdlib>

namespace rocref::bench {
namespace {

const char* const kDescription =
    "Benchmarks rocref's AQL submission core against DPDK rte_ring, Boost.Lockfree,\n"
    "moodycamel, atomic_queue, TBB, Concurrency Kit and ROCR's own path; writes\n"
    "DIR/bench.json (Google Benchmark), DIR/throughput.svg and DIR/table.md.";

// What the options set besides SuiteOptions' own fields.
struct Extra {
  bool have_duration = false;
  bool list = false;
  std::string canary;
};

void define(CLI::App& app, SuiteOptions& o, Extra& x) {
  app.add_flag("--quick", o.quick, "shorter runs (0.02 s), instructions for rocref and rte_ring only");
  app.add_option("--out", o.out_dir, "output folder (default bench-out)");
  app.add_option("--producers", o.producers, "producer counts of the scaling sweep, e.g. 1,2,4,8,15")
      ->delimiter(',')
      ->check(CLI::Range(1, 1024));
  app.add_option_function<double>(
         "--duration",
         [&o, &x](double s) {
           o.seconds = s;
           x.have_duration = true;
         },
         "seconds per concurrent measurement (default 0.05)")
      ->check(CLI::Validator(
          [](std::string& v) {
            const double s = std::atof(v.c_str());
            return s > 0 && s <= 60 ? "" : "wants seconds in (0, 60]";
          },
          "SECONDS"));
  app.add_option("--repetitions", o.repetitions, "repetitions, randomly interleaved (default 5, at least 5)")
      ->check(CLI::Range(5, 1000));
  app.add_option("--canary-limit", x.canary,
                 "discard runs whose cache-line canary exceeds NS (default 60);\n"
                 "auto: twice the best of 9 canaries now, at least 60 (other machines)")
      ->check(CLI::Validator(
          [](std::string& v) { return v == "auto" || std::atof(v.c_str()) > 0 ? "" : "wants nanoseconds or auto"; },
          "NS|auto"));
  app.add_option("--only", o.only, "comma-separated implementation names")->delimiter(',');
  app.add_flag("--scaling-only", o.scaling_only, "only the producer-count sweep (for many-core machines)");
  app.add_flag("--no-instructions", [&o](int64_t) { o.instructions = false; }, "skip the callgrind instruction counts");
  app.add_flag("--no-e2e", [&o](int64_t) { o.e2e = false; },
               "skip the doorbell -> packet processor -> completion latency");
  app.add_flag("--list", x.list, "list implementation names");
  app.add_option("--check-instructions", o.check_baseline,
                 "measure instructions per pair and fail on a >10% regression against FILE");
  // Internal: an extra --benchmark_filter, and the callgrind child's mode.
  app.add_option("--filter", o.filter)->group("");
  app.add_option("--pairs-child", o.pairs_child)->group("");
}

}  // namespace

void print_usage(const char* program) {
  CLI::App app{kDescription, program};
  SuiteOptions o;
  Extra x;
  define(app, o, x);
  std::printf("%s", app.help().c_str());
}

std::optional<SuiteOptions> parse_options(const std::vector<std::string>& args, int* exit_code) {
  SuiteOptions o;
  Extra x;
  CLI::App app{kDescription};
  define(app, o, x);
  try {
    std::vector<std::string> reversed(args.rbegin(), args.rend());  // CLI11 takes a vector last-first
    app.parse(reversed);
  } catch (const CLI::CallForHelp&) {
    *exit_code = 0;
    return std::nullopt;
  } catch (const CLI::ParseError& e) {
    std::fprintf(stderr, "%s\n", e.what());
    *exit_code = 2;
    return std::nullopt;
  }
  if (!x.canary.empty()) o.canary_limit_ns = x.canary == "auto" ? -1 : std::atof(x.canary.c_str());
  if (x.list) o.only = {"--list"};
  if (o.quick && !x.have_duration) o.seconds = 0.02;
  const char* planted = std::getenv("ROCREF_BENCH_PLANT_SLOW");
  o.planted = planted != nullptr && *planted != '\0' && *planted != '0';
  return o;
}

}  // namespace rocref::bench
