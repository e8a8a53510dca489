// bench/queue/table.cpp - the comparison table: median Mops/s, ns/op, CV, ratios to rte_ring, instructions.
#include <cmath>
#include <cstdio>
#include <set>

#include "bench/queue/results.h"
#include "bench/queue/stats.h"

namespace rocref::bench {
namespace {

std::string fmt(const char* format, double v) {
  if (std::isnan(v)) return "n/a";
  char buf[64];
  std::snprintf(buf, sizeof buf, format, v);
  return buf;
}

const Series* find(const SuiteResults& r, const std::string& name) {
  auto it = r.series.find(name);
  return it == r.series.end() ? nullptr : &it->second;
}

double median_mops(const SuiteResults& r, const std::string& name) {
  const Series* s = find(r, name);
  return s == nullptr ? NAN : median(s->mops);
}

std::string notes(const ImplInfo& impl, const Series& s, bool multi) {
  std::string n;
  auto add = [&](const std::string& t) { n += (n.empty() ? "" : "; ") + t; };
  if (multi && !impl.fifo_across_producers) add("not FIFO across producers");
  if (impl.batched) add("batches of 8");
  if (s.order_errors) add(std::to_string(s.order_errors) + " ORDER ERRORS");
  if (s.discarded) add(std::to_string(s.discarded) + " runs discarded (canary)");
  if (s.failed) add(std::to_string(s.failed) + " reps without a clean canary");
  if (!s.realtime) add("no SCHED_FIFO");
  return n;
}

void queue_table(std::string& out, const SuiteResults& r, const std::string& scenario, const std::string& title,
                 bool multi) {
  const double sp = median_mops(r, "queue_1p1c/rte_ring_sp_sc");
  const double mp = median_mops(r, scenario + "/rte_ring_mp_sc");
  out += "\n### " + title + "\n\n";
  out += "Mops/s: median of the repetitions with a clean canary; all runs: median of every repetition.\n\n";
  out += "| implementation | Mops/s | ns/op | CV | x rte SP/SC | x rte MP/SC | instr/pair | all runs | notes |\n";
  out += "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |\n";
  for (const auto& impl : implementations()) {
    const Series* s = find(r, scenario + "/" + impl.name);
    if (s == nullptr) continue;
    const double m = median(s->mops);
    auto ins = r.instructions.find(impl.name);
    out += "| " + impl.label + " | " + fmt("%.1f", m) + " | " + fmt("%.1f", 1000.0 / m) + " | " +
           fmt("%.1f%%", 100 * coefficient_of_variation(s->mops)) + " | " +
           (multi ? std::string("-") : fmt("%.2f", m / sp)) + " | " + fmt("%.2f", m / mp) + " | " +
           (ins == r.instructions.end() ? "-" : fmt("%.1f", ins->second)) + " | " + fmt("%.1f", median(s->mops_any)) +
           " | " + notes(impl, *s, multi) + " |\n";
  }
}

void scaling_table(std::string& out, const SuiteResults& r) {
  if (r.producer_counts.empty()) return;
  out += "\n### Scaling: Mops/s by producer count (one consumer)\n\n| implementation |";
  std::string rule = "| --- |";
  for (uint32_t p : r.producer_counts) {
    out += " " + std::to_string(p) + " |";
    rule += " ---: |";
  }
  out += "\n" + rule + "\n";
  for (const auto& impl : implementations()) {
    std::string row = "| " + impl.label + " |";
    bool any = false;
    for (uint32_t p : r.producer_counts) {
      const Series* s = find(r, "queue_scale/" + impl.name + "/producers:" + std::to_string(p));
      any |= s != nullptr;
      row += " " + (s ? fmt("%.1f", median(s->mops)) : std::string("-")) + " |";
    }
    if (any) out += row + "\n";
  }
}

void e2e_table(std::string& out, const SuiteResults& r) {
  bool any = false;
  for (const auto& [name, s] : r.series) any |= s.scenario == "e2e";
  if (!any) return;
  out += "\n### End-to-end: submit -> doorbell -> packet processor -> completion signal seen by the producer\n\n";
  out += "| packet processor | median us | p99 us | CV of median | all runs: median us | all runs: p99 us | notes |\n";
  out += "| --- | ---: | ---: | ---: | ---: | ---: | --- |\n";
  for (const auto& [name, s] : r.series) {
    if (s.scenario != "e2e") continue;
    std::string n = s.discarded ? std::to_string(s.discarded) + " runs discarded (canary)" : "";
    auto add = [&](const std::string& t) { n += (n.empty() ? "" : "; ") + t; };
    if (s.failed) add(std::to_string(s.failed) + " reps without a clean canary");
    if (!s.realtime) add("no SCHED_FIFO");
    out += "| " + s.implementation + " | " + fmt("%.2f", median(s.p50_ns) / 1000) + " | " +
           fmt("%.2f", median(s.p99_ns) / 1000) + " | " + fmt("%.1f%%", 100 * coefficient_of_variation(s.p50_ns)) +
           " | " + fmt("%.2f", median(s.p50_any) / 1000) + " | " + fmt("%.2f", median(s.p99_any) / 1000) + " | " + n +
           " |\n";
  }
}

void target(std::string& out, const std::string& what, double value, double goal, const char* unit, bool at_most) {
  const bool met = !std::isnan(value) && (at_most ? value <= goal : value >= goal);
  out += "| " + what + " | " + fmt("%.2f", value) + unit + " | " + (at_most ? "<= " : ">= ") + fmt("%.2f", goal) +
         unit + " | " + (std::isnan(value) ? "not measured" : met ? "met" : "MISSED") + " |\n";
}

void targets_table(std::string& out, const SuiteResults& r) {
  out += "\n### Targets\n\n| target | measured | goal | |\n| --- | ---: | ---: | --- |\n";
  const double sp = median_mops(r, "queue_1p1c/rte_ring_sp_sc");
  const double mp1 = median_mops(r, "queue_1p1c/rte_ring_mp_sc");
  const double mp2 = median_mops(r, "queue_2p/rte_ring_mp_sc");
  for (const char* core : {"rocref_cached", "rocref_queue_ring"}) {
    const std::string c = core;
    target(out, "1P1C " + c + " / rte_ring SP/SC", median_mops(r, "queue_1p1c/" + c) / sp, 1.0, "x", false);
    target(out, "1P1C " + c + " / rte_ring MP/SC", median_mops(r, "queue_1p1c/" + c) / mp1, 1.5, "x", false);
    target(out, "2P " + c + " / rte_ring MP/SC", median_mops(r, "queue_2p/" + c) / mp2, 1.5, "x", false);
    auto ins = r.instructions.find(c);
    target(out, "instructions per push+pop, " + c, ins == r.instructions.end() ? NAN : ins->second, 40, "", true);
  }
}

}  // namespace

std::string format_table(const SuiteResults& r) {
  std::string out = "## Queue benchmark (" + r.machine + ")\n\n";
  out += "64-byte hsa_kernel_dispatch_packet_t, ring of 1024, rocref::Backoff for every wait; median of " +
         std::to_string(r.repetitions) + " randomly interleaved repetitions of " + fmt("%.3f", r.seconds_per_run) +
         " s; a run is discarded when the cache-line canary before or after it exceeds " +
         fmt("%.0f", r.canary_limit_ns) + " ns.";
  std::vector<double> canary;
  for (const auto& [name, s] : r.series) canary.insert(canary.end(), s.canary_ns.begin(), s.canary_ns.end());
  if (!canary.empty()) {
    out += " Canary over kept runs: median " + fmt("%.1f", median(canary)) + " ns, max " +
           fmt("%.1f", percentile(canary, 100)) + " ns.";
  }
  out += "\n";
  queue_table(out, r, "queue_1p1c", "1 producer -> 1 consumer, across cores", false);
  queue_table(out, r, "queue_2p", "2 producers contending -> 1 consumer", true);
  scaling_table(out, r);
  e2e_table(out, r);
  targets_table(out, r);
  for (const auto& [impl, error] : r.instruction_errors) out += "\ninstructions for " + impl + ": " + error + "\n";
  return out;
}

}  // namespace rocref::bench
