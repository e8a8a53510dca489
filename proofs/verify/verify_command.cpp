// proofs/verify/verify_command.cpp - `rocref verify`: runs every proof and mutant, prints the table.
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

#include "cli/command.h"
#include "proofs/verify/catalog.h"

namespace {

constexpr const char* kUsage =
    "usage: rocref verify [--quick] [--producers N] [--ring N] [--depth D] [--property TEXT] [--no-mutants] [--traces] [--list]\n"
    "  Runs the Z3 proofs of the queue protocol (BMC, k-induction, bounded liveness), the weak-memory\n"
    "  and signal checks, and every mutant that must fail. Prints property, configuration, result\n"
    "  (PROVED / BOUNDED to depth d / COUNTEREXAMPLE) and time. Exit status 1 if any proof fails or\n"
    "  any mutant is not caught, 2 on bad options.\n"
    "  --producers/--ring  one AQL configuration (1..3 producers, ring a power of two, 2..8)\n"
    "  --depth             BMC depth for the AQL configurations\n"
    "  --property TEXT     only checks whose property or configuration contains TEXT\n"
    "  --traces            print every counterexample as a numbered interleaving\n";

bool parse_number(const std::string& s, uint32_t& out) {
  char* end = nullptr;
  const unsigned long v = std::strtoul(s.c_str(), &end, 10);
  if (s.empty() || *end != '\0' || v > 1000) return false;
  out = static_cast<uint32_t>(v);
  return true;
}

int verify_main(const std::vector<std::string>& args) {
  rocref::proofs::VerifyOptions o;
  bool list = false;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    auto value = [&](uint32_t& out) {
      return i + 1 < args.size() && parse_number(args[++i], out);
    };
    uint32_t n = 0;
    if (a == "--help" || a == "-h") {
      std::fputs(kUsage, stdout);
      return 0;
    } else if (a == "--quick") {
      o.quick = true;
    } else if (a == "--no-mutants") {
      o.mutants = false;
    } else if (a == "--traces") {
      o.traces = true;
    } else if (a == "--list") {
      list = true;
    } else if (a == "--producers" && value(n) && n >= 1 && n <= 3) {
      o.producers = n;
    } else if (a == "--ring" && value(n) && n >= 2 && n <= 8 && (n & (n - 1)) == 0) {
      o.ring = n;
    } else if (a == "--depth" && value(n) && n >= 1) {
      o.depth = n;
    } else if (a == "--property" && i + 1 < args.size()) {
      o.property = args[++i];
    } else {
      std::fprintf(stderr, "rocref verify: bad option '%s'\n%s", a.c_str(), kUsage);
      return 2;
    }
  }
  if (list) {
    for (const auto& c : rocref::proofs::catalog(o)) std::printf("%-28s %s\n", c.property.c_str(), c.configuration.c_str());
    return 0;
  }
  const int failures = rocref::proofs::run_catalog(o, std::cerr, std::cout);
  return failures == 0 ? 0 : 1;
}

const rocref::cli::CommandRegistration kVerify("verify", "model-check the queue protocol with Z3 (proofs and mutants)",
                                               verify_main);

}  // namespace
