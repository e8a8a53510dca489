// bench/queue/summary.cpp - summary.json: the table's statistics in machine-readable form.
#include <cmath>
#include <cstdio>

#include "bench/queue/results.h"
#include "bench/queue/stats.h"

namespace rocref::bench {
namespace {

std::string number(double v) {
  if (!std::isfinite(v)) return "null";
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.6g", v);
  return buf;
}

std::string quoted(const std::string& s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') out += '\\';
    if (static_cast<unsigned char>(c) >= 0x20) out += c;
  }
  return out + "\"";
}

double median_of(const SuiteResults& r, const std::string& name) {
  auto it = r.series.find(name);
  return it == r.series.end() ? NAN : median(it->second.mops);
}

}  // namespace

std::string format_summary_json(const SuiteResults& r) {
  std::string out = "{\n  \"machine\": " + quoted(r.machine) + ",\n  \"canary_limit_ns\": " +
                    number(r.canary_limit_ns) + ",\n  \"seconds_per_run\": " + number(r.seconds_per_run) +
                    ",\n  \"repetitions\": " + std::to_string(r.repetitions) + ",\n  \"instructions_per_pair\": {";
  bool first = true;
  for (const auto& [impl, n] : r.instructions) {
    out += std::string(first ? "" : ",") + "\n    " + quoted(impl) + ": " + number(n);
    first = false;
  }
  out += "\n  },\n  \"series\": [";
  first = true;
  for (const auto& [name, s] : r.series) {
    out += std::string(first ? "" : ",") + "\n    {\"name\": " + quoted(name) + ", \"scenario\": " + quoted(s.scenario) +
           ", \"implementation\": " + quoted(s.implementation) + ", \"producers\": " + std::to_string(s.producers) +
           ", \"kept\": " + std::to_string(s.scenario == "e2e" ? s.p50_ns.size() : s.mops.size()) +
           ", \"discarded_attempts\": " + std::to_string(s.discarded) +
           ", \"repetitions_without_clean_canary\": " + std::to_string(s.failed) +
           ", \"order_errors\": " + std::to_string(s.order_errors);
    if (s.scenario == "e2e") {
      out += ", \"median_p50_ns\": " + number(median(s.p50_ns)) + ", \"median_p99_ns\": " + number(median(s.p99_ns)) +
             ", \"cv_p50\": " + number(coefficient_of_variation(s.p50_ns));
    } else {
      const double m = median(s.mops);
      out += ", \"median_mops\": " + number(m) + ", \"ns_per_op\": " + number(1000 / m) +
             ", \"cv\": " + number(coefficient_of_variation(s.mops)) +
             ", \"median_mops_all_runs\": " + number(median(s.mops_any)) +
             ", \"ratio_rte_ring_sp_sc\": " + number(m / median_of(r, "queue_1p1c/rte_ring_sp_sc")) +
             ", \"ratio_rte_ring_mp_sc\": " +
             number(m / median_of(r, s.scenario == "queue_scale"
                                         ? "queue_scale/rte_ring_mp_sc/producers:" + std::to_string(s.producers)
                                         : s.scenario + "/rte_ring_mp_sc"));
    }
    out += "}";
    first = false;
  }
  return out + "\n  ]\n}\n";
}

}  // namespace rocref::bench
