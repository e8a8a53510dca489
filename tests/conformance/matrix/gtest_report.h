// tests/conformance/matrix/gtest_report.h - reads the XML report a GoogleTest binary writes.
//
// `--gtest_output=xml:FILE` (GoogleTest 1.12): <testcase name= classname=
// result="completed|skipped|suppressed"> with <failure message=...> or
// <skipped message=...> children. Only what the matrix needs is read.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace rocref::conform {

enum class Outcome : unsigned char { Pass, Fail, Skip, Missing };
const char* outcome_name(Outcome o) noexcept;
std::optional<Outcome> outcome_from_name(std::string_view name) noexcept;

struct TestResult {
  std::string suite;    // classname
  std::string name;     // test name
  Outcome outcome = Outcome::Pass;
  std::string message;  // first failure message or skip reason, entities decoded
  std::string full_name() const { return suite + "." + name; }
};

// Full names (Suite.Name) from `--gtest_list_tests` output; other lines are ignored.
std::vector<std::string> parse_gtest_list(std::string_view text);

// nullopt (and *error) on text that is not a GoogleTest report.
std::optional<std::vector<TestResult>> parse_gtest_xml(std::string_view xml, std::string* error);

}  // namespace rocref::conform
