// tests/conformance/matrix/ci_report.h - the matrix for CI systems: JUnit XML per implementation, Markdown.
#pragma once

#include <string>
#include <vector>

#include "matrix.h"

namespace rocref::conform {

// One JUnit document for column `c`: a test fails when its cell is a deviation no row of the
// expected-deviations table explains (what makes `rocref conform` exit 1); an explained
// deviation, a skip or a missing test is <skipped> with the reason; a column that could not
// run is one failing test case.
std::string junit_for_column(const Matrix& m, size_t c, const std::vector<ExpectedDeviation>& expected);

// The matrix as GitHub-flavoured Markdown: totals per implementation, then one table row
// per test under its clause, then notes, column errors and unexpected deviations.
std::string render_markdown(const Matrix& m, const std::vector<ExpectedDeviation>& expected);

}  // namespace rocref::conform
