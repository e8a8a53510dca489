// bench/bench_command.cpp - `rocref bench`: runs the queue comparison and writes its table, JSON and plot.
#include <limits.h>
#include <unistd.h>

#include <cstdio>

#include "bench/queue/options.h"
#include "bench/queue/suite.h"
#include "cli/command.h"

namespace {

int run_bench(const std::vector<std::string>& args) {
  int exit_code = 0;
  auto options = rocref::bench::parse_options(args, &exit_code);
  if (!options) {
    rocref::bench::print_usage("rocref bench");
    return exit_code;
  }
  // The callgrind child re-runs this binary; valgrind needs its real path.
  char self[PATH_MAX] = {};
  const ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
  options->self_command = {n > 0 ? std::string(self, static_cast<size_t>(n)) : std::string("rocref"), "bench"};
  return rocref::bench::run_suite(*options);
}

const rocref::cli::CommandRegistration kBench("bench", "benchmark the AQL submission core against its peers",
                                              run_bench);

}  // namespace
