// cli/junit_xml.h - JUnit XML for the tool's machine-readable results (`verify --junit`, `conform --junit`).
//
// Written by hand: the format is three elements and one escaping rule, and Debian's XML
// libraries (libxml2, tinyxml2) would add a link dependency to the tool for that.
#pragma once

#include <cstdio>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

namespace rocref::cli {

struct JunitCase {
  std::string classname;
  std::string name;
  double seconds = 0;
  bool failed = false;
  bool skipped = false;
  std::string message;  // failure or skip reason (attribute)
  std::string detail;   // failure body, e.g. a counterexample trace
};

inline std::string xml_escape(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (const char c : s) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&apos;"; break;
      default:
        // XML 1.0 allows no control characters but tab, newline and carriage return.
        if (static_cast<unsigned char>(c) < 0x20 && c != '\t' && c != '\n' && c != '\r') out += '?';
        else out += c;
    }
  }
  return out;
}

inline void write_junit(std::ostream& out, std::string_view suite, const std::vector<JunitCase>& cases) {
  size_t failures = 0, skipped = 0;
  double total = 0;
  for (const JunitCase& c : cases) {
    failures += c.failed;
    skipped += c.skipped;
    total += c.seconds;
  }
  char time[32];
  std::snprintf(time, sizeof time, "%.3f", total);
  out << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites>\n  <testsuite name=\"" << xml_escape(suite)
      << "\" tests=\"" << cases.size() << "\" failures=\"" << failures << "\" errors=\"0\" skipped=\"" << skipped
      << "\" time=\"" << time << "\">\n";
  for (const JunitCase& c : cases) {
    std::snprintf(time, sizeof time, "%.3f", c.seconds);
    out << "    <testcase classname=\"" << xml_escape(c.classname) << "\" name=\"" << xml_escape(c.name) << "\" time=\""
        << time << "\"";
    if (!c.failed && !c.skipped) {
      out << "/>\n";
      continue;
    }
    out << ">\n";
    if (c.failed) {
      out << "      <failure message=\"" << xml_escape(c.message) << "\">" << xml_escape(c.detail) << "</failure>\n";
    } else {
      out << "      <skipped message=\"" << xml_escape(c.message) << "\"/>\n";
    }
    out << "    </testcase>\n";
  }
  out << "  </testsuite>\n</testsuites>\n";
}

}  // namespace rocref::cli
