// bench/queue/callgrind.cpp - spawns valgrind on this program and reads the loop's instruction count.
#include "bench/queue/callgrind.h"

#include <dirent.h>
#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <vector>

#include "bench/queue/impl.h"
#include "bench/queue/regression.h"

extern char** environ;

namespace rocref::bench {
namespace {

int spawn_and_wait(const std::vector<std::string>& argv) {
  std::vector<char*> args;
  for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, "/dev/null", O_WRONLY, 0);
  posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, "/dev/null", O_WRONLY, 0);
  pid_t pid = 0;
  const int rc = posix_spawnp(&pid, args[0], &actions, nullptr, args.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  if (rc != 0) return -1;
  int status = 0;
  if (waitpid(pid, &status, 0) != pid) return -1;
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

// The dump written by the client request (not the one at program exit).
std::optional<double> read_dump(const std::string& dir) {
  DIR* d = opendir(dir.c_str());
  if (d == nullptr) return std::nullopt;
  std::optional<double> found;
  while (dirent* e = readdir(d)) {
    const std::string path = dir + "/" + e->d_name;
    if (std::string(e->d_name).rfind("cg.out", 0) != 0) continue;
    std::ifstream in(path);
    std::string line;
    bool client_request = false;
    double total = -1;
    while (std::getline(in, line)) {
      if (line.rfind("desc: Trigger: Client Request", 0) == 0) client_request = true;
      if (line.rfind("summary:", 0) == 0 || line.rfind("totals:", 0) == 0) total = std::atof(line.c_str() + line.find(':') + 1);
    }
    if (client_request && total >= 0) found = total;
  }
  closedir(d);
  if (DIR* c = opendir(dir.c_str())) {
    while (dirent* e = readdir(c)) {
      if (e->d_name[0] != '.') unlink((dir + "/" + e->d_name).c_str());
    }
    closedir(c);
  }
  rmdir(dir.c_str());
  return found;
}

}  // namespace

std::optional<double> instructions_per_pair(const SuiteOptions& options, const std::string& implementation,
                                            std::string* error) {
  char dir_template[] = "/tmp/rocref-callgrind-XXXXXX";
  const char* dir = mkdtemp(dir_template);
  if (dir == nullptr) {
    *error = "cannot make a temporary folder";
    return std::nullopt;
  }
  std::vector<std::string> argv = {"valgrind", "--tool=callgrind", "--instr-atstart=no",
                                   std::string("--callgrind-out-file=") + dir + "/cg.out"};
  for (const auto& a : options.self_command) argv.push_back(a);
  argv.push_back("--pairs-child");
  argv.push_back(implementation);
  const int rc = spawn_and_wait(argv);
  const std::optional<double> total = read_dump(dir);
  if (rc != 0 || !total) {
    *error = rc == -1 ? "valgrind did not run (is it installed?)" : "no callgrind dump from the child";
    return std::nullopt;
  }
  return *total / static_cast<double>(kCallgrindPairs);
}

int run_pairs_child(const SuiteOptions& options) {
  const ImplInfo* impl = find_implementation(options.pairs_child);
  if (impl == nullptr) {
    std::fprintf(stderr, "unknown implementation %s\n", options.pairs_child.c_str());
    return 2;
  }
  const uint64_t sink = impl->pairs(kCallgrindPairs, options.planted, true);
  std::printf("%llu\n", static_cast<unsigned long long>(sink));
  return 0;
}

int check_instructions(const SuiteOptions& options) {
  std::ifstream in(options.check_baseline);
  if (!in) {
    std::fprintf(stderr, "cannot read %s\n", options.check_baseline.c_str());
    return 2;
  }
  const std::vector<BaselineEntry> baseline = parse_baseline(in);
  if (baseline.empty()) {
    std::fprintf(stderr, "%s has no entries\n", options.check_baseline.c_str());
    return 2;
  }
  int failures = 0, errors = 0;
  for (const auto& entry : baseline) {
    std::string error;
    const std::optional<double> measured = instructions_per_pair(options, entry.implementation, &error);
    if (!measured) {
      std::printf("%-24s error: %s\n", entry.implementation.c_str(), error.c_str());
      ++errors;
      continue;
    }
    const Verdict v = compare_instructions(*measured, entry.instructions_per_pair);
    std::printf("%-24s %8.2f instructions per push+pop (baseline %.2f, limit %.2f): %s\n",
                entry.implementation.c_str(), *measured, entry.instructions_per_pair,
                entry.instructions_per_pair * 1.10,
                v == Verdict::Regressed  ? "REGRESSED"
                : v == Verdict::Improved ? "improved: lower the baseline"
                                         : "ok");
    if (v == Verdict::Regressed) ++failures;
  }
  if (errors) return 2;
  return failures == 0 ? 0 : 3;
}

}  // namespace rocref::bench
