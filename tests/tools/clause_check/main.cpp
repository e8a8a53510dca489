// tests/tools/clause_check/main.cpp - `rocref_clause_check <repo root>`: exit 1 on any broken clause link.
#include <cstdio>

#include "clause_check.h"

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: rocref_clause_check <repository root>\n");
    return 2;
  }
  const auto tree = rocref::clause_check::scan(argv[1]);
  const auto report = rocref::clause_check::check(tree);
  for (const auto& e : report.errors) std::printf("error: %s\n", e.c_str());
  std::printf("%zu clauses, %zu checks named, %zu tests found, %zu errors\n", report.clauses,
              report.checks_named, report.tests_found, report.errors.size());
  return report.errors.empty() ? 0 : 1;
}
