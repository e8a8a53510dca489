// tests/conformance/matrix/matrix.h - the conformance matrix: tests by clause x implementations.
//
// The first column is the reference (rocref). A cell that differs from the
// reference, or a reference test that fails, is a deviation; each deviation
// must match a row of the expected-deviations table (implementation, test
// glob, outcome, clause, reason), or the matrix fails (CONF-DEV-1).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "gtest_report.h"

namespace rocref::conform {

struct Column {
  std::string name;                  // implementation, e.g. "rocref", "rocr-5.2.3"
  std::vector<TestResult> results;
  std::string error;                 // the suite could not be run or read
};

struct ExpectedDeviation {
  std::string implementation;        // a column name glob ("*", "rocr-*")
  std::string test_glob;             // Suite.Name with '*' wildcards
  std::optional<Outcome> outcome;    // nullopt: any outcome
  std::string clause;                // the spec clause concerned
  std::string reason;
  int line = 0;
};

// Tab-separated rows: implementation, test glob, outcome (pass|fail|skip|missing|any), clause,
// reason. '#' starts a comment line. nullopt and *error on a malformed row.
std::optional<std::vector<ExpectedDeviation>> parse_deviations(std::string_view tsv, std::string* error);

bool glob_match(std::string_view pattern, std::string_view text) noexcept;
// Clause IDs named by a test name (AQL_PUB_1_... -> AQL-PUB-1), as tests/tools reads them.
std::vector<std::string> clauses_of(std::string_view test_name);

struct Cell {
  Outcome outcome = Outcome::Missing;
  std::string message;
  bool deviation = false;
  int expected_line = 0;             // the table row that explains it, 0 if none
};

struct Row {
  std::string group;                 // first clause, or "<Suite> (no clause)"
  std::string test;                  // Suite.Name
  std::vector<Cell> cells;           // one per column
};

struct Counts {
  int pass = 0, fail = 0, skip = 0, missing = 0, deviations = 0;
};

struct Matrix {
  std::vector<std::string> columns;
  std::vector<Row> rows;             // sorted by group, then test
  std::vector<Counts> counts;        // one per column
  std::vector<std::string> unexpected;        // "impl test: outcome (reference: outcome)"
  std::vector<std::string> unused_expectations;
  std::vector<std::string> column_errors;
};

Matrix build_matrix(const std::vector<Column>& columns, const std::vector<ExpectedDeviation>& expected);
std::string render_text(const Matrix& m, const std::vector<ExpectedDeviation>& expected);

}  // namespace rocref::conform
