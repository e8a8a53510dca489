// proofs/verify/verify_command.cpp - `rocref verify`: runs every proof and mutant (in parallel workers), prints the table.
#include <CLI/CLI.hpp>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "cli/command.h"
#include "cli/parse_args.h"
#include "proofs/verify/catalog.h"
#include "proofs/verify/results.h"
#include "proofs/verify/runner.h"

namespace {

using namespace rocref::proofs;

constexpr const char* kDescription =
    "Runs the Z3 proofs of the queue protocol (BMC, k-induction, bounded liveness), the weak-memory,\n"
    "signal and GPUVM checks, and every mutant that must fail. Prints a progress line per check, then\n"
    "property, configuration, result (PROVED / BOUNDED to depth d / COUNTEREXAMPLE) and time.\n"
    "Checks run in parallel worker processes (--jobs); `--list --json` and `--row ID` let a batch\n"
    "system spread them over machines, `--merge` combines their --json results.\n"
    "Exit status 1 if any proof fails or any mutant is not caught, 2 on bad options or inputs.";

bool write_file(const std::string& path, const std::string& text) {
  if (path == "-") {
    std::cout << text << std::flush;
    return true;
  }
  std::ofstream out(path);
  out << text;
  out.close();
  if (!out) std::fprintf(stderr, "rocref verify: cannot write %s\n", path.c_str());
  return static_cast<bool>(out);
}

std::string self_exe() {
  std::error_code ec;
  const auto p = std::filesystem::read_symlink("/proc/self/exe", ec);
  return ec ? std::string() : p.string();
}

int verify_main(const std::vector<std::string>& args) {
  VerifyOptions o;
  CLI::App app{kDescription, "rocref verify"};
  app.get_formatter()->column_width(24);
  bool list = false;
  uint32_t producers = 0, ring = 0, depth = 0;
  unsigned jobs = std::max(1u, std::thread::hardware_concurrency());
  std::vector<uint32_t> rows;
  std::vector<std::string> merge_files;
  std::string json_file, junit_file;
  app.add_flag("--quick", o.quick, "small configurations and depths (what ctest runs)");
  app.add_flag("--no-mutants", [&o](int64_t) { o.mutants = false; }, "leave out the mutants that must fail");
  app.add_flag("--traces", o.traces, "print every counterexample after the table");
  app.add_option("--producers", producers, "one AQL configuration: producers")->check(CLI::Range(1, 3));
  app.add_option("--ring", ring, "one AQL configuration: ring size")->check(CLI::IsMember({2, 4, 8}));
  app.add_option("--depth", depth, "BMC depth for the AQL configurations")->check(CLI::Range(1, 1000));
  app.add_option("--property", o.property, "only checks whose property or configuration contains TEXT");
  app.add_flag("--list", list, "list the checks (with --json: as JSON with their ids) and exit");
  app.add_option("-j,--jobs", jobs, "checks run at once in worker processes (default: the machine's cores)")
      ->check(CLI::Range(1, 1024));
  app.add_option("--row", rows, "run only the checks with these ids (from --list), in this process");
  app.add_option("--merge", merge_files, "combine the --json results of separate runs")->check(CLI::ExistingFile);
  app.add_option("--json", json_file, "write the results as JSON to FILE ('-' or none with --list: stdout)")
      ->expected(0, 1);
  app.add_option("--junit", junit_file, "write the results as JUnit XML to FILE");
  if (const int code = rocref::cli::parse_args(app, args); code >= 0) return code;
  if (app.count("--producers")) o.producers = producers;
  if (app.count("--ring")) o.ring = ring;
  if (app.count("--depth")) o.depth = depth;
  const bool json_requested = app.count("--json") > 0;
  if (json_requested && json_file.empty()) json_file = "-";

  VerifyResults results;
  if (!merge_files.empty()) {
    std::vector<VerifyResults> parts;
    try {
      for (const std::string& f : merge_files) {
        std::ifstream in(f);
        std::stringstream s;
        s << in.rdbuf();
        parts.push_back(from_json(s.str()));
      }
      results = merge(parts);
    } catch (const std::exception& e) {
      std::fprintf(stderr, "rocref verify --merge: %s\n", e.what());
      return 2;
    }
  } else {
    const std::vector<Check> checks = catalog(o);
    if (list) {
      if (json_requested) return write_file(json_file, list_json(checks)) ? 0 : 2;
      for (size_t i = 0; i < checks.size(); ++i) {
        std::printf("%3zu  %-28s %s\n", i + 1, checks[i].property.c_str(), checks[i].configuration.c_str());
      }
      return 0;
    }
    for (const uint32_t id : rows) {
      if (id < 1 || id > checks.size()) {
        std::fprintf(stderr, "rocref verify: no check %u (there are %zu; see --list)\n", id, checks.size());
        return 2;
      }
    }
    const std::string exe = self_exe();
    if (!rows.empty() || jobs == 1 || checks.size() <= 1 || exe.empty()) {
      std::vector<uint32_t> ids = rows;
      if (ids.empty()) {
        for (uint32_t i = 1; i <= checks.size(); ++i) ids.push_back(i);
      }
      results = run_here(checks, ids, std::cerr);
    } else {
      results = run_workers(exe, checks, option_args(o), jobs, std::cerr);
    }
  }
  // With the JSON on stdout, the table goes to stderr so the JSON stays parseable.
  const int failures = print_table(json_file == "-" ? std::cerr : std::cout, results, o.traces);
  if (json_requested && !write_file(json_file, to_json(results))) return 2;
  if (!junit_file.empty()) {
    std::ostringstream x;
    write_junit(x, results);
    if (!write_file(junit_file, x.str())) return 2;
  }
  return failures == 0 ? 0 : 1;
}

const rocref::cli::CommandRegistration kVerify("verify", "model-check the queue protocol with Z3 (proofs and mutants)",
                                               verify_main);

}  // namespace
