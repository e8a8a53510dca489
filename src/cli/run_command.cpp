// cli/run_command.cpp - `rocref run` and `rocref trace`: HIP programs through every layer, and a
// compact account of what each layer did (spec/trace.md TRACE-RUN-*).
//
// By default the sample built by Debian's hipcc for gfx900 runs as a child process under the
// interposer with rocref's drop-in libraries (as `rocref exec --drop-ins`), so its kernels run on
// the GPU model's ISA interpreter; `rocref run PROGRAM [ARGS]` does the same for any program.
// The child's libraries append their trace events and check counts to a file named by
// ROCREF_TRACE_FILE at exit (common/trace_file.h), which this process reads back. `--sample NAME`
// runs a host-compiled sample in this process instead.
#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "cli/command.h"
#include "cli/drop_ins.h"
#include "cli/parse_args.h"
#include "cli/samples/sample.h"
#include "common/trace.h"
#include "common/trace_checks.h"
#include "common/trace_file.h"
#include "common/trace_format.h"
#include "common/trace_report.h"

namespace rocref::cli {
namespace {

namespace fs = std::filesystem;

constexpr const char* kDefaultSample = "rocref_sample_saxpy_reduce";
constexpr const char* kStack = "HIP -> command layer -> HSA -> thunk -> KFD model -> GPU model";

struct RunOptions {
  std::vector<std::string> samples;  // host-compiled samples, in this process
  std::vector<std::string> program;  // PROGRAM [ARGS]; empty: the hipcc-built default sample
  std::string trace_file;            // the Chrome/Perfetto JSON; "": ./rocref-trace.json or the temp dir
  bool trace_text = false;
  bool quiet = false;
  bool list = false;
};

// Returns -1 to go on, else the exit status (0 after --help, 2 on a bad option).
int parse(const std::vector<std::string>& args, RunOptions& options, const char* command) {
  CLI::App app{std::string("Runs a HIP program through ") + kStack +
                   ",\nchecks its results, and prints what each layer did.\n"
                   "usage: rocref " +
                   command +
                   " [OPTIONS] [--] [PROGRAM [ARGS...]]\n"
                   "Without PROGRAM: the sample built by hipcc for gfx900 (" +
                   kDefaultSample + ").",
               std::string("rocref ") + command};
  app.add_option("--sample", options.samples, "run this host-compiled sample in-process instead (repeatable; --list)")
      ->allow_extra_args(false);
  app.add_option("--trace", options.trace_file,
                 "write the Chrome/Perfetto trace here (default ./rocref-trace.json, else the temp dir)");
  app.add_flag("--trace-text", options.trace_text, "also print every trace event, one line each");
  app.add_flag("--quiet", options.quiet, "print the result only, not the account of the layers");
  app.add_flag("--list", options.list, "list the samples");
  app.prefix_command();  // everything from PROGRAM on is the program's own arguments
  if (const int code = parse_args(app, args); code >= 0) return code;
  options.program = app.remaining();
  if (!options.program.empty() && options.program.front() == "--") {
    options.program.erase(options.program.begin());
  } else if (!options.program.empty() && options.program.front().rfind("-", 0) == 0) {
    std::fprintf(stderr, "rocref %s: unknown option '%s'\n%s", command, options.program.front().c_str(),
                 app.help().c_str());
    return 2;
  }
  if (!options.program.empty() && !options.samples.empty()) {
    std::fprintf(stderr, "rocref %s: give a PROGRAM or --sample, not both\n", command);
    return 2;
  }
  return -1;
}

std::string default_sample_path() {
  std::error_code ec;
  const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  return ec ? std::string(kDefaultSample) : (exe.parent_path() / kDefaultSample).string();
}

// TRACE-RUN-4: where the full trace goes: the option, else ./rocref-trace.json, else the temp dir.
std::string write_chrome_trace(const RunOptions& options, const std::vector<trace::Event>& events) {
  std::vector<std::string> candidates;
  if (!options.trace_file.empty()) {
    candidates.push_back(options.trace_file);
  } else {
    candidates.push_back("rocref-trace.json");
    candidates.push_back((fs::temp_directory_path() / "rocref-trace.json").string());
  }
  const std::string json = trace::to_chrome_json(events);
  for (const std::string& path : candidates) {
    std::ofstream out(path);
    out << json;
    out.close();
    if (out) {
      std::error_code ec;
      const fs::path absolute = fs::absolute(path, ec);
      return ec ? path : absolute.lexically_normal().string();
    }
  }
  std::fprintf(stderr, "rocref run: cannot write %s\n", candidates.front().c_str());
  return {};
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    // The loader's note on rocref's unversioned drop-ins is no output of the program's.
    if (line.find(": no version information available (required by") != std::string::npos) continue;
    if (!line.empty()) lines.push_back(line);
  }
  return lines;
}

struct ChildRun {
  int status = -1;  // waitpid's
  std::string output;
  trace::TraceDump dump;
  bool traced = false;
};

// Runs the program under the interposer and the drop-ins, its output collected, its libraries'
// trace read back. Returns false (with a message) when it could not be started at all.
bool run_child(const std::vector<std::string>& program, ChildRun& run) {
  const std::string lib = find_interposer();
  if (lib.empty() || access(lib.c_str(), R_OK) != 0) {
    std::fprintf(stderr,
                 "rocref run: interposer %s not found (build target rocref_preload, or set ROCREF_PRELOAD_LIB)\n",
                 kInterposerName);
    return false;
  }
  std::string dump_path = (fs::temp_directory_path() / "rocref-run-XXXXXX").string();
  const int dump_fd = mkstemp(dump_path.data());
  if (dump_fd < 0) {
    std::fprintf(stderr, "rocref run: cannot create a trace file in %s\n", fs::temp_directory_path().c_str());
    return false;
  }
  close(dump_fd);
  int out_pipe[2];
  if (pipe2(out_pipe, O_CLOEXEC) != 0) {
    unlink(dump_path.c_str());
    return false;
  }
  const ChildEnvironment env = child_environment(lib, true);
  std::vector<char*> argv;
  for (const std::string& a : program) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  std::fflush(nullptr);
  const pid_t pid = fork();
  if (pid == 0) {
    dup2(out_pipe[1], 1);
    dup2(out_pipe[1], 2);
    setenv("LD_PRELOAD", env.ld_preload.c_str(), 1);
    setenv("LD_LIBRARY_PATH", env.ld_library_path.c_str(), 1);
    setenv(trace::kTraceFileEnv, dump_path.c_str(), 1);
    execvp(argv[0], argv.data());
    std::fprintf(stderr, "cannot run '%s': %s\n", argv[0], std::strerror(errno));
    _exit(errno == ENOENT ? 127 : 126);
  }
  close(out_pipe[1]);
  if (pid < 0) {
    close(out_pipe[0]);
    unlink(dump_path.c_str());
    return false;
  }
  char buf[4096];
  for (ssize_t n; (n = read(out_pipe[0], buf, sizeof buf)) != 0;) {
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) break;
    run.output.append(buf, static_cast<size_t>(n));
  }
  close(out_pipe[0]);
  while (waitpid(pid, &run.status, 0) < 0 && errno == EINTR) {
  }
  std::ifstream in(dump_path);
  std::stringstream text;
  text << in.rdbuf();
  // Traced: a recorder wrote events (the interposer alone, in a program that never opens the KFD, writes none).
  run.traced = trace::parse_dump(text.str(), run.dump) && !run.dump.events.empty();
  unlink(dump_path.c_str());
  return true;
}

