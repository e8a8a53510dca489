// tests/tools/clause_check/clause_check.h - spec clause <-> check cross-reference.
//
// Reads every spec/*.md for clause definitions (`### AQL-PUB-1 Title`) and their
// `Checks:` lines, scans tests/, proofs/ and bench/ for the checks that exist and
// the clauses they name, and reports each broken link (rules: spec/aql-queue.md,
// "How checks are named").
#pragma once

#include <filesystem>
#include <map>
#include <set>
#include <string>
#include <vector>

namespace rocref::clause_check {

struct Clause {
  std::string id;                   // "AQL-PUB-1"
  std::string file;                 // spec file it is defined in
  int line = 0;
  std::vector<std::string> checks;  // "test:Suite.Name", "proof:harness/AQL-PUB-1", "bench:Name"
};

// Where a source names a clause: a test name (AQL_PUB_1_...), a `// covers:` tag, or a clause tag in code.
struct ClauseReference {
  std::string clause;
  std::string where;  // "file:line (what)"
};

struct Tree {
  std::map<std::string, Clause> clauses;
  std::set<std::string> chapters;      // clause prefixes the specs define ("AQL")
  std::set<std::string> tests;         // "Suite.Name" declared under tests/
  std::vector<ClauseReference> references;
  std::string proof_text;              // every proofs/ source, concatenated
  std::string bench_text;              // every bench/ source, concatenated
  std::vector<std::string> problems;   // parse problems (duplicate clause, ...)
};

struct Report {
  std::vector<std::string> errors;
  size_t clauses = 0;
  size_t checks_named = 0;
  size_t tests_found = 0;
};

// Reads the spec/ and source folders under `root`. Folders named `fixtures` are skipped.
Tree scan(const std::filesystem::path& root);
Report check(const Tree& tree);

// Parts exposed for unit tests.
std::vector<Clause> parse_spec(const std::string& text, const std::string& file, std::vector<std::string>& problems);
// Clause IDs a test name carries: AQL_PUB_1_Foo -> AQL-PUB-1 (chapters limit the prefixes).
std::vector<std::string> clauses_in_test_name(const std::string& name, const std::set<std::string>& chapters);

}  // namespace rocref::clause_check
