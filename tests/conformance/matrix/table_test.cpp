// tests/conformance/matrix/table_test.cpp - the expected-deviations table names real clauses and real tests.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>

#include "matrix.h"

namespace rocref::conform {
namespace {

namespace fs = std::filesystem;

std::string read(const fs::path& p) {
  std::ifstream in(p);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

std::set<std::string> spec_clauses() {
  static const std::regex heading(R"(^#{2,4}\s+([A-Z][A-Z0-9]*-[A-Z][A-Z0-9]*-[0-9]+)\b)", std::regex::multiline);
  std::set<std::string> ids;
  for (const auto& e : fs::directory_iterator(fs::path(ROCREF_SOURCE_ROOT) / "spec")) {
    if (e.path().extension() != ".md") continue;
    const std::string text = read(e.path());
    for (auto it = std::sregex_iterator(text.begin(), text.end(), heading); it != std::sregex_iterator(); ++it) {
      ids.insert((*it)[1]);
    }
  }
  return ids;
}

std::set<std::string> declared_tests() {
  static const std::regex decl(R"(\b(?:TEST|TEST_F|TEST_P)\s*\(\s*(\w+)\s*,\s*(\w+))");
  std::set<std::string> tests;
  for (const auto& e : fs::recursive_directory_iterator(fs::path(ROCREF_SOURCE_ROOT) / "tests")) {
    if (e.path().extension() != ".cpp") continue;
    const std::string text = read(e.path());
    for (auto it = std::sregex_iterator(text.begin(), text.end(), decl); it != std::sregex_iterator(); ++it) {
      tests.insert((*it)[1].str() + "." + (*it)[2].str());
    }
  }
  return tests;
}

// covers: CONF-PEER-1, CONF-PEER-2
TEST(ConformTable, CONF_DEV_3_EveryRowNamesADefinedClauseAndAnExistingTest) {
  std::string err;
  const auto rows = parse_deviations(read(ROCREF_CONFORM_DEVIATIONS), &err);
  ASSERT_TRUE(rows) << err;
  const auto clauses = spec_clauses();
  const auto tests = declared_tests();
  ASSERT_FALSE(clauses.empty());
  ASSERT_FALSE(tests.empty());
  for (const ExpectedDeviation& d : *rows) {
    EXPECT_TRUE(clauses.count(d.clause)) << "line " << d.line << ": clause " << d.clause << " is defined by no spec";
    bool matches = false;
    for (const std::string& t : tests) matches = matches || glob_match(d.test_glob, t);
    EXPECT_TRUE(matches) << "line " << d.line << ": " << d.test_glob << " matches no declared test";
  }
}

TEST(ConformTable, CONF_DEV_3_ARowNamingAnUndefinedClauseIsCaught) {
  // The check above must be able to fail: a planted bad row is reported.
  const auto rows = parse_deviations("x\tNo.SuchTest\tskip\tNOPE-X-9\treason\n", nullptr);
  ASSERT_TRUE(rows);
  EXPECT_FALSE(spec_clauses().count((*rows)[0].clause));
  bool matches = false;
  for (const std::string& t : declared_tests()) matches = matches || glob_match((*rows)[0].test_glob, t);
  EXPECT_FALSE(matches);
}

}  // namespace
}  // namespace rocref::conform
