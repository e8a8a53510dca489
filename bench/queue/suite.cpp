// bench/queue/suite.cpp - registers every measurement with Google Benchmark and turns the runs into outputs.
#include "bench/queue/suite.h"

#include <benchmark/benchmark.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <memory>

#include "bench/queue/callgrind.h"
#include "bench/queue/canary.h"
#include "bench/queue/e2e.h"
#include "bench/queue/impl.h"
#include "bench/queue/results.h"
#include "bench/queue/stats.h"
#include "bench/queue/threads.h"
#include "common/progress.h"

namespace rocref::bench {
namespace {

std::string machine_description() {
  std::string model = "unknown CPU";
  std::ifstream cpuinfo("/proc/cpuinfo");
  std::string line;
  while (std::getline(cpuinfo, line)) {
    if (line.rfind("model name", 0) == 0) {
      model = line.substr(line.find(':') + 2);
      break;
    }
  }
  utsname u{};
  uname(&u);
  return std::to_string(usable_cpus()) + " CPUs " + u.machine + ", " + model;
}

// Reports each finished repetition (common/progress.h: one line each, rewritten in place on a
// terminal) and keeps the numbers.
class RepetitionReporter : public benchmark::BenchmarkReporter {
 public:
  RepetitionReporter(SuiteResults* results, size_t expected)
      : results_(results), progress_(std::cout, expected, ProgressReporter::mode_for(STDOUT_FILENO)) {}
  void finish() { progress_.finish(); }

  bool ReportContext(const Context&) override { return true; }

  void ReportRuns(const std::vector<Run>& runs) override {
    for (const Run& run : runs) {
      if (run.run_type != Run::RT_Iteration) continue;
      // Each repetition is its own benchmark "<series>/rep:<n>" (see register_queue).
      std::string name = run.run_name.function_name;
      long long rep = 0;
      if (const auto cut = name.rfind("/rep:"); cut != std::string::npos) {
        rep = std::atoll(name.c_str() + cut + 5);
        name.resize(cut);
      }
      Series& s = results_->series[name];
      auto counter = [&](const char* key) {
        auto it = run.counters.find(key);
        return it == run.counters.end() ? 0.0 : static_cast<double>(it->second.value);
      };
      s.discarded += static_cast<uint32_t>(counter("discarded"));
      if (run.error_occurred) {
        ++s.failed;
        progress_.item_done(line("%-44s rep %lld: %s", name.c_str(), rep, run.error_message.c_str()));
        continue;
      }
      s.order_errors += static_cast<uint64_t>(counter("order_errors"));
      s.realtime = s.realtime && counter("realtime") > 0;
      s.canary_ns.push_back(counter("canary_before_ns"));
      s.canary_ns.push_back(counter("canary_after_ns"));
      if (s.scenario == "e2e") {
        s.p50_ns.push_back(counter("p50_ns"));
        s.p99_ns.push_back(counter("p99_ns"));
        progress_.item_done(line("%-44s rep %lld: median %.2f us, p99 %.2f us", name.c_str(), rep,
                                 counter("p50_ns") / 1000, counter("p99_ns") / 1000));
      } else {
        s.mops.push_back(counter("Mops"));
        progress_.item_done(line("%-44s rep %lld: %7.2f Mops/s  canary %.0f/%.0f ns%s", name.c_str(), rep,
                                 counter("Mops"), counter("canary_before_ns"), counter("canary_after_ns"),
                                 counter("order_errors") > 0 ? "  ORDER ERRORS" : ""));
      }
    }
  }

 private:
  template <class... Args>
  static std::string line(const char* format, Args... args) {
    char buf[256];
    std::snprintf(buf, sizeof buf, format, args...);
    return buf;
  }

