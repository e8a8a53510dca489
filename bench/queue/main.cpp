// bench/queue/main.cpp - rocref_bench_queue: the queue suite without the rocref tool around it.
#include <limits.h>
#include <unistd.h>

#include <cstdio>
#include <string>
#include <vector>

#include "bench/queue/options.h"
#include "bench/queue/suite.h"

int main(int argc, char** argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  int exit_code = 0;
  auto options = rocref::bench::parse_options(args, &exit_code);
  if (!options) {
    rocref::bench::print_usage(argv[0]);
    return exit_code;
  }
  // The callgrind child re-runs this binary; valgrind needs its real path.
  char self[PATH_MAX] = {};
  const ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
  options->self_command = {n > 0 ? std::string(self, static_cast<size_t>(n)) : std::string(argv[0])};
  return rocref::bench::run_suite(*options);
}
