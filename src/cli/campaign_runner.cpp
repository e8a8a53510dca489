// cli/campaign_runner.cpp - run one item, run all locally, or write and submit a Slurm job array.
#include "cli/campaign_runner.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <ostream>
#include <sstream>
#include <thread>

namespace rocref::campaign {
namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

std::string read_text(const fs::path& p) {
  std::ifstream in(p);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

int status_of(int wstatus) {
  if (WIFEXITED(wstatus)) return WEXITSTATUS(wstatus);
  if (WIFSIGNALED(wstatus)) return 128 + WTERMSIG(wstatus);
  return 255;
}

std::vector<char*> c_argv(const std::vector<std::string>& argv) {
  std::vector<char*> out;
  for (const std::string& a : argv) out.push_back(const_cast<char*>(a.c_str()));
  out.push_back(nullptr);
  return out;
}

// fork/exec with stdout+stderr to `log` (or a pipe fd), in its own process group so a timeout
// kills the whole tree. Only async-signal-safe calls in the child, but setenv: the parent is
// single-threaded here.
pid_t spawn(const std::vector<std::string>& argv, const std::map<std::string, std::string>& env, const std::string& cwd,
            int out_fd) {
  std::vector<char*> args = c_argv(argv);
  const pid_t pid = fork();
  if (pid != 0) return pid;
  setpgid(0, 0);
  if (out_fd >= 0) {
    dup2(out_fd, STDOUT_FILENO);
    dup2(out_fd, STDERR_FILENO);
  }
  for (const auto& [k, v] : env) setenv(k.c_str(), v.c_str(), 1);
  if (!cwd.empty() && chdir(cwd.c_str()) != 0) _exit(127);
  execvp(args[0], args.data());
  std::fprintf(stderr, "cannot run %s\n", args[0]);
  _exit(127);
}

std::string host_name() {
  char buf[256] = {};
  gethostname(buf, sizeof buf - 1);
  return buf;
}

std::string shell_quote(const std::string& s) {
  std::string out = "'";
  for (const char ch : s) out += ch == '\'' ? std::string("'\\''") : std::string(1, ch);
  return out + "'";
}

}  // namespace

ItemResult run_item(const Campaign& c, size_t index, const std::string& rocref, const std::string& results) {
  const Launch l = launch_of(c, index, rocref, results);
  fs::create_directories(results);
  const fs::path log = fs::path(results) / ("item-" + std::to_string(index) + ".log");
  if (!l.artifact.empty()) fs::remove(l.artifact);
  ItemResult r;
  r.campaign = c.name;
  r.index = index;
  r.id = c.items[index].id;
  r.host = host_name();
  r.artifact = l.artifact;
  std::map<std::string, std::string> env = l.env;
  env["ROCREF_CAMPAIGN_INDEX"] = std::to_string(index);
  env["ROCREF_CAMPAIGN_RESULTS"] = results;
  const int fd = open(log.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  const auto start = Clock::now();
  const pid_t pid = spawn(l.argv, env, c.root, fd);
  if (fd >= 0) close(fd);
  int wstatus = 0;
  bool timed_out = false;
  if (pid < 0) {
    r.exit_status = 127;
  } else {
    while (waitpid(pid, &wstatus, c.timeout_s ? WNOHANG : 0) == 0) {
      if (std::chrono::duration<double>(Clock::now() - start).count() > c.timeout_s) {
        kill(-pid, SIGKILL);
        waitpid(pid, &wstatus, 0);
        timed_out = true;
        break;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    r.exit_status = status_of(wstatus);
  }
  r.seconds = std::chrono::duration<double>(Clock::now() - start).count();
  const std::string output = read_text(log);
  r.output_tail = output.size() > 2000 ? "..." + output.substr(output.size() - 2000) : output;
  std::string why;
  r.passed = !timed_out && judge(l.expect, r.exit_status, output, &why);
  if (timed_out) why = "killed after the campaign's timeout of " + std::to_string(c.timeout_s) + " s";
  if (r.passed && !l.artifact.empty() && !fs::exists(l.artifact)) {
    r.passed = false;
    why = "wrote no " + l.artifact;
  }
  r.reason = r.passed ? "" : why;
  // Write then rename: on a shared filesystem the merge never reads half a result.
  const fs::path final_path = fs::path(results) / result_file_name(index);
  const fs::path tmp = final_path.string() + ".tmp." + host_name() + "." + std::to_string(getpid());
  {
    std::ofstream out(tmp);
    out << to_json(r);
    if (!out) throw CampaignError("cannot write " + tmp.string());
  }
  fs::rename(tmp, final_path);
  return r;
}

void run_local(const Campaign& c, const std::string& description, const std::string& rocref, const std::string& results,
               unsigned jobs, std::ostream& progress) {
  if (c.exclusive || jobs == 0) jobs = 1;
  fs::create_directories(results);
  std::map<pid_t, size_t> running;
  size_t next = 0, done = 0;
  const auto start = Clock::now();
  const int width = static_cast<int>(std::to_string(c.items.size()).size());
  while (next < c.items.size() || !running.empty()) {
    while (next < c.items.size() && running.size() < jobs) {
      const fs::path worker_log = fs::path(results) / ("worker-" + std::to_string(next) + ".log");
      const int fd = open(worker_log.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
      const pid_t pid =
          spawn({rocref, "campaign", "item", description, "--index", std::to_string(next), "--results", results}, {},
                "", fd);
      if (fd >= 0) close(fd);
      if (pid < 0) throw CampaignError("cannot start a worker process");
      running[pid] = next++;
    }
    int wstatus = 0;
    const pid_t pid = waitpid(-1, &wstatus, 0);
    if (pid < 0) break;
    const auto it = running.find(pid);
    if (it == running.end()) continue;
    const size_t index = it->second;
    running.erase(it);
    ++done;
    std::string state = "MISSING";
    double seconds = 0;
    try {
      const ItemResult r = item_result_from_json(read_text(fs::path(results) / result_file_name(index)));
      state = r.passed ? "pass" : "FAIL";
      seconds = r.seconds;
    } catch (const CampaignError&) {
    }
    char line[160];
    std::snprintf(line, sizeof line, "[%*zu/%zu] %7.1f s  %-7s %s  (elapsed %.0f s, %zu running)\n", width, done,
                  c.items.size(), seconds, state.c_str(), c.items[index].id.c_str(),
                  std::chrono::duration<double>(Clock::now() - start).count(), running.size());
    progress << line << std::flush;
  }
}

std::string sbatch_script(const Campaign& c, const std::string& description, const std::string& rocref,
                          const std::string& results, const SubmitOptions& o) {
  std::ostringstream s;
  s << "#!/bin/bash\n"
    << "# rocref campaign " << c.name << ": " << c.items.size() << " items, one array task each.\n"
    << "# Each task runs item $SLURM_ARRAY_TASK_ID and writes " << results << "/item-N.json;\n"
    << "# `rocref campaign merge` reads them. Written by `rocref campaign submit`.\n"
    << "set -u\n"
    << "exec ";
  if (!o.srun_args.empty()) {
    s << "srun ";
    for (const std::string& a : o.srun_args) s << shell_quote(a) << " ";
  }
  s << shell_quote(rocref) << " campaign item " << shell_quote(description) << " --index \"$SLURM_ARRAY_TASK_ID\""
    << " --results " << shell_quote(results) << "\n";
  return s.str();
}

std::vector<std::string> sbatch_command(const Campaign& c, const std::string& script, const SubmitOptions& o) {
  const fs::path dir = fs::path(script).parent_path();
  std::string array = "--array=0-" + std::to_string(c.items.size() - 1);
  const unsigned throttle = c.exclusive ? 1 : o.throttle;
  if (throttle) array += "%" + std::to_string(throttle);
  std::vector<std::string> cmd{"sbatch", "--parsable", array,
                               "--job-name=" + (o.job_name.empty() ? "rocref-" + c.name : o.job_name),
                               "--output=" + (dir / "slurm-%A_%a.out").string()};
  if (!o.partition.empty()) cmd.push_back("--partition=" + o.partition);
  if (!o.account.empty()) cmd.push_back("--account=" + o.account);
  if (!o.time.empty()) cmd.push_back("--time=" + o.time);
  if (o.wait) cmd.push_back("--wait");
  cmd.insert(cmd.end(), o.sbatch_args.begin(), o.sbatch_args.end());
  cmd.push_back(script);
  return cmd;
}

int capture(const std::vector<std::string>& argv, std::string* out) {
  int fds[2];
  if (pipe2(fds, O_CLOEXEC) != 0) return 127;
  std::vector<char*> args = c_argv(argv);
  const pid_t pid = fork();
  if (pid == 0) {
    dup2(fds[1], STDOUT_FILENO);
    execvp(args[0], args.data());
    std::fprintf(stderr, "cannot run %s\n", args[0]);
    _exit(127);
  }
  close(fds[1]);
  if (pid < 0) {
    close(fds[0]);
    return 127;
  }
  char buf[4096];
  ssize_t n;
  while ((n = read(fds[0], buf, sizeof buf)) > 0) {
    if (out) out->append(buf, static_cast<size_t>(n));
  }
  close(fds[0]);
  int wstatus = 0;
  waitpid(pid, &wstatus, 0);
  return status_of(wstatus);
}

std::vector<ItemResult> read_results(const std::vector<std::string>& dirs) {
  std::vector<ItemResult> out;
  for (const std::string& d : dirs) {
    if (!fs::is_directory(d)) throw CampaignError("no results folder " + d);
    std::vector<fs::path> files;
    for (const auto& e : fs::directory_iterator(d)) {
      const std::string name = e.path().filename().string();
      if (name.rfind("item-", 0) == 0 && e.path().extension() == ".json") files.push_back(e.path());
    }
    std::sort(files.begin(), files.end());
    for (const fs::path& f : files) {
      try {
        ItemResult r = item_result_from_json(read_text(f));
        // The artifact lies beside its result, wherever the folder is mounted now.
        if (!r.artifact.empty()) r.artifact = (fs::path(d) / fs::path(r.artifact).filename()).string();
        out.push_back(std::move(r));
      } catch (const CampaignError& e) {
        throw CampaignError(f.string() + ": " + e.what());
      }
    }
  }
  return out;
}

}  // namespace rocref::campaign
