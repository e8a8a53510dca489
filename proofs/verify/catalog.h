// proofs/verify/catalog.h - every proof and mutant check, with default bounds, for `rocref verify` and ctest.
#pragma once

#include <cstdint>
#include <functional>
#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

#include "proofs/common/verdict.h"

namespace rocref::proofs {

struct VerifyOptions {
  std::optional<uint32_t> producers;  // replaces the default AQL configurations with this one
  std::optional<uint32_t> ring;
  std::optional<uint32_t> depth;
  std::string property;               // run only checks whose property contains this text
  bool quick = false;                 // small configurations and depths (ctest)
  bool mutants = true;                // include the mutants that must fail
  bool traces = false;                // print every counterexample's interleaving after the table
};

struct Row {
  std::string property;
  std::string configuration;
  Verdict verdict;
  bool expect_counterexample = false;  // a mutant, or an unsafe variant shown on purpose
  std::vector<std::string> expect_clauses;  // for those: the clauses that count as caught
  // A safe row whose proof is expected to close (induction or an exhaustive check):
  // BOUNDED there means an invariant stopped being inductive, and the row fails.
  bool expect_proved = false;
};

struct Check {
  std::string property;       // group name, matched by --property
  std::string configuration;
  std::function<std::vector<Row>()> run;
};

std::vector<Check> catalog(const VerifyOptions& options);
// A row passes when it is a safe variant not broken (PROVED where expect_proved), or an
// expected counterexample that was found.
bool row_passes(const Row& row);
// Runs the catalog with progress on `progress` and the table on `out`; the number of failing rows.
int run_catalog(const VerifyOptions& options, std::ostream& progress, std::ostream& out);

}  // namespace rocref::proofs
