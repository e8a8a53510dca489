// tests/conformance/matrix/matrix.cpp - builds and prints the conformance matrix (CONF-*).
#include "matrix.h"

#include <algorithm>
#include <map>
#include <regex>
#include <sstream>

namespace rocref::conform {
namespace {

std::vector<std::string> split_tabs(std::string_view line) {
  std::vector<std::string> out;
  size_t start = 0;
  while (true) {
    const size_t tab = line.find('\t', start);
    out.emplace_back(line.substr(start, tab == std::string_view::npos ? std::string_view::npos : tab - start));
    if (tab == std::string_view::npos) break;
    start = tab + 1;
  }
  return out;
}

// GoogleTest messages start with "file:line\n"; the reason is the rest, on one line.
std::string reason_of(const std::string& message) {
  std::string m = message;
  const size_t nl = m.find('\n');
  if (nl != std::string::npos && m.substr(0, nl).find(':') != std::string::npos) m = m.substr(nl + 1);
  for (char& ch : m) {
    if (ch == '\n') ch = ' ';
  }
  return m.size() > 200 ? m.substr(0, 200) + "..." : m;
}

std::string cell_text(const Cell& c) {
  std::string s = c.outcome == Outcome::Fail ? "FAIL" : outcome_name(c.outcome);
  if (c.deviation) s += c.expected_line != 0 ? " ~" : " !";
  return s;
}

}  // namespace

std::optional<std::vector<ExpectedDeviation>> parse_deviations(std::string_view tsv, std::string* error) {
  std::vector<ExpectedDeviation> rows;
  std::istringstream in{std::string(tsv)};
  std::string line;
  int number = 0;
  while (std::getline(in, line)) {
    ++number;
    if (line.empty() || line[0] == '#' || line.find_first_not_of(" \t") == std::string::npos) continue;
    const auto f = split_tabs(line);
    if (f.size() != 5 || f[0].empty() || f[1].empty() || f[3].empty() || f[4].empty()) {
      if (error) *error = "line " + std::to_string(number) + ": want 5 tab-separated fields (impl, test, outcome, clause, reason)";
      return std::nullopt;
    }
    ExpectedDeviation d;
    d.implementation = f[0];
    d.test_glob = f[1];
    if (f[2] != "any") {
      d.outcome = outcome_from_name(f[2]);
      if (!d.outcome) {
        if (error) *error = "line " + std::to_string(number) + ": unknown outcome '" + f[2] + "'";
        return std::nullopt;
      }
    }
    d.clause = f[3];
    d.reason = f[4];
    d.line = number;
    rows.push_back(std::move(d));
  }
  return rows;
}

bool glob_match(std::string_view p, std::string_view t) noexcept {
  size_t pi = 0, ti = 0, star = std::string_view::npos, mark = 0;
  while (ti < t.size()) {
    if (pi < p.size() && (p[pi] == t[ti] || p[pi] == '?')) {
      ++pi;
      ++ti;
    } else if (pi < p.size() && p[pi] == '*') {
      star = pi++;
      mark = ti;
    } else if (star != std::string_view::npos) {
      pi = star + 1;
      ti = ++mark;
    } else {
      return false;
    }
  }
  while (pi < p.size() && p[pi] == '*') ++pi;
  return pi == p.size();
}

std::vector<std::string> clauses_of(std::string_view test_name) {
  static const std::regex kName(R"((?:^|_)([A-Z][A-Z0-9]*)_([A-Z][A-Z0-9]*)_([0-9]+)(?=_|$))");
  std::vector<std::string> out;
  const std::string s(test_name);
  for (auto it = std::sregex_iterator(s.begin(), s.end(), kName); it != std::sregex_iterator(); ++it) {
    out.push_back((*it)[1].str() + "-" + (*it)[2].str() + "-" + (*it)[3].str());
  }
  return out;
}

Matrix build_matrix(const std::vector<Column>& columns, const std::vector<ExpectedDeviation>& expected) {
  Matrix m;
  m.counts.resize(columns.size());
  std::map<std::string, std::vector<const TestResult*>> by_test;  // test -> result per column
  for (size_t c = 0; c < columns.size(); ++c) {
    m.columns.push_back(columns[c].name);
    if (!columns[c].error.empty()) m.column_errors.push_back(columns[c].name + ": " + columns[c].error);
    for (const TestResult& r : columns[c].results) {
      auto& slot = by_test[r.full_name()];
      slot.resize(columns.size(), nullptr);
      slot[c] = &r;
    }
  }
  std::vector<bool> used(expected.size(), false);
  for (auto& [test, results] : by_test) {
    results.resize(columns.size(), nullptr);
    Row row;
    row.test = test;
    const std::string name = test.substr(test.find('.') + 1);
    const auto clauses = clauses_of(name);
    row.group = clauses.empty() ? test.substr(0, test.find('.')) + " (no clause)" : clauses.front();
    for (size_t c = 0; c < columns.size(); ++c) {
      Cell cell;
      if (results[c] != nullptr) {
        cell.outcome = results[c]->outcome;
        cell.message = results[c]->message;
      }
      const Outcome reference = results[0] != nullptr ? results[0]->outcome : Outcome::Missing;
      // CONF-DEV-1: a difference from the reference, or the reference's own failure.
      cell.deviation = c == 0 ? cell.outcome == Outcome::Fail : cell.outcome != reference;
      if (cell.deviation) {
        for (size_t e = 0; e < expected.size(); ++e) {
          const ExpectedDeviation& d = expected[e];
          if (glob_match(d.implementation, columns[c].name) && glob_match(d.test_glob, test) &&
              (!d.outcome || *d.outcome == cell.outcome)) {
            cell.expected_line = d.line;
            used[e] = true;
            break;
          }
        }
        ++m.counts[c].deviations;
        if (cell.expected_line == 0) {
          m.unexpected.push_back(columns[c].name + " " + test + ": " + outcome_name(cell.outcome) +
                                 " (reference: " + outcome_name(reference) + ")" +
                                 (cell.message.empty() ? "" : " - " + reason_of(cell.message)));
        }
      }
      Counts& k = m.counts[c];
      switch (cell.outcome) {
        case Outcome::Pass: ++k.pass; break;
        case Outcome::Fail: ++k.fail; break;
        case Outcome::Skip: ++k.skip; break;
        case Outcome::Missing: ++k.missing; break;
      }
      row.cells.push_back(std::move(cell));
    }
    m.rows.push_back(std::move(row));
  }
  std::stable_sort(m.rows.begin(), m.rows.end(),
                   [](const Row& a, const Row& b) { return std::tie(a.group, a.test) < std::tie(b.group, b.test); });
  for (size_t e = 0; e < expected.size(); ++e) {
    if (!used[e]) {
      m.unused_expectations.push_back("line " + std::to_string(expected[e].line) + ": " + expected[e].implementation +
                                      " " + expected[e].test_glob + " (" + expected[e].clause + ")");
    }
  }
  return m;
}

std::string render_text(const Matrix& m, const std::vector<ExpectedDeviation>& expected) {
  size_t width = 24;
  for (const Row& r : m.rows) width = std::max(width, r.test.size() + 4);
  std::ostringstream out;
  auto pad = [](std::string s, size_t n) {
    if (s.size() < n) s.append(n - s.size(), ' ');
    return s;
  };
  out << pad("clause / test", width);
  size_t cw = 14;
  for (const auto& c : m.columns) cw = std::max(cw, c.size() + 2);
  for (const auto& c : m.columns) out << pad(c, cw);
  out << "\n";
  std::string group;
  std::vector<std::string> notes;
  for (const Row& r : m.rows) {
    if (r.group != group) {
      group = r.group;
      out << group << "\n";
    }
    out << pad("  " + r.test, width);
    for (size_t c = 0; c < r.cells.size(); ++c) {
      const Cell& cell = r.cells[c];
      std::string text = cell_text(cell);
      if ((cell.outcome == Outcome::Skip || cell.deviation) && (!cell.message.empty() || cell.expected_line != 0)) {
        notes.push_back("[" + std::to_string(notes.size() + 1) + "] " + m.columns[c] + " " + r.test + ": " +
                        (cell.message.empty() ? std::string(outcome_name(cell.outcome)) : reason_of(cell.message)));
        for (const auto& d : expected) {
          if (d.line == cell.expected_line && cell.expected_line != 0) {
            notes.back() += "\n      expected (" + d.clause + "): " + d.reason;
          }
        }
        text += " [" + std::to_string(notes.size()) + "]";
      }
      out << pad(text, cw);
    }
    out << "\n";
  }
  out << "\ntotals\n";
  for (size_t c = 0; c < m.columns.size(); ++c) {
    const Counts& k = m.counts[c];
    out << "  " << pad(m.columns[c], cw) << "pass " << k.pass << "  fail " << k.fail << "  skip " << k.skip
        << "  missing " << k.missing << "  deviations " << k.deviations << "\n";
  }
  if (!notes.empty()) {
    out << "\nnotes (~ expected deviation, ! unexpected)\n";
    for (const auto& n : notes) out << "  " << n << "\n";
  }
  for (const auto& e : m.column_errors) out << "\ncolumn error: " << e << "\n";
  if (!m.unused_expectations.empty()) {
    out << "\nexpected deviations not observed (stale rows?)\n";
    for (const auto& u : m.unused_expectations) out << "  " << u << "\n";
  }
  out << "\n" << m.unexpected.size() << " unexpected deviation(s)\n";
  for (const auto& u : m.unexpected) out << "  " << u << "\n";
  return out.str();
}

}  // namespace rocref::conform
