// bench/queue/options.cpp - command-line parsing for the queue benchmark suite.
#include "bench/queue/options.h"

#include <cstdio>
#include <cstdlib>
#include <sstream>

namespace rocref::bench {
namespace {

bool parse_list(const std::string& text, std::vector<uint32_t>* out) {
  std::stringstream in(text);
  std::string item;
  while (std::getline(in, item, ',')) {
    char* end = nullptr;
    const unsigned long v = std::strtoul(item.c_str(), &end, 10);
    if (item.empty() || *end != '\0' || v == 0 || v > 1024) return false;
    out->push_back(static_cast<uint32_t>(v));
  }
  return !out->empty();
}

std::vector<std::string> split(const std::string& text) {
  std::vector<std::string> out;
  std::stringstream in(text);
  std::string item;
  while (std::getline(in, item, ',')) {
    if (!item.empty()) out.push_back(item);
  }
  return out;
}

}  // namespace

void print_usage(const char* program) {
  std::printf(
      "usage: %s [options]\n"
      "Benchmarks rocref's AQL submission core against DPDK rte_ring, Boost.Lockfree,\n"
      "moodycamel, atomic_queue, TBB, Concurrency Kit and ROCR's own path; writes\n"
      "DIR/bench.json (Google Benchmark), DIR/throughput.svg and DIR/table.md.\n\n"
      "  --quick               shorter runs (0.02 s), instructions for rocref and rte_ring only\n"
      "  --out DIR             output folder (default bench-out)\n"
      "  --producers LIST      producer counts of the scaling sweep, e.g. 1,2,4,8,15\n"
      "  --duration S          seconds per concurrent measurement (default 0.05)\n"
      "  --repetitions N       repetitions, randomly interleaved (default 5, at least 5)\n"
      "  --canary-limit NS     discard runs whose cache-line canary exceeds NS (default 60);\n"
      "                        auto: twice the best of 9 canaries now, at least 60 (other machines)\n"
      "  --only NAMES          comma-separated implementation names\n"
      "  --scaling-only        only the producer-count sweep (for many-core machines)\n"
      "  --no-instructions     skip the callgrind instruction counts\n"
      "  --no-e2e              skip the doorbell -> packet processor -> completion latency\n"
      "  --list                list implementation names\n"
      "  --check-instructions FILE  measure instructions per pair and fail on a >10%% regression\n",
      program);
}

std::optional<SuiteOptions> parse_options(const std::vector<std::string>& args, int* exit_code) {
  SuiteOptions o;
  bool have_duration = false;
  *exit_code = 2;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    auto value = [&](std::string* v) {
      if (i + 1 >= args.size()) {
        std::fprintf(stderr, "option %s needs a value\n", a.c_str());
        return false;
      }
      *v = args[++i];
      return true;
    };
    std::string v;
    if (a == "--quick") {
      o.quick = true;
    } else if (a == "--out") {
      if (!value(&o.out_dir)) return std::nullopt;
    } else if (a == "--producers") {
      if (!value(&v)) return std::nullopt;
      o.producers.clear();
      if (!parse_list(v, &o.producers)) {
        std::fprintf(stderr, "--producers wants a list like 1,2,4,8,15\n");
        return std::nullopt;
      }
    } else if (a == "--duration") {
      if (!value(&v)) return std::nullopt;
      o.seconds = std::atof(v.c_str());
      have_duration = true;
      if (!(o.seconds > 0 && o.seconds <= 60)) {
        std::fprintf(stderr, "--duration wants seconds in (0, 60]\n");
        return std::nullopt;
      }
    } else if (a == "--repetitions") {
      if (!value(&v)) return std::nullopt;
      o.repetitions = static_cast<uint32_t>(std::strtoul(v.c_str(), nullptr, 10));
      if (o.repetitions < 5 || o.repetitions > 1000) {
        std::fprintf(stderr, "--repetitions wants 5..1000\n");
        return std::nullopt;
      }
    } else if (a == "--canary-limit") {
      if (!value(&v)) return std::nullopt;
      o.canary_limit_ns = v == "auto" ? -1 : std::atof(v.c_str());
      if (!(o.canary_limit_ns > 0) && v != "auto") {
        std::fprintf(stderr, "--canary-limit wants nanoseconds or auto\n");
        return std::nullopt;
      }
    } else if (a == "--only") {
      if (!value(&v)) return std::nullopt;
      o.only = split(v);
    } else if (a == "--scaling-only") {
      o.scaling_only = true;
    } else if (a == "--no-instructions") {
      o.instructions = false;
    } else if (a == "--no-e2e") {
      o.e2e = false;
    } else if (a == "--filter") {
      if (!value(&o.filter)) return std::nullopt;
    } else if (a == "--pairs-child") {
      if (!value(&o.pairs_child)) return std::nullopt;
    } else if (a == "--check-instructions") {
      if (!value(&o.check_baseline)) return std::nullopt;
    } else if (a == "--list") {
      o.only = {"--list"};
    } else if (a == "-h" || a == "--help") {
      *exit_code = 0;
      return std::nullopt;
    } else {
      std::fprintf(stderr, "unknown option %s\n", a.c_str());
      return std::nullopt;
    }
  }
  if (o.quick && !have_duration) o.seconds = 0.02;
  const char* planted = std::getenv("ROCREF_BENCH_PLANT_SLOW");
  o.planted = planted != nullptr && *planted != '\0' && *planted != '0';
  return o;
}

}  // namespace rocref::bench
