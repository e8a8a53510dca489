// proofs/verify/runner.cpp - in-process and fork/exec runs of the verify catalog, with progress.
#include "proofs/verify/runner.h"

#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <ostream>
#include <sstream>
#include <stdexcept>

#include "common/progress.h"

namespace rocref::proofs {
namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

// "[ 3/41]   12.3 s  PASS  property: configuration  (elapsed 0:42, about 1:10 left, 2 running)"
void progress_line(ProgressReporter& progress, const Check& c, const std::vector<RowResult>& rows, double seconds,
                   unsigned running) {
  size_t failed = 0;
  for (const RowResult& r : rows) failed += !r.passed;
  char head[48];
  std::snprintf(head, sizeof head, "%7.1f s  %s  ", seconds, failed ? "FAIL" : "pass");
  progress.item_done(head + c.property + ": " + c.configuration,
                     running ? std::to_string(running) + " running" : std::string());
}

// On a terminal the progress line is rewritten in place; elsewhere one line per check.
ProgressReporter::Mode progress_mode(const std::ostream& progress) {
  return &progress == &std::cerr ? ProgressReporter::mode_for(STDERR_FILENO) : ProgressReporter::Mode::Log;
}

std::string tail_of(const fs::path& file, size_t bytes) {
  std::ifstream in(file);
  std::stringstream s;
  s << in.rdbuf();
  std::string text = s.str();
  return text.size() > bytes ? "..." + text.substr(text.size() - bytes) : text;
}

struct Worker {
  uint32_t id;
  fs::path json;
  fs::path log;
  Clock::time_point started;
};

pid_t spawn(const std::string& exe, const std::vector<std::string>& args, const fs::path& log) {
  std::vector<char*> argv;
  argv.push_back(const_cast<char*>(exe.c_str()));
  for (const std::string& a : args) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  const std::string log_path = log.string();
  const pid_t pid = fork();
  if (pid != 0) return pid;  // parent, or -1
  // Child: only async-signal-safe calls until exec.
  const int fd = open(log_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd >= 0) {
    dup2(fd, STDOUT_FILENO);
    dup2(fd, STDERR_FILENO);
  }
  execv(exe.c_str(), argv.data());
  _exit(127);
}

}  // namespace

std::vector<std::string> option_args(const VerifyOptions& o) {
  std::vector<std::string> args;
  if (o.quick) args.push_back("--quick");
  if (!o.mutants) args.push_back("--no-mutants");
  if (o.producers) args.insert(args.end(), {"--producers", std::to_string(*o.producers)});
  if (o.ring) args.insert(args.end(), {"--ring", std::to_string(*o.ring)});
  if (o.depth) args.insert(args.end(), {"--depth", std::to_string(*o.depth)});
  if (!o.property.empty()) args.insert(args.end(), {"--property", o.property});
  return args;
}

VerifyResults run_here(const std::vector<Check>& checks, const std::vector<uint32_t>& ids, std::ostream& progress) {
  VerifyResults out;
  const auto start = Clock::now();
  ProgressReporter reporter(progress, ids.size(), progress_mode(progress));
  for (const uint32_t id : ids) {
    const Check& c = checks.at(id - 1);
    const auto t = Clock::now();
    std::vector<RowResult> rows;
    for (const Row& r : c.run()) rows.push_back(to_result(id, r));
    progress_line(reporter, c, rows, std::chrono::duration<double>(Clock::now() - t).count(), 0);
    out.rows.insert(out.rows.end(), rows.begin(), rows.end());
  }
  out.checks = static_cast<uint32_t>(ids.size());
  out.wall_seconds = std::chrono::duration<double>(Clock::now() - start).count();
  return out;
}

VerifyResults run_workers(const std::string& exe, const std::vector<Check>& checks,
                          const std::vector<std::string>& worker_args, unsigned jobs, std::ostream& progress) {
  if (jobs == 0) jobs = 1;
  const char* tmp = std::getenv("TMPDIR");
  std::string dir_template = std::string(tmp && *tmp ? tmp : "/tmp") + "/rocref-verify-XXXXXX";
  if (mkdtemp(dir_template.data()) == nullptr) throw std::runtime_error("cannot create a temporary folder");
  const fs::path dir = dir_template;

  VerifyResults out;
  out.checks = static_cast<uint32_t>(checks.size());
  const auto start = Clock::now();
  std::map<pid_t, Worker> running;
  ProgressReporter reporter(progress, checks.size(), progress_mode(progress));
  uint32_t next = 1;
  size_t done = 0;
  while (done < checks.size()) {
    while (running.size() < jobs && next <= checks.size()) {
      Worker w{next, dir / ("row-" + std::to_string(next) + ".json"), dir / ("row-" + std::to_string(next) + ".log"),
               Clock::now()};
      std::vector<std::string> args{"verify"};
      args.insert(args.end(), worker_args.begin(), worker_args.end());
      args.insert(args.end(), {"--row", std::to_string(next), "--json", w.json.string()});
      const pid_t pid = spawn(exe, args, w.log);
      if (pid < 0) {
        out.rows.push_back(error_result(next, checks[next - 1], std::string("fork: ") + std::strerror(errno)));
        ++done;
        progress_line(reporter, checks[next - 1], {out.rows.back()}, 0, static_cast<unsigned>(running.size()));
      } else {
        running.emplace(pid, w);
      }
      ++next;
    }
    if (running.empty()) continue;
    int status = 0;
    const pid_t pid = waitpid(-1, &status, 0);
    if (pid < 0) {
      if (errno == EINTR) continue;
      throw std::runtime_error(std::string("waitpid: ") + std::strerror(errno));
    }
    auto it = running.find(pid);
    if (it == running.end()) continue;  // not one of ours
    const Worker w = it->second;
    running.erase(it);
    const Check& c = checks[w.id - 1];
    std::vector<RowResult> rows;
    std::string why;
    if (WIFSIGNALED(status)) why = std::string("worker killed by signal ") + strsignal(WTERMSIG(status));
    else if (WEXITSTATUS(status) > 1) why = "worker exited with status " + std::to_string(WEXITSTATUS(status));
    if (why.empty()) {
      try {
        std::ifstream in(w.json);
        std::stringstream s;
        s << in.rdbuf();
        rows = from_json(s.str()).rows;
      } catch (const std::exception& e) {
        why = std::string("no result: ") + e.what();
      }
    }
    if (!why.empty()) rows = {error_result(w.id, c, why + "\n" + tail_of(w.log, 2000))};
    ++done;
    progress_line(reporter, c, rows, std::chrono::duration<double>(Clock::now() - w.started).count(),
                  static_cast<unsigned>(running.size()));
    out.rows.insert(out.rows.end(), rows.begin(), rows.end());
  }
  std::error_code ec;
  fs::remove_all(dir, ec);
  out.wall_seconds = std::chrono::duration<double>(Clock::now() - start).count();
  return merge({out});
}

}  // namespace rocref::proofs
