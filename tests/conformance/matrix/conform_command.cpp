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
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "cli/command.h"
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

int usage(FILE* out) {
  std::fprintf(out,
               "usage: rocref conform [options] COLUMN...\n"
               "  COLUMN  NAME=REPORT.xml     read a GoogleTest XML report\n"
               "          NAME=SUITE          run a GoogleTest suite binary\n"
               "          NAME:model=SUITE    run it under the /dev/kfd interposer (rocref exec)\n"
               "  The first column is the reference; every other cell is compared with it.\n"
               "  --deviations FILE   expected deviations (default: the table in tests/conformance/matrix)\n"
               "  --env NAME:VAR=VAL  extra environment for column NAME (repeatable)\n"
               "  --filter PATTERN    --gtest_filter for every run\n"
               "  --timeout SECONDS   per run (default 300)\n"
               "  --out DIR           keep the reports and logs in DIR\n"
               "  --isolate           run every test of a suite in its own process (a crash fails one test)\n"
               "Exit status: 0 all deviations expected, 1 unexpected deviation or column error, 2 usage.\n");
  return out == stdout ? 0 : 2;
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
  }
  return col;
}

int conform_main(const std::vector<std::string>& args) {
  std::vector<ColumnSpec> specs;
  std::string deviations_file = ROCREF_CONFORM_DEVIATIONS;
  std::string filter;
  std::string out_dir;
  int timeout_s = 300;
  bool isolate = false;
  std::vector<std::pair<std::string, std::string>> envs;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    auto value = [&]() -> std::string { return i + 1 < args.size() ? args[++i] : std::string(); };
    if (a == "-h" || a == "--help") return usage(stdout);
    if (a == "--deviations") deviations_file = value();
    else if (a == "--filter") filter = value();
    else if (a == "--out") out_dir = value();
    else if (a == "--isolate") isolate = true;
    else if (a == "--timeout") timeout_s = std::max(1, std::atoi(value().c_str()));
    else if (a == "--env") {
      const std::string v = value();
      const size_t colon = v.find(':');
      if (colon == std::string::npos || v.find('=', colon) == std::string::npos) return usage(stderr);
      envs.emplace_back(v.substr(0, colon), v.substr(colon + 1));
    } else if (a.rfind("--", 0) == 0) {
      std::fprintf(stderr, "rocref conform: unknown option '%s'\n", a.c_str());
      return usage(stderr);
    } else {
      const size_t eq = a.find('=');
      if (eq == std::string::npos || eq == 0 || eq + 1 == a.size()) return usage(stderr);
      ColumnSpec s;
      s.name = a.substr(0, eq);
      s.target = a.substr(eq + 1);
      if (s.name.size() > 6 && s.name.compare(s.name.size() - 6, 6, ":model") == 0) {
        s.model = true;
        s.name.resize(s.name.size() - 6);
      }
      specs.push_back(std::move(s));
    }
  }
  if (specs.empty()) return usage(stderr);
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

  std::vector<Column> columns;
  for (const ColumnSpec& s : specs) {
    const bool is_report = s.target.size() > 4 && s.target.compare(s.target.size() - 4, 4, ".xml") == 0;
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
      std::fprintf(stderr, "rocref conform: running %s%s ...\n", s.target.c_str(), s.model ? " on the model" : "");
      columns.push_back(isolate ? run_column_isolated(s, dir, filter, timeout_s) : run_column(s, dir, filter, timeout_s));
    }
  }
  const Matrix m = build_matrix(columns, expected);
  std::fputs(render_text(m, expected).c_str(), stdout);
  if (out_dir.empty()) fs::remove_all(dir);
  return (m.unexpected.empty() && m.column_errors.empty()) ? 0 : 1;
}

const rocref::cli::CommandRegistration kRegistration{
    "conform", "run conformance suites against implementations and print the clause matrix", conform_main};

}  // namespace
}  // namespace rocref::conform
