// tests/conformance/matrix/ci_report.cpp - JUnit XML per implementation and the Markdown matrix.
#include "ci_report.h"

#include <sstream>

#include "cli/junit_xml.h"

namespace rocref::conform {
namespace {

const ExpectedDeviation* explanation(const Cell& cell, const std::vector<ExpectedDeviation>& expected) {
  for (const auto& d : expected) {
    if (cell.expected_line != 0 && d.line == cell.expected_line) return &d;
  }
  return nullptr;
}

std::string one_line(std::string s, size_t max) {
  for (char& ch : s) {
    if (ch == '\n' || ch == '\r') ch = ' ';
  }
  return s.size() > max ? s.substr(0, max) + "..." : s;
}

// Markdown text from test output: a '|' would end a table cell, '<' would open an HTML tag.
std::string md(std::string s, size_t max = 300) {
  std::string out;
  for (const char ch : one_line(std::move(s), max)) {
    if (ch == '|') out += "\\|";
    else if (ch == '<') out += "&lt;";
    else if (ch == '>') out += "&gt;";
    else out += ch;
  }
  return out;
}

}  // namespace

std::string junit_for_column(const Matrix& m, size_t c, const std::vector<ExpectedDeviation>& expected) {
  std::vector<cli::JunitCase> cases;
  const std::string& impl = m.columns.at(c);
  for (const std::string& e : m.column_errors) {
    if (e.rfind(impl + ": ", 0) == 0) {
      cases.push_back(cli::JunitCase{impl, "suite runs", 0, true, false, "column error", e});
    }
  }
  for (const Row& r : m.rows) {
    const Cell& cell = r.cells.at(c);
    const size_t dot = r.test.find('.');
    cli::JunitCase k;
    k.classname = impl + "." + r.group;
    k.name = dot == std::string::npos ? r.test : r.test.substr(dot + 1);
    const std::string outcome = outcome_name(cell.outcome);
    if (cell.deviation && cell.expected_line == 0) {
      k.failed = true;
      k.message = outcome + ", unexpected deviation from " + m.columns.front();
      k.detail = cell.message;
    } else if (cell.deviation) {
      k.skipped = true;
      const ExpectedDeviation* d = explanation(cell, expected);
      k.message = outcome + ", expected deviation" + (d ? " (" + d->clause + "): " + d->reason : std::string());
    } else if (cell.outcome != Outcome::Pass) {
      k.skipped = true;  // the same outcome as the reference: not this implementation's failure
      k.message = outcome + (cell.message.empty() ? "" : ": " + one_line(cell.message, 300));
    }
    cases.push_back(std::move(k));
  }
  std::ostringstream out;
  cli::write_junit(out, "rocref conform " + impl, cases);
  return out.str();
}

std::string render_markdown(const Matrix& m, const std::vector<ExpectedDeviation>& expected) {
  std::ostringstream out;
  out << "# Conformance matrix\n\nReference: `" << m.columns.front() << "`. `~` expected deviation, `!` unexpected.\n\n";
  out << "| implementation | pass | fail | skip | missing | deviations |\n| --- | --- | --- | --- | --- | --- |\n";
  for (size_t c = 0; c < m.columns.size(); ++c) {
    const Counts& k = m.counts[c];
    out << "| " << md(m.columns[c]) << " | " << k.pass << " | " << k.fail << " | " << k.skip << " | " << k.missing
        << " | " << k.deviations << " |\n";
  }
  out << "\n| clause | test |";
  for (const auto& c : m.columns) out << " " << md(c) << " |";
  out << "\n| --- | --- |";
  for (size_t c = 0; c < m.columns.size(); ++c) out << " --- |";
  out << "\n";
  std::vector<std::string> notes;
  std::string group;
  for (const Row& r : m.rows) {
    out << "| " << (r.group == group ? "" : md(r.group)) << " | `" << md(r.test) << "` |";
    group = r.group;
    for (size_t c = 0; c < r.cells.size(); ++c) {
      const Cell& cell = r.cells[c];
      std::string text = cell.outcome == Outcome::Fail ? "**FAIL**" : outcome_name(cell.outcome);
      if (cell.deviation) text += cell.expected_line != 0 ? " ~" : " **!**";
      if ((cell.outcome == Outcome::Skip || cell.deviation) && (!cell.message.empty() || cell.expected_line != 0)) {
        std::string note = md(m.columns[c]) + " `" + r.test + "`: " +
                           md(cell.message.empty() ? outcome_name(cell.outcome) : cell.message);
        if (const ExpectedDeviation* d = explanation(cell, expected)) note += " (expected, " + d->clause + ": " + md(d->reason) + ")";
        notes.push_back(note);
        text += " [" + std::to_string(notes.size()) + "]";
      }
      out << " " << text << " |";
    }
    out << "\n";
  }
  if (!notes.empty()) {
    out << "\n## Notes\n\n";
    for (size_t i = 0; i < notes.size(); ++i) out << i + 1 << ". " << notes[i] << "\n";
  }
  if (!m.column_errors.empty()) {
    out << "\n## Column errors\n\n";
    for (const auto& e : m.column_errors) out << "- " << md(e, 500) << "\n";
  }
  if (!m.unused_expectations.empty()) {
    out << "\n## Expected deviations not observed\n\n";
    for (const auto& u : m.unused_expectations) out << "- " << u << "\n";
  }
  out << "\n## " << m.unexpected.size() << " unexpected deviation(s)\n\n";
  for (const auto& u : m.unexpected) out << "- " << md(u, 500) << "\n";
  return out.str();
}

}  // namespace rocref::conform