std::string describe_status(int status) {
  if (WIFEXITED(status)) return "exit status " + std::to_string(WEXITSTATUS(status));
  if (WIFSIGNALED(status)) return std::string("killed by signal ") + strsignal(WTERMSIG(status));
  return "status " + std::to_string(status);
}

void print_report(const RunOptions& options, const trace::ReportInput& report) {
  if (!options.quiet) {
    std::printf("%s", trace::render_report(report).c_str());
    return;
  }
  std::printf("== %s: %s\n", report.title.c_str(), report.passed ? "PASS" : "FAIL");
  for (const std::string& line : report.result_lines) std::printf("   %s\n", line.c_str());
}

int run_program(const RunOptions& options) {
  std::vector<std::string> program = options.program;
  const bool is_default = program.empty();
  if (is_default) {
    program.push_back(default_sample_path());
    if (access(program.front().c_str(), X_OK) != 0) {
      std::fprintf(stderr,
                   "rocref run: the default sample %s is not built (it needs Debian's hipcc: build target "
                   "rocref_hip_sample); host-compiled samples: rocref run --list\n",
                   program.front().c_str());
      return 1;
    }
  }
  std::printf("rocref run: %s\n", kStack);
  ChildRun run;
  if (!run_child(program, run)) return 1;
  trace::ReportInput report;
  report.title = fs::path(program.front()).filename().string() + (is_default ? " (hipcc, gfx900)" : "");
  report.passed = WIFEXITED(run.status) && WEXITSTATUS(run.status) == 0 && run.traced;
  report.result_lines.push_back(describe_status(run.status) + ", its output:");
  if (!run.traced)
    report.result_lines.insert(report.result_lines.begin(), "no trace came back: does it use HIP, HSA or the KFD?");
  const std::vector<std::string> output = lines_of(run.output);
  // The last lines: where a program states its result or its error.
  const size_t keep = 4;
  if (output.size() > keep)
    report.result_lines.push_back("| ... " + std::to_string(output.size() - keep) + " lines before these");
  for (size_t i = output.size() > keep ? output.size() - keep : 0; i < output.size(); ++i)
    report.result_lines.push_back("| " + output[i]);
  report.events = std::move(run.dump.events);
  report.checks = std::move(run.dump.checks);
  if (options.trace_text) std::printf("%s", trace::to_text(report.events).c_str());
  report.trace_path = write_chrome_trace(options, report.events);
  print_report(options, report);
  return report.passed ? 0 : 1;
}

