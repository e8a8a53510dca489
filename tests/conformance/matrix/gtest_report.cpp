// tests/conformance/matrix/gtest_report.cpp - a small scanner for GoogleTest's XML report.
#include "gtest_report.h"

#include <cstdlib>

namespace rocref::conform {
namespace {

std::string decode(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] != '&') {
      out += s[i];
      continue;
    }
    const size_t end = s.find(';', i);
    if (end == std::string_view::npos) {
      out += s[i];
      continue;
    }
    const std::string_view ent = s.substr(i + 1, end - i - 1);
    if (ent == "amp") out += '&';
    else if (ent == "lt") out += '<';
    else if (ent == "gt") out += '>';
    else if (ent == "quot") out += '"';
    else if (ent == "apos") out += '\'';
    else if (!ent.empty() && ent[0] == '#') {
      const long c = ent.size() > 1 && (ent[1] == 'x' || ent[1] == 'X')
                         ? std::strtol(std::string(ent.substr(2)).c_str(), nullptr, 16)
                         : std::strtol(std::string(ent.substr(1)).c_str(), nullptr, 10);
      out += (c > 0 && c < 128) ? char(c) : '?';
    } else {
      out.append(s.substr(i, end - i + 1));
    }
    i = end;
  }
  return out;
}

// Value of attribute `key` in the tag text `tag` ("" when absent).
std::string attr(std::string_view tag, std::string_view key) {
  size_t pos = 0;
  while ((pos = tag.find(key, pos)) != std::string_view::npos) {
    const bool starts = pos > 0 && (tag[pos - 1] == ' ' || tag[pos - 1] == '\n' || tag[pos - 1] == '\t');
    const size_t eq = pos + key.size();
    if (starts && eq + 1 < tag.size() && tag[eq] == '=' && tag[eq + 1] == '"') {
      const size_t close = tag.find('"', eq + 2);
      if (close == std::string_view::npos) return {};
      return decode(tag.substr(eq + 2, close - eq - 2));
    }
    pos = eq;
  }
  return {};
}

}  // namespace

const char* outcome_name(Outcome o) noexcept {
  switch (o) {
    case Outcome::Pass: return "pass";
    case Outcome::Fail: return "fail";
    case Outcome::Skip: return "skip";
    case Outcome::Missing: return "missing";
  }
  return "?";
}

std::optional<Outcome> outcome_from_name(std::string_view n) noexcept {
  if (n == "pass") return Outcome::Pass;
  if (n == "fail") return Outcome::Fail;
  if (n == "skip") return Outcome::Skip;
  if (n == "missing") return Outcome::Missing;
  return std::nullopt;
}

std::vector<std::string> parse_gtest_list(std::string_view text) {
  std::vector<std::string> tests;
  std::string suite;
  size_t pos = 0;
  while (pos < text.size()) {
    size_t end = text.find('\n', pos);
    if (end == std::string_view::npos) end = text.size();
    std::string line(text.substr(pos, end - pos));
    pos = end + 1;
    if (const size_t hash = line.find('#'); hash != std::string::npos) line.resize(hash);  // parameter comments
    while (!line.empty() && (line.back() == ' ' || line.back() == '\r')) line.pop_back();
    if (line.empty()) continue;
    if (line[0] != ' ' && line.back() == '.' && line.find(' ') == std::string::npos) {
      suite = line;
    } else if (line.rfind("  ", 0) == 0 && !suite.empty() && line.find(' ', 2) == std::string::npos) {
      tests.push_back(suite + line.substr(2));
    } else {
      suite.clear();  // "Running main() from ..." and other noise
    }
  }
  return tests;
}

std::optional<std::vector<TestResult>> parse_gtest_xml(std::string_view xml, std::string* error) {
  if (xml.find("<testsuites") == std::string_view::npos) {
    if (error) *error = "not a GoogleTest XML report (no <testsuites>)";
    return std::nullopt;
  }
  std::vector<TestResult> results;
  size_t pos = 0;
  while ((pos = xml.find("<testcase", pos)) != std::string_view::npos) {
    const size_t tag_end = xml.find('>', pos);
    if (tag_end == std::string_view::npos) {
      if (error) *error = "truncated <testcase> tag";
      return std::nullopt;
    }
    const std::string_view tag = xml.substr(pos, tag_end - pos);
    TestResult r;
    r.name = attr(tag, "name");
    r.suite = attr(tag, "classname");
    const std::string result = attr(tag, "result");
    const std::string status = attr(tag, "status");
    const bool self_closing = tag_end > 0 && xml[tag_end - 1] == '/';
    std::string_view body;
    if (!self_closing) {
      const size_t close = xml.find("</testcase>", tag_end);
      if (close == std::string_view::npos) {
        if (error) *error = "unterminated <testcase " + r.name + ">";
        return std::nullopt;
      }
      body = xml.substr(tag_end + 1, close - tag_end - 1);
    }
    if (const size_t f = body.find("<failure"); f != std::string_view::npos) {
      r.outcome = Outcome::Fail;
      r.message = attr(body.substr(f, body.find('>', f) - f), "message");
    } else if (result == "skipped" || status == "notrun" || body.find("<skipped") != std::string_view::npos) {
      r.outcome = Outcome::Skip;
      if (const size_t s = body.find("<skipped"); s != std::string_view::npos) {
        r.message = attr(body.substr(s, body.find('>', s) - s), "message");
      }
    }
    if (r.name.empty() || r.suite.empty()) {
      if (error) *error = "<testcase> without name or classname";
      return std::nullopt;
    }
    results.push_back(std::move(r));
    pos = tag_end;
  }
  return results;
}

}  // namespace rocref::conform