  SuiteResults* results_;
  ProgressReporter progress_;
};

struct Measured {
  bool clean = false;
  uint32_t discarded = 0;
  double before = 0, after = 0;
};

// Runs `body` until the canary before and after it is under the limit, at most `attempts` times.
template <class Body>
Measured with_canary(const SuiteOptions& o, Body&& body) {
  Measured m;
  for (uint32_t a = 0; a < o.canary_attempts; ++a) {
    m.before = cache_line_transfer_ns();
    body();
    m.after = cache_line_transfer_ns();
    if (m.before <= o.canary_limit_ns && m.after <= o.canary_limit_ns) {
      m.clean = true;
      return m;
    }
    ++m.discarded;
  }
  return m;
}

void set_canary_counters(benchmark::State& state, const Measured& m) {
  state.counters["canary_before_ns"] = m.before;
  state.counters["canary_after_ns"] = m.after;
  state.counters["discarded"] = m.discarded;
}

// One repetition of a concurrent queue measurement, retried while the canary is over the limit.
// Google Benchmark 1.7.1 drops the counters of a skipped run, so every
// repetition's figure also goes straight into its series (`all runs`).
void queue_repetition(benchmark::State& state, const ImplInfo* info, uint32_t producers, const SuiteOptions* o,
                      Series* series) {
  RunResult r;
  Measured m;
  for (auto _ : state) {
    m = with_canary(*o, [&] { r = info->run(RunConfig{producers, o->seconds}); });
    state.SetIterationTime(std::max(r.seconds, 1e-9));
  }
  set_canary_counters(state, m);
  state.counters["Mops"] = r.seconds > 0 ? static_cast<double>(r.items) / r.seconds / 1e6 : 0;
  series->mops_any.push_back(state.counters["Mops"].value);
  state.counters["ns_per_op"] = r.items > 0 ? r.seconds * 1e9 / static_cast<double>(r.items) : 0;
  state.counters["items"] = static_cast<double>(r.items);
  state.counters["producers"] = producers;
  state.counters["order_errors"] = static_cast<double>(r.order_errors);
  state.counters["realtime"] = r.realtime ? 1 : 0;
  if (!info->fifo_across_producers && producers > 1) state.SetLabel("not FIFO across producers");
  if (!m.clean) state.SkipWithError("cache-line canary over the limit in every attempt");
}

// One repetition of the end-to-end latency measurement.
void e2e_repetition(benchmark::State& state, bool spinning, uint32_t samples, const SuiteOptions* o,
                    Series* series) {
  E2eResult r;
  Measured m;
  for (auto _ : state) {
    m = with_canary(*o, [&] { r = run_e2e(spinning, samples, o->quick ? 0.2 : 0.5); });
    double total = 0;
    for (double ns : r.latency_ns) total += ns;
    state.SetIterationTime(std::max(total * 1e-9, 1e-9));
  }
  // Every repetition sets the same counters, so the JSON rows line up.
  set_canary_counters(state, m);
  const bool measured = r.error.empty() && !r.latency_ns.empty();
  state.counters["p50_ns"] = measured ? percentile(r.latency_ns, 50) : 0;
  state.counters["p99_ns"] = measured ? percentile(r.latency_ns, 99) : 0;
  if (measured) {
    series->p50_any.push_back(state.counters["p50_ns"].value);
    series->p99_any.push_back(state.counters["p99_ns"].value);
  }
  state.counters["samples"] = static_cast<double>(r.latency_ns.size());
  state.counters["realtime"] = r.realtime ? 1 : 0;
  if (!r.error.empty()) {
    state.SkipWithError(r.error.c_str());
  } else if (!m.clean) {
    state.SkipWithError("cache-line canary over the limit in every attempt");
  }
}

// One benchmark per repetition, "<series>/rep:<n>": Google Benchmark then
// shuffles every repetition of every benchmark together, and its own
// aggregates (1.7.1 crashed computing them when the canary skipped
// repetitions) are replaced by summary.json's.
template <class Body, class... Args>
void register_repetitions(const SuiteOptions& o, const std::string& series, benchmark::TimeUnit unit, Body body,
                          Args... args) {
  for (uint32_t rep = 0; rep < o.repetitions; ++rep) {
    benchmark::RegisterBenchmark((series + "/rep:" + std::to_string(rep)).c_str(), body, args...)
        ->Iterations(1)
        ->UseManualTime()
        ->Unit(unit);
  }
}

void register_queue(const SuiteOptions& o, SuiteResults& results, const ImplInfo& impl, const std::string& scenario,
                    uint32_t producers) {
  std::string name = scenario + "/" + impl.name;
  if (scenario == "queue_scale") name += "/producers:" + std::to_string(producers);
  Series& s = results.series[name];
  s.scenario = scenario;
  s.implementation = impl.name;
  s.producers = producers;
  register_repetitions(o, name, benchmark::kMillisecond, queue_repetition, &impl, producers, &o, &s);
}

void register_e2e(const SuiteOptions& o, SuiteResults& results, bool spinning) {
  const std::string mode = spinning ? "spinning" : "sleeping";
  const std::string name = "e2e/" + mode;
  Series& s = results.series[name];
  s.scenario = "e2e";
  s.implementation = "processor " + mode;
  const uint32_t samples = spinning ? (o.quick ? 1000 : 5000) : (o.quick ? 300 : 1000);
  register_repetitions(o, name, benchmark::kMicrosecond, e2e_repetition, spinning, samples, &o, &s);
}

bool selected(const SuiteOptions& o, const ImplInfo& impl) {
  return o.only.empty() || std::find(o.only.begin(), o.only.end(), impl.name) != o.only.end();
}

bool write_file(const std::string& path, const std::string& text) {
  std::ofstream out(path);
  out << text;
  return static_cast<bool>(out);
}

}  // namespace

int run_suite(const SuiteOptions& options) {
  SuiteOptions o = options;
  if (o.canary_limit_ns < 0) {
    double best = 1e9;
    for (int i = 0; i < 9; ++i) best = std::min(best, cache_line_transfer_ns());
    o.canary_limit_ns = std::max(60.0, 2 * best);
    std::printf("canary limit calibrated: best of 9 = %.1f ns, limit %.0f ns\n", best, o.canary_limit_ns);
  }
  if (!o.pairs_child.empty()) return run_pairs_child(o);
  if (!o.check_baseline.empty()) return check_instructions(o);
  if (!o.only.empty() && o.only.front() == "--list") {
    for (const auto& impl : implementations()) {
      std::printf("%-24s %s%s\n", impl.name.c_str(), impl.label.c_str(),
                  impl.multi_producer ? " (multi-producer)" : "");
    }
    return 0;
  }
  for (const auto& name : o.only) {
    if (find_implementation(name) == nullptr) {
      std::fprintf(stderr, "unknown implementation %s (--list shows them)\n", name.c_str());
      return 2;
    }
  }
  for (size_t slash = o.out_dir.find('/', 1); slash != std::string::npos; slash = o.out_dir.find('/', slash + 1)) {
    mkdir(o.out_dir.substr(0, slash).c_str(), 0755);  // parents first; existing ones are fine
  }
  if (mkdir(o.out_dir.c_str(), 0755) != 0 && errno != EEXIST) {
    std::fprintf(stderr, "cannot create %s\n", o.out_dir.c_str());
    return 2;
  }

  SuiteResults results;
  results.machine = machine_description();
  results.canary_limit_ns = o.canary_limit_ns;
  results.seconds_per_run = o.seconds;
  results.repetitions = o.repetitions;
  results.producer_counts = o.producers;
  if (results.producer_counts.empty()) {
    results.producer_counts =
        usable_cpus() >= 16 ? std::vector<uint32_t>{1, 2, 4, 8, 15} : std::vector<uint32_t>{1, 2, 4};
  }
  std::printf("rocref bench: %s; canary now %.1f ns (limit %.0f)\n", results.machine.c_str(), cache_line_transfer_ns(),
              o.canary_limit_ns);

  if (o.instructions && !o.scaling_only) {
    std::printf("instructions per push+pop under callgrind (%llu pairs, single thread):\n",
                static_cast<unsigned long long>(kCallgrindPairs));
    for (const auto& impl : implementations()) {
      if (!selected(o, impl)) continue;
      if (o.quick && impl.name.rfind("rocref", 0) != 0 && impl.name != "rte_ring_sp_sc" &&
          impl.name != "rte_ring_mp_sc") {
        continue;
      }
      std::string error;
      if (auto n = instructions_per_pair(o, impl.name, &error)) {
        results.instructions[impl.name] = *n;
        benchmark::AddCustomContext("instructions_per_pair/" + impl.name, std::to_string(*n));
        std::printf("  %-24s %8.2f\n", impl.name.c_str(), *n);
      } else {
        results.instruction_errors[impl.name] = error;
        std::printf("  %-24s %s\n", impl.name.c_str(), error.c_str());
      }
      std::fflush(stdout);
    }
  }

  size_t registered = 0;
  for (const auto& impl : implementations()) {
    if (!selected(o, impl)) continue;
    if (!o.scaling_only) {
      register_queue(o, results, impl, "queue_1p1c", 1);
      ++registered;
      if (impl.multi_producer) {
        register_queue(o, results, impl, "queue_2p", 2);
        ++registered;
      }
    }
    if (impl.multi_producer) {
      for (uint32_t p : results.producer_counts) {
        register_queue(o, results, impl, "queue_scale", p);
        ++registered;
      }
    }
  }
  if (o.e2e && !o.scaling_only && e2e_available()) {
    register_e2e(o, results, true);
    register_e2e(o, results, false);
    registered += 2;
  }
  benchmark::AddCustomContext("rocref_machine", results.machine);
  benchmark::AddCustomContext("rocref_canary_limit_ns", std::to_string(o.canary_limit_ns));
  benchmark::AddCustomContext("rocref_seconds_per_run", std::to_string(o.seconds));
  benchmark::AddCustomContext("rocref_ring_size", "1024");
  benchmark::AddCustomContext("rocref_element", "hsa_kernel_dispatch_packet_t (64 bytes)");

  const std::string json = o.out_dir + "/bench.json";
  std::vector<std::string> flags = {"rocref-bench", "--benchmark_out=" + json, "--benchmark_out_format=json",
                                    "--benchmark_enable_random_interleaving=true"};
  if (!o.filter.empty()) flags.push_back("--benchmark_filter=" + o.filter);
  std::vector<char*> argv;
  for (auto& f : flags) argv.push_back(f.data());
  int argc = static_cast<int>(argv.size());
  benchmark::Initialize(&argc, argv.data());
  RepetitionReporter progress(&results, registered * o.repetitions);
  benchmark::RunSpecifiedBenchmarks(&progress);
  progress.finish();
  benchmark::Shutdown();

  for (auto it = results.series.begin(); it != results.series.end();) {
    it = it->second.mops.empty() && it->second.p50_ns.empty() && it->second.failed == 0 ? results.series.erase(it)
                                                                                        : std::next(it);
  }
  const std::string table = format_table(results);
  std::printf("\n%s\n", table.c_str());
  bool ok = write_file(o.out_dir + "/table.md", table);
  ok &= write_file(o.out_dir + "/summary.json", format_summary_json(results));
  ok &= write_file(o.out_dir + "/throughput.svg", format_svg(results));
  std::printf("wrote %s (every run), %s/summary.json (medians, CV), %s/table.md, %s/throughput.svg\n", json.c_str(),
              o.out_dir.c_str(), o.out_dir.c_str(), o.out_dir.c_str());
  // A peer's violation is a finding for the table; one of rocref's is a failure.
  uint64_t ours = 0;
  for (const auto& [name, s] : results.series) {
    if (s.order_errors == 0) continue;
    std::printf("FIFO violations in %s: %llu\n", name.c_str(), static_cast<unsigned long long>(s.order_errors));
    if (s.implementation.rfind("rocref", 0) == 0) ours += s.order_errors;
  }
  return ok && ours == 0 ? 0 : 1;
}

}  // namespace rocref::bench
