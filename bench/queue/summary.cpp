// bench/queue/summary.cpp - summary.json (nlohmann-json): the table's statistics in machine-readable form.
#include <nlohmann/json.hpp>

#include <cmath>
#include <cstdio>
#include <cstdlib>

#include "bench/queue/results.h"
#include "bench/queue/stats.h"

namespace rocref::bench {
namespace {

using json = nlohmann::ordered_json;  // fields in the order written, as the table reads them

// Six significant digits, as the table; a missing statistic (no clean run) is null.
json number(double v) {
  if (!std::isfinite(v)) return nullptr;
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.6g", v);
  return std::strtod(buf, nullptr);
}

double median_of(const SuiteResults& r, const std::string& name) {
  auto it = r.series.find(name);
  return it == r.series.end() ? NAN : median(it->second.mops);
}

}  // namespace

std::string format_summary_json(const SuiteResults& r) {
  json instructions = json::object();
  for (const auto& [impl, n] : r.instructions) instructions[impl] = number(n);
  json series = json::array();
  for (const auto& [name, s] : r.series) {
    json e{{"name", name},
           {"scenario", s.scenario},
           {"implementation", s.implementation},
           {"producers", s.producers},
           {"kept", s.scenario == "e2e" ? s.p50_ns.size() : s.mops.size()},
           {"discarded_attempts", s.discarded},
           {"repetitions_without_clean_canary", s.failed},
           {"order_errors", s.order_errors}};
    if (s.scenario == "e2e") {
      e["median_p50_ns"] = number(median(s.p50_ns));
      e["median_p99_ns"] = number(median(s.p99_ns));
      e["cv_p50"] = number(coefficient_of_variation(s.p50_ns));
    } else {
      const double m = median(s.mops);
      e["median_mops"] = number(m);
      e["ns_per_op"] = number(1000 / m);
      e["cv"] = number(coefficient_of_variation(s.mops));
      e["median_mops_all_runs"] = number(median(s.mops_any));
      e["ratio_rte_ring_sp_sc"] = number(m / median_of(r, "queue_1p1c/rte_ring_sp_sc"));
      e["ratio_rte_ring_mp_sc"] =
          number(m / median_of(r, s.scenario == "queue_scale"
                                      ? "queue_scale/rte_ring_mp_sc/producers:" + std::to_string(s.producers)
                                      : s.scenario + "/rte_ring_mp_sc"));
    }
    series.push_back(std::move(e));
  }
  const json doc{{"machine", r.machine},
                 {"canary_limit_ns", number(r.canary_limit_ns)},
                 {"seconds_per_run", number(r.seconds_per_run)},
                 {"repetitions", r.repetitions},
                 {"instructions_per_pair", std::move(instructions)},
                 {"series", std::move(series)}};
  return doc.dump(2, ' ', false, json::error_handler_t::replace) + "\n";
}

}  // namespace rocref::bench
