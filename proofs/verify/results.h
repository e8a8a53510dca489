// proofs/verify/results.h - `rocref verify`'s results as data: JSON in and out, merge, JUnit, the table.
//
// A result row carries its check's id (the 1-based index in the catalog for the same options,
// as `--list --json` prints it) and whether it passed, judged where it ran (row_passes), so
// results from other machines merge without re-judging.
#pragma once

#include <cstdint>
#include <iosfwd>
#include <string>
#include <vector>

#include "proofs/verify/catalog.h"

namespace rocref::proofs {

struct RowResult {
  uint32_t check = 0;  // id of the catalog check that produced the row
  std::string property;
  std::string configuration;
  std::string outcome;  // PROVED, BOUNDED, COUNTEREXAMPLE, UNKNOWN, ERROR (the row's process failed)
  std::string result;   // outcome_text(), e.g. "BOUNDED to depth 12"
  uint32_t depth = 0;
  std::string clause;
  std::string trace;
  std::string note;
  double seconds = 0;
  bool expect_counterexample = false;
  bool passed = false;
};

struct VerifyResults {
  std::vector<RowResult> rows;
  double wall_seconds = 0;
  uint32_t checks = 0;  // how many catalog checks these rows came from
};

RowResult to_result(uint32_t check, const Row& row);
// A check whose process died or wrote nothing: one failing row that says so.
RowResult error_result(uint32_t check, const Check& c, const std::string& why);

std::string to_json(const VerifyResults& results);
// Parses what to_json wrote; throws std::runtime_error naming the problem.
VerifyResults from_json(const std::string& text);
// Rows of several runs, ordered by check id; a check present in two inputs is an error (throws).
VerifyResults merge(const std::vector<VerifyResults>& parts);

void write_junit(std::ostream& out, const VerifyResults& results);
// The table `rocref verify` prints, then traces (if asked) and the failing rows; returns failures.
int print_table(std::ostream& out, const VerifyResults& results, bool traces);
// `--list --json`: one object per check with its id, for batch systems.
std::string list_json(const std::vector<Check>& checks);

}  // namespace rocref::proofs
