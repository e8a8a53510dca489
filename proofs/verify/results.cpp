// proofs/verify/results.cpp - verify results as JSON (nlohmann-json), JUnit XML and the table.
#include "proofs/verify/results.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdio>
#include <map>
#include <ostream>
#include <stdexcept>

#include "cli/junit_xml.h"

namespace rocref::proofs {
namespace {

// Ordered: the files keep the fields in the order written, which reads better than sorted.
using json = nlohmann::ordered_json;

const char* outcome_name(Outcome o) {
  switch (o) {
    case Outcome::Proved: return "PROVED";
    case Outcome::Bounded: return "BOUNDED";
    case Outcome::Counterexample: return "COUNTEREXAMPLE";
    case Outcome::Unknown: return "UNKNOWN";
  }
  return "UNKNOWN";
}

json row_json(const RowResult& r) {
  return json{{"check", r.check},     {"property", r.property}, {"configuration", r.configuration},
              {"outcome", r.outcome}, {"result", r.result},     {"depth", r.depth},
              {"clause", r.clause},   {"trace", r.trace},       {"note", r.note},
              {"seconds", r.seconds}, {"expect_counterexample", r.expect_counterexample},
              {"passed", r.passed}};
}

RowResult row_from(const json& j) {
  RowResult r;
  r.check = j.at("check").get<uint32_t>();
  r.property = j.at("property").get<std::string>();
  r.configuration = j.at("configuration").get<std::string>();
  r.outcome = j.at("outcome").get<std::string>();
  r.result = j.at("result").get<std::string>();
  r.depth = j.value("depth", 0u);
  r.clause = j.value("clause", "");
  r.trace = j.value("trace", "");
  r.note = j.value("note", "");
  r.seconds = j.value("seconds", 0.0);
  r.expect_counterexample = j.value("expect_counterexample", false);
  r.passed = j.at("passed").get<bool>();
  return r;
}

std::string shown_result(const RowResult& r) {
  std::string s = r.result;
  if (r.expect_counterexample) s += r.passed ? " caught" : " NOT CAUGHT";
  else if (!r.passed) s += "  FAILED";
  return s;
}

}  // namespace

RowResult to_result(uint32_t check, const Row& row) {
  RowResult r;
  r.check = check;
  r.property = row.property;
  r.configuration = row.configuration;
  r.outcome = outcome_name(row.verdict.outcome);
  r.result = outcome_text(row.verdict);
  r.depth = row.verdict.depth;
  r.clause = row.verdict.clause;
  r.trace = row.verdict.trace;
  r.note = row.verdict.note;
  r.seconds = row.verdict.seconds;
  r.expect_counterexample = row.expect_counterexample;
  r.passed = row_passes(row);
  return r;
}

RowResult error_result(uint32_t check, const Check& c, const std::string& why) {
  RowResult r;
  r.check = check;
  r.property = c.property;
  r.configuration = c.configuration;
  r.outcome = "ERROR";
  r.result = "ERROR";
  r.note = why;
  r.passed = false;
  return r;
}

std::string to_json(const VerifyResults& results) {
  json rows = json::array();
  size_t failures = 0;
  for (const RowResult& r : results.rows) {
    rows.push_back(row_json(r));
    failures += !r.passed;
  }
  const json doc{{"format", "rocref-verify-results-1"}, {"checks", results.checks},
                 {"wall_seconds", results.wall_seconds}, {"failures", failures}, {"rows", rows}};
  return doc.dump(2) + "\n";
}

VerifyResults from_json(const std::string& text) {
  try {
    const json doc = json::parse(text);
    if (doc.value("format", "") != "rocref-verify-results-1") throw std::runtime_error("not a rocref verify result");
    VerifyResults out;
    out.checks = doc.value("checks", 0u);
    out.wall_seconds = doc.value("wall_seconds", 0.0);
    for (const json& r : doc.at("rows")) out.rows.push_back(row_from(r));
    return out;
  } catch (const json::exception& e) {
    throw std::runtime_error(e.what());
  }
}

VerifyResults merge(const std::vector<VerifyResults>& parts) {
  VerifyResults out;
  std::map<uint32_t, size_t> owner;  // check id -> part that reported it
  for (size_t p = 0; p < parts.size(); ++p) {
    std::map<uint32_t, bool> seen_here;
    for (const RowResult& r : parts[p].rows) {
      auto [it, fresh] = owner.emplace(r.check, p);
      if (!fresh && it->second != p) {
        throw std::runtime_error("check " + std::to_string(r.check) + " is in two inputs (" +
                                 std::to_string(it->second + 1) + " and " + std::to_string(p + 1) + ")");
      }
      out.rows.push_back(r);
    }
    out.checks += parts[p].checks;
    out.wall_seconds = std::max(out.wall_seconds, parts[p].wall_seconds);  // the runs were concurrent
  }
  std::stable_sort(out.rows.begin(), out.rows.end(),
                   [](const RowResult& a, const RowResult& b) { return a.check < b.check; });
  return out;
}

void write_junit(std::ostream& out, const VerifyResults& results) {
  std::vector<cli::JunitCase> cases;
  for (const RowResult& r : results.rows) {
    cli::JunitCase c;
    c.classname = "verify." + r.property;
    c.name = r.configuration + " [check " + std::to_string(r.check) + "]";
    c.seconds = r.seconds;
    c.failed = !r.passed;
    c.message = shown_result(r);
    c.detail = r.note + (r.note.empty() ? "" : "\n") + r.trace;
    cases.push_back(std::move(c));
  }
  cli::write_junit(out, "rocref verify", cases);
}

int print_table(std::ostream& out, const VerifyResults& results, bool traces) {
  int failures = 0;
  char line[512];
  std::snprintf(line, sizeof line, "%-62s %-46s %-44s %8s\n", "property", "configuration", "result", "time");
  out << line << std::string(163, '-') << "\n";
  for (const RowResult& r : results.rows) {
    failures += !r.passed;
    std::snprintf(line, sizeof line, "%-62.62s %-46.46s %-44.44s %7.1fs\n", r.property.c_str(), r.configuration.c_str(),
                  shown_result(r).c_str(), r.seconds);
    out << line;
  }
  std::snprintf(line, sizeof line, "%zu rows from %u checks, %d failing, %.1f s wall\n", results.rows.size(),
                results.checks, failures, results.wall_seconds);
  out << std::string(163, '-') << "\n" << line;
  if (traces) {
    for (const RowResult& r : results.rows) {
      if (!r.trace.empty()) out << "\n" << r.property << " / " << r.configuration << ":\n" << r.trace;
    }
  }
  if (failures) {
    out << "\nfailing rows:\n";
    for (const RowResult& r : results.rows) {
      if (!r.passed) out << r.property << " / " << r.configuration << ": " << r.result << " " << r.note << "\n" << r.trace;
    }
  }
  return failures;
}

std::string list_json(const std::vector<Check>& checks) {
  json out = json::array();
  for (size_t i = 0; i < checks.size(); ++i) {
    out.push_back(json{{"id", i + 1}, {"property", checks[i].property}, {"configuration", checks[i].configuration}});
  }
  return out.dump(2) + "\n";
}

}  // namespace rocref::proofs
