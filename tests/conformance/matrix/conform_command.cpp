// tests/conformance/matrix/conform_command.cpp - `rocref conform`: runs or reads suites, prints the matrix.
//
// Each column is one implementation: a GoogleTest suite binary built against it
// (run here, optionally under the /dev/kfd interposer), or an XML report a
// previous run wrote. Exit status 1 when any deviation is missing from the
// expected-deviations table or a column could not be run (CONF-RUN-1, CONF-DEV-1).
#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include <CLI/CLI.hpp>

#include "ci_report.h"
#include "cli/command.h"
#include "cli/parse_args.h"
#include "common/progress.h"
#include "matrix.h"

namespace rocref::conform {
namespace {

namespace fs = std::filesystem;

struct ColumnSpec {
  std::string name;
  std::string target;     // report (.xml) or suite binary
  bool model = false;     // run under `rocref exec`
  std::vector<std::string> env;
};

std::string read_text(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

struct ProcessResult {
  int status = 0;
  bool timed_out = false;
  std::string error;  // fork failure
};

// Runs the column's suite (under `rocref exec` for model columns) with `extra` arguments,
// stdout to `out`, stderr to `err`, GoogleTest's XML report to `report` (when not empty).
ProcessResult run_process(const ColumnSpec& spec, const std::vector<std::string>& extra, const fs::path& out,
                          const fs::path& err, const fs::path& report, int timeout_s) {
  ProcessResult r;
  const pid_t pid = fork();
  if (pid < 0) {
    r.error = std::string("fork: ") + std::strerror(errno);
    return r;
  }
  if (pid == 0) {
    const int o = open(out.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    const int e = open(err.c_str(), O_WRONLY | O_CREAT | O_APPEND, 0644);
    if (o >= 0) dup2(o, 1);
    if (e >= 0) dup2(e, 2);
    if (report.empty()) {
      unsetenv("GTEST_OUTPUT");
    } else {
      setenv("GTEST_OUTPUT", ("xml:" + report.string()).c_str(), 1);
    }
    for (const std::string& kv : spec.env) putenv(const_cast<char*>(kv.c_str()));
    std::vector<std::string> args;
    if (spec.model) {
      args = {"rocref", "exec", "--", spec.target};
    } else {
      args = {spec.target};
    }
    args.insert(args.end(), extra.begin(), extra.end());
    std::vector<char*> argv;
    for (auto& a : args) argv.push_back(a.data());
    argv.push_back(nullptr);
    execv(spec.model ? "/proc/self/exe" : spec.target.c_str(), argv.data());
    std::fprintf(stderr, "cannot run %s: %s\n", spec.target.c_str(), std::strerror(errno));
    _exit(127);
  }
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(timeout_s);
  while (waitpid(pid, &r.status, WNOHANG) == 0) {
    if (std::chrono::steady_clock::now() > deadline) {
      kill(pid, SIGKILL);
      waitpid(pid, &r.status, 0);
      r.timed_out = true;
      break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return r;
}

std::string tail_of(const fs::path& p, size_t n = 600) {
  std::string t = read_text(p);
  return t.size() > n ? t.substr(t.size() - n) : t;
}

std::string how_it_ended(const ProcessResult& r) {
  if (r.timed_out) return "timed out";
  return WIFSIGNALED(r.status) ? "killed by signal " + std::to_string(WTERMSIG(r.status))
                               : "exit status " + std::to_string(WEXITSTATUS(r.status));
}

// CONF-RUN-1: one run of the whole suite; its XML report, or an error with the log's tail.
Column run_column(const ColumnSpec& spec, const fs::path& dir, const std::string& filter, int timeout_s) {
  Column col;
  col.name = spec.name;
  const fs::path report = dir / (spec.name + ".xml");
  const fs::path log = dir / (spec.name + ".log");
  fs::remove(report);
  fs::remove(log);
  std::vector<std::string> extra;
  if (!filter.empty()) extra.push_back("--gtest_filter=" + filter);
  const ProcessResult r = run_process(spec, extra, log, log, report, timeout_s);
  if (!r.error.empty()) {
    col.error = r.error;
    return col;
  }
  std::string perr;
  if (auto parsed = fs::exists(report) ? parse_gtest_xml(read_text(report), &perr) : std::nullopt) {
    col.results = std::move(*parsed);
  }
  if (r.timed_out || WIFSIGNALED(r.status) || col.results.empty()) {
    col.error = how_it_ended(r) + (fs::exists(report) ? "" : ", no report") + (perr.empty() ? "" : " (" + perr + ")") +
                "; log tail:\n" + tail_of(log);
  }
  return col;
}

// CONF-RUN-2: every test in its own process, so a test that aborts (a foreign runtime's
// assert) or hangs is that test's failure, not the column's.
Column run_column_isolated(const ColumnSpec& spec, const fs::path& dir, const std::string& filter, int timeout_s) {
  Column col;
  col.name = spec.name;
  const fs::path list = dir / (spec.name + ".list");
  const fs::path log = dir / (spec.name + ".log");
  fs::remove(log);
  std::vector<std::string> extra{"--gtest_list_tests"};
  if (!filter.empty()) extra.push_back("--gtest_filter=" + filter);
  const ProcessResult lr = run_process(spec, extra, list, log, {}, timeout_s);
  if (!lr.error.empty() || lr.timed_out || !WIFEXITED(lr.status) || WEXITSTATUS(lr.status) != 0) {
    col.error = "cannot list the tests: " + (lr.error.empty() ? how_it_ended(lr) : lr.error) + "; log tail:\n" + tail_of(log);
    return col;
  }
  const std::vector<std::string> tests = parse_gtest_list(read_text(list));
  ProgressReporter progress(std::cerr, tests.size(), ProgressReporter::mode_for(STDERR_FILENO));
  auto finished = [&](const std::string& t) {
    const bool failed = col.results.back().outcome == Outcome::Fail;
    progress.item_done(spec.name + ": " + t + (failed ? "  FAIL" : ""));
  };
  for (const std::string& t : tests) {
    const fs::path report = dir / (spec.name + ".one.xml");
    const fs::path one_log = dir / (spec.name + ".one.log");
    fs::remove(report);
    fs::remove(one_log);
    const ProcessResult r = run_process(spec, {"--gtest_filter=" + t}, one_log, one_log, report, timeout_s);
    std::optional<std::vector<TestResult>> parsed =
        fs::exists(report) ? parse_gtest_xml(read_text(report), nullptr) : std::nullopt;
    if (parsed && !parsed->empty()) {
      for (auto& res : *parsed) col.results.push_back(std::move(res));
      finished(t);
      continue;
    }
    TestResult res;
    res.suite = t.substr(0, t.find('.'));
    res.name = t.substr(t.find('.') + 1);
    res.outcome = Outcome::Fail;
    std::string tail = tail_of(one_log, 300);
    for (char& ch : tail) {
      if (ch == '\n') ch = ' ';
    }
    res.message = "crashed: " + how_it_ended(r) + ": " + tail;
    col.results.push_back(std::move(res));
    finished(t);
  }
  return col;
}

int conform_main(const std::vector<std::string>& args) {
  std::vector<ColumnSpec> specs;
  std::string deviations_file = ROCREF_CONFORM_DEVIATIONS;
  std::string filter;
  std::string out_dir;
  std::string junit_dir;
  std::string markdown_file;
  int timeout_s = 300;
  bool isolate = false;
  std::vector<std::string> column_args;
  std::vector<std::string> env_args;
  CLI::App app{
      "Runs conformance suites against implementations and prints the per-clause matrix.\n"
      "The first column is the reference; every other cell is compared with it.\n"
      "Exit status: 0 all deviations expected, 1 unexpected deviation or column error, 2 usage.",
      "rocref conform"};
  app.add_option("columns", column_args,
                 "NAME=REPORT.xml (read a GoogleTest XML report), NAME=SUITE (run a GoogleTest suite binary),\n"
                 "NAME:model=SUITE (run it under the /dev/kfd interposer, rocref exec)")
      ->required();
  app.add_option("--deviations", deviations_file, "expected deviations (default: the table in tests/conformance/matrix)");
  // One value per --env, so the columns after it stay columns.
  app.add_option("--env", env_args, "NAME:VAR=VAL: extra environment for column NAME (repeatable)")
      ->allow_extra_args(false);
  app.add_option("--filter", filter, "--gtest_filter for every run");
  app.add_option("--timeout", timeout_s, "seconds per run (default 300)")->check(CLI::PositiveNumber);
  app.add_option("--out", out_dir, "keep the reports and logs in DIR");
  app.add_flag("--isolate", isolate, "run every test of a suite in its own process (a crash fails one test)");
  app.add_option("--junit", junit_dir, "write DIR/<NAME>.xml, JUnit XML per implementation, for CI");
  app.add_option("--markdown", markdown_file, "write the matrix as Markdown to FILE");
  if (const int code = rocref::cli::parse_args(app, args); code >= 0) return code;
  std::vector<std::pair<std::string, std::string>> envs;
  for (const std::string& v : env_args) {
    const size_t colon = v.find(':');
    if (colon == std::string::npos || v.find('=', colon) == std::string::npos) {
      std::fprintf(stderr, "rocref conform: --env wants NAME:VAR=VAL, got '%s'\n", v.c_str());
      return 2;
    }
    envs.emplace_back(v.substr(0, colon), v.substr(colon + 1));
  }
  for (const std::string& a : column_args) {
    const size_t eq = a.find('=');
    if (eq == std::string::npos || eq == 0 || eq + 1 == a.size()) {
      std::fprintf(stderr, "rocref conform: a column is NAME=SUITE or NAME=REPORT.xml, got '%s'\n%s", a.c_str(),
                   app.help().c_str());
      return 2;
    }
    ColumnSpec s;
    s.name = a.substr(0, eq);
    s.target = a.substr(eq + 1);
    if (s.name.size() > 6 && s.name.compare(s.name.size() - 6, 6, ":model") == 0) {
      s.model = true;
      s.name.resize(s.name.size() - 6);
    }
    specs.push_back(std::move(s));
  }
  for (auto& [name, kv] : envs) {
    bool found = false;
    for (auto& s : specs) {
      if (s.name == name) {
        s.env.push_back(kv);
        found = true;
      }
    }
    if (!found) {
      std::fprintf(stderr, "rocref conform: --env for unknown column '%s'\n", name.c_str());
      return 2;
    }
  }

  std::vector<ExpectedDeviation> expected;
  if (!deviations_file.empty()) {
    std::string err;
    auto parsed = parse_deviations(read_text(deviations_file), &err);
    if (!parsed) {
      std::fprintf(stderr, "rocref conform: %s: %s\n", deviations_file.c_str(), err.c_str());
      return 2;
    }
    expected = std::move(*parsed);
  }

  fs::path dir;
  if (!out_dir.empty()) {
    dir = out_dir;
    fs::create_directories(dir);
  } else {
    std::string templ = (fs::temp_directory_path() / "rocref-conform-XXXXXX").string();
    if (mkdtemp(templ.data()) == nullptr) {
      std::perror("rocref conform: mkdtemp");
      return 2;
    }
    dir = templ;
  }

  auto is_report_target = [](const std::string& t) { return t.size() > 4 && t.compare(t.size() - 4, 4, ".xml") == 0; };
  size_t suites = 0;
  for (const ColumnSpec& s : specs) suites += is_report_target(s.target) ? 0 : 1;
  // Isolated runs report each test (run_column_isolated); whole-suite runs report each suite.
  ProgressReporter progress(std::cerr, suites, ProgressReporter::mode_for(STDERR_FILENO));
  std::vector<Column> columns;
  for (const ColumnSpec& s : specs) {
    const bool is_report = is_report_target(s.target);
    if (is_report) {
      Column c;
      c.name = s.name;
      std::string err;
      if (!fs::exists(s.target)) {
        c.error = "no report " + s.target;
      } else if (auto parsed = parse_gtest_xml(read_text(s.target), &err)) {
        c.results = std::move(*parsed);
      } else {
        c.error = err;
      }
      columns.push_back(std::move(c));
    } else {
      progress.finish();  // a terminal's rewritten line ends before any other line
      std::fprintf(stderr, "rocref conform: running %s%s ...\n", s.target.c_str(), s.model ? " on the model" : "");
      columns.push_back(isolate ? run_column_isolated(s, dir, filter, timeout_s) : run_column(s, dir, filter, timeout_s));
      if (!isolate) {
        const Column& c = columns.back();
        progress.item_done(s.name + ": " + std::to_string(c.results.size()) + " results" +
                           (c.error.empty() ? "" : ", column error"));
      }
    }
  }
  progress.finish();
  const Matrix m = build_matrix(columns, expected);
  std::fputs(render_text(m, expected).c_str(), stdout);
  bool written = true;
  auto write = [&written](const fs::path& path, const std::string& text) {
    std::ofstream f(path, std::ios::binary);
    f << text;
    f.close();
    if (!f) {
      std::fprintf(stderr, "rocref conform: cannot write %s\n", path.c_str());
      written = false;
    }
  };
  if (!junit_dir.empty()) {
    std::error_code ec;
    fs::create_directories(junit_dir, ec);
    for (size_t c = 0; c < m.columns.size(); ++c) write(fs::path(junit_dir) / (m.columns[c] + ".xml"), junit_for_column(m, c, expected));
  }
  if (!markdown_file.empty()) write(markdown_file, render_markdown(m, expected));
  if (!written) return 2;
  if (out_dir.empty()) fs::remove_all(dir);
  return (m.unexpected.empty() && m.column_errors.empty()) ? 0 : 1;
}

const rocref::cli::CommandRegistration kRegistration{
    "conform", "run conformance suites against implementations and print the clause matrix", conform_main};

}  // namespace
}  // namespace rocref::conform
