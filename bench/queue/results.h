// bench/queue/results.h - measurements collected from one suite run, and the table made from them.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "bench/queue/impl.h"

namespace rocref::bench {

// One benchmark (all its repetitions): "queue_1p1c/<impl>", "queue_2p/<impl>",
// "queue_scale/<impl>/producers:<n>", "e2e/<mode>".
struct Series {
  std::string scenario;        // queue_1p1c, queue_2p, queue_scale, e2e
  std::string implementation;  // or the e2e mode
  uint32_t producers = 1;
  std::vector<double> mops;        // kept repetitions
  std::vector<double> mops_any;    // every repetition, canary ignored (its last attempt)
  std::vector<double> p50_ns, p99_ns;  // e2e only
  std::vector<double> p50_any, p99_any;  // e2e, every repetition that measured, canary ignored
  std::vector<double> canary_ns;   // before and after, kept repetitions
  uint32_t discarded = 0;          // attempts thrown away for the canary
  uint32_t failed = 0;             // repetitions with no attempt under the canary limit
  uint64_t order_errors = 0;
  bool realtime = true;
};

struct SuiteResults {
  std::map<std::string, Series> series;      // by benchmark name
  std::map<std::string, double> instructions;  // per push+pop pair, by implementation
  std::map<std::string, std::string> instruction_errors;
  std::vector<uint32_t> producer_counts;
  std::string machine;
  double canary_limit_ns = 60;
  double seconds_per_run = 0;
  uint32_t repetitions = 0;
};

// Markdown tables: 1P1C, 2 producers, scaling, end-to-end, targets.
std::string format_table(const SuiteResults& results);
// The statistics the table shows, as JSON: per series median, CV, kept and
// discarded repetitions, ratios to rte_ring; instructions per pair.
std::string format_summary_json(const SuiteResults& results);
// Bars by implementation (1P1C, 2 producers) and lines by producer count.
std::string format_svg(const SuiteResults& results);

}  // namespace rocref::bench
