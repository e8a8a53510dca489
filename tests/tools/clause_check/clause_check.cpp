// tests/tools/clause_check/clause_check.cpp - spec clause <-> check cross-reference (see the header).
#include "clause_check.h"

#include <fstream>
#include <regex>
#include <sstream>

namespace rocref::clause_check {
namespace fs = std::filesystem;
namespace {

const std::regex kClauseHeading(R"(^#{2,4}\s+([A-Z][A-Z0-9]*-[A-Z][A-Z0-9]*-[0-9]+)\b)");
const std::regex kChecksLine(R"(^Checks:(.*)$)");
const std::regex kCheckItem(R"(`([a-z]+:[^`]+)`)");
const std::regex kTestDecl(R"(\b(?:TEST|TEST_F|TEST_P|TYPED_TEST|RC_GTEST_PROP|RC_GTEST_FIXTURE_PROP)\s*\(\s*(\w+)\s*,\s*(\w+))");
const std::regex kCoversTag(R"(//\s*covers:\s*(.*)$)");
const std::regex kClauseId(R"(\b([A-Z][A-Z0-9]*)-([A-Z][A-Z0-9]*)-([0-9]+)\b)");

std::string read_file(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream out;
  out << in.rdbuf();
  return out.str();
}

bool is_source(const fs::path& path) {
  const std::string ext = path.extension().string();
  return ext == ".cpp" || ext == ".cc" || ext == ".h" || ext == ".hpp" || ext == ".py" || ext == ".smt2";
}

std::vector<fs::path> sources_under(const fs::path& dir) {
  std::vector<fs::path> files;
  if (!fs::is_directory(dir)) return files;
  for (auto it = fs::recursive_directory_iterator(dir); it != fs::recursive_directory_iterator(); ++it) {
    if (it->is_directory() && (it->path().filename() == "fixtures" || it->path().filename().string().rfind("build", 0) == 0)) {
      it.disable_recursion_pending();
      continue;
    }
    if (it->is_regular_file() && is_source(it->path())) files.push_back(it->path());
  }
  std::sort(files.begin(), files.end());
  return files;
}

std::string where(const fs::path& root, const fs::path& file, int line, const std::string& what) {
  return fs::relative(file, root).string() + ":" + std::to_string(line) + " (" + what + ")";
}

// Test declarations, the clauses their names and `// covers:` tags name, and clause tags in code.
void scan_source(const fs::path& root, const fs::path& file, Tree& tree, bool declares_tests) {
  std::istringstream in(read_file(file));
  std::string line;
  int number = 0;
  std::vector<std::string> pending_covers;
  while (std::getline(in, line)) {
    ++number;
    std::smatch m;
    if (std::regex_search(line, m, kCoversTag)) {
      const std::string list = m[1];
      for (auto it = std::sregex_iterator(list.begin(), list.end(), kClauseId); it != std::sregex_iterator(); ++it) {
        tree.references.push_back({(*it)[0], where(root, file, number, "covers tag")});
      }
      continue;
    }
    if (declares_tests && std::regex_search(line, m, kTestDecl)) {
      const std::string name = m[2];
      tree.tests.insert(std::string(m[1]) + "." + name);
      continue;  // clauses in the name are read by check(), once the chapters are known
    }
    // Clause tags are read from comments only: string literals may name clauses on purpose.
    const size_t comment = line.find("//");
    if (comment == std::string::npos) continue;
    const std::string text = line.substr(comment);
    for (auto it = std::sregex_iterator(text.begin(), text.end(), kClauseId); it != std::sregex_iterator(); ++it) {
      tree.references.push_back({(*it)[0], where(root, file, number, "clause tag")});
    }
  }
}

}  // namespace

std::vector<Clause> parse_spec(const std::string& text, const std::string& file, std::vector<std::string>& problems) {
  std::vector<Clause> clauses;
  std::istringstream in(text);
  std::string line;
  int number = 0;
  bool in_code = false;
  while (std::getline(in, line)) {
    ++number;
    if (line.rfind("```", 0) == 0) in_code = !in_code;
    if (in_code) continue;
    std::smatch m;
    if (std::regex_search(line, m, kClauseHeading)) {
      clauses.push_back(Clause{m[1], file, number, {}});
    } else if (std::regex_search(line, m, kChecksLine)) {
      if (clauses.empty()) {
        problems.push_back(file + ":" + std::to_string(number) + ": Checks: line outside any clause");
        continue;
      }
      const std::string list = m[1];
      for (auto it = std::sregex_iterator(list.begin(), list.end(), kCheckItem); it != std::sregex_iterator(); ++it) {
        clauses.back().checks.push_back((*it)[1]);
      }
    } else if (line.rfind("## ", 0) == 0 && !clauses.empty()) {
      // A new chapter section ends the previous clause: later Checks: lines are not its.
      clauses.push_back(Clause{});
    }
  }
  std::erase_if(clauses, [](const Clause& c) { return c.id.empty(); });
  return clauses;
}

std::vector<std::string> clauses_in_test_name(const std::string& name, const std::set<std::string>& chapters) {
  static const std::regex kNameClause(R"((?:^|_)([A-Z][A-Z0-9]*)_([A-Z][A-Z0-9]*)_([0-9]+)(?=_|$))");
  std::vector<std::string> ids;
  for (auto it = std::sregex_iterator(name.begin(), name.end(), kNameClause); it != std::sregex_iterator(); ++it) {
    if (chapters.count((*it)[1])) ids.push_back(std::string((*it)[1]) + "-" + std::string((*it)[2]) + "-" + std::string((*it)[3]));
  }
  return ids;
}

Tree scan(const fs::path& root) {
  Tree tree;
  if (fs::is_directory(root / "spec")) {
    std::vector<fs::path> specs;
    for (const auto& entry : fs::directory_iterator(root / "spec")) {
      if (entry.is_regular_file() && entry.path().extension() == ".md" && entry.path().filename() != "README.md") {
        specs.push_back(entry.path());
      }
    }
    std::sort(specs.begin(), specs.end());
    for (const fs::path& spec : specs) {
      const std::string rel = fs::relative(spec, root).string();
      for (Clause& c : parse_spec(read_file(spec), rel, tree.problems)) {
        if (auto [it, fresh] = tree.clauses.emplace(c.id, c); !fresh) {
          tree.problems.push_back(rel + ":" + std::to_string(c.line) + ": " + c.id + " already defined at " +
                                  it->second.file + ":" + std::to_string(it->second.line));
        }
        tree.chapters.insert(c.id.substr(0, c.id.find('-')));
      }
    }
  }
  for (const fs::path& f : sources_under(root / "tests")) scan_source(root, f, tree, true);
  for (const fs::path& f : sources_under(root / "proofs")) {
    scan_source(root, f, tree, true);
    tree.proof_text += read_file(f);
  }
  for (const fs::path& f : sources_under(root / "bench")) {
    scan_source(root, f, tree, true);
    tree.bench_text += read_file(f);
  }
  for (const char* code : {"src", "models"}) {
    for (const fs::path& f : sources_under(root / code)) scan_source(root, f, tree, false);
  }
  return tree;
}

Report check(const Tree& tree) {
  Report report;
  report.errors = tree.problems;
  report.clauses = tree.clauses.size();
  report.tests_found = tree.tests.size();
  if (tree.clauses.empty()) report.errors.push_back("no clause found in spec/*.md");
  for (const auto& [id, clause] : tree.clauses) {
    const std::string at = clause.file + ":" + std::to_string(clause.line) + ": " + id;
    if (clause.checks.empty()) report.errors.push_back(at + " names no check");
    for (const std::string& check : clause.checks) {
      ++report.checks_named;
      const std::string kind = check.substr(0, check.find(':'));
      const std::string name = check.substr(check.find(':') + 1);
      bool exists = false;
      if (kind == "test") {
        exists = tree.tests.count(name) != 0;
      } else if (kind == "proof") {
        exists = name.find('/') != std::string::npos && tree.proof_text.find(name) != std::string::npos;
      } else if (kind == "bench") {
        exists = tree.bench_text.find(name) != std::string::npos;
      } else {
        report.errors.push_back(at + " names `" + check + "` of unknown kind (test:, proof:, bench:)");
        continue;
      }
      if (!exists) report.errors.push_back(at + " names `" + check + "`, which does not exist");
    }
  }
  for (const std::string& test : tree.tests) {
    for (const std::string& id : clauses_in_test_name(test.substr(test.find('.') + 1), tree.chapters)) {
      if (!tree.clauses.count(id)) report.errors.push_back("test " + test + " names " + id + ", which no spec defines");
    }
  }
  for (const ClauseReference& ref : tree.references) {
    const std::string chapter = ref.clause.substr(0, ref.clause.find('-'));
    if (tree.chapters.count(chapter) && !tree.clauses.count(ref.clause)) {
      report.errors.push_back(ref.where + " names " + ref.clause + ", which no spec defines");
    }
  }
  return report;
}

}  // namespace rocref::clause_check
