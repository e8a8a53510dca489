// cli/run_command.cpp - `rocref run` and `rocref trace`: HIP samples through every layer.
#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

#include "cli/command.h"
#include "cli/parse_args.h"
#include "cli/samples/sample.h"
#include "common/trace.h"
#include "common/trace_format.h"

namespace rocref::cli {
namespace {

struct RunOptions {
  std::vector<std::string> samples;  // empty: all
  std::string trace_file;
  bool account = true;
  bool list = false;
};

// Returns -1 to go on, else the exit status (0 after --help, 2 on a bad option).
int parse(const std::vector<std::string>& args, RunOptions& options, const char* command) {
  CLI::App app{
      "Runs HIP sample programs through HIP -> command layer -> HSA runtime -> thunk ->\n"
      "ioctl -> KFD model -> GPU model, checks their results, and prints what each layer did.",
      std::string("rocref ") + command};
  app.add_option("--sample", options.samples, "run only this sample (repeatable); --list shows them")
      ->allow_extra_args(false);
  app.add_option("--trace", options.trace_file, "also write a Chrome/Perfetto trace (ui.perfetto.dev, chrome://tracing)");
  app.add_flag("--quiet", [&options](int64_t) { options.account = false; }, "results only, no layer-by-layer account");
  app.add_flag("--list", options.list, "list the samples");
  return parse_args(app, args);
}

int run_samples(const RunOptions& options) {
  const auto& samples = samples::all_samples();
  if (options.list) {
    for (const auto& s : samples) std::printf("%-16s %s\n", s.name, s.description);
    return 0;
  }
  std::vector<const samples::Sample*> chosen;
  for (const auto& s : samples) {
    bool wanted = options.samples.empty();
    for (const auto& name : options.samples) wanted |= name == s.name;
    if (wanted) chosen.push_back(&s);
  }
  if (chosen.size() != (options.samples.empty() ? samples.size() : options.samples.size())) {
    std::fprintf(stderr, "rocref run: unknown sample name (see --list)\n");
    return 2;
  }
  std::printf("rocref run: HIP -> command layer -> HSA runtime -> thunk -> ioctl -> KFD model -> GPU model\n");
  trace::enable(true);
  std::vector<trace::Event> all_events;
  int failures = 0;
  for (const samples::Sample* s : chosen) {
    trace::clear();
    std::printf("\n== %s: %s\n", s->name, s->description);
    const samples::SampleResult r = s->run();
    std::vector<trace::Event> events = trace::snapshot();
    if (options.account) std::printf("%s", trace::to_text(events).c_str());
    std::printf("%s", trace::dispatch_table(events).c_str());  // ISA-TRACE-1: waves and instructions per dispatch
    std::printf("   %s  %s (%zu trace events)\n", r.ok ? "PASS" : "FAIL", r.summary.c_str(), events.size());
    failures += r.ok ? 0 : 1;
    all_events.insert(all_events.end(), events.begin(), events.end());
  }
  trace::enable(false);
  if (!options.trace_file.empty()) {
    std::ofstream out(options.trace_file);
    out << trace::to_chrome_json(all_events);
    if (!out) {
      std::fprintf(stderr, "rocref run: cannot write %s\n", options.trace_file.c_str());
      return 1;
    }
    std::printf("\ntrace: %s (%zu events; open in ui.perfetto.dev or chrome://tracing)\n", options.trace_file.c_str(),
                all_events.size());
  }
  std::printf("\n%zu passed, %d failed\n", chosen.size() - failures, failures);
  return failures == 0 ? 0 : 1;
}

int run_main(const std::vector<std::string>& args) {
  RunOptions options;
  if (const int code = parse(args, options, "run"); code >= 0) return code;
  return run_samples(options);
}

int trace_main(const std::vector<std::string>& args) {
  RunOptions options;
  options.trace_file = "rocref-trace.json";
  if (const int code = parse(args, options, "trace"); code >= 0) return code;
  return run_samples(options);
}

const CommandRegistration kRun("run", "run HIP samples through every layer and print what each layer did", run_main);
const CommandRegistration kTrace("trace", "as run, and write a Perfetto trace (default rocref-trace.json)", trace_main);

}  // namespace
}  // namespace rocref::cli