int run_samples(const RunOptions& options) {
  const auto& samples = samples::all_samples();
  std::vector<const samples::Sample*> chosen;
  for (const auto& name : options.samples) {
    const samples::Sample* found = nullptr;
    for (const auto& s : samples) found = name == s.name ? &s : found;
    if (found == nullptr) {
      std::fprintf(stderr, "rocref run: unknown sample name '%s' (see --list)\n", name.c_str());
      return 2;
    }
    chosen.push_back(found);
  }
  std::printf("rocref run: %s\n", kStack);
  std::vector<trace::Event> all_events;
  std::vector<trace::ReportInput> reports;
  for (const samples::Sample* s : chosen) {
    trace::enable(true);
    trace::clear();
    const samples::SampleResult r = s->run();
    trace::ReportInput report;
    report.events = trace::snapshot();
    report.checks = trace::check_counts();
    trace::enable(false);
    report.title = std::string(s->name) + " (host-compiled kernels, in-process)";
    report.passed = r.ok;
    report.result_lines = {r.summary};
    if (options.trace_text) std::printf("%s", trace::to_text(report.events).c_str());
    all_events.insert(all_events.end(), report.events.begin(), report.events.end());
    reports.push_back(std::move(report));
  }
  const std::string path = write_chrome_trace(options, all_events);
  int failures = 0;
  for (size_t i = 0; i < reports.size(); ++i) {
    if (i + 1 == reports.size()) reports[i].trace_path = path;  // one file for all of them
    print_report(options, reports[i]);
    failures += reports[i].passed ? 0 : 1;
  }
  if (reports.size() > 1) std::printf("%zu passed, %d failed\n", reports.size() - failures, failures);
  return failures == 0 ? 0 : 1;
}

int run_main(const std::vector<std::string>& args, const char* command, const char* default_trace) {
  RunOptions options;
  options.trace_file = default_trace;
  if (const int code = parse(args, options, command); code >= 0) return code;
  if (options.list) {
    std::printf("%-16s %s\n", "(default)", "saxpy, LDS block sums: hipcc, gfx900, in a child process");
    for (const auto& s : samples::all_samples()) std::printf("%-16s %s\n", s.name, s.description);
    return 0;
  }
  return options.samples.empty() ? run_program(options) : run_samples(options);
}

int rocref_run(const std::vector<std::string>& args) { return run_main(args, "run", ""); }
int rocref_trace(const std::vector<std::string>& args) { return run_main(args, "trace", "rocref-trace.json"); }

const CommandRegistration kRun("run", "run a HIP program through every layer; report each layer, dispatch, check",
                               rocref_run);
const CommandRegistration kTrace("trace", "as run (the trace file named by --trace, default rocref-trace.json)",
                                 rocref_trace);

}  // namespace
}  // namespace rocref::cli
