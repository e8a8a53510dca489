// hip/hiprtc_program.h - one hiprtc program: its source, headers and name expressions, compiled
// to a gfx9 code object through the code object manager (libamd_comgr), as HIP 5.2.3's hiprtc
// does (HIP-RTC-1..3).
#pragma once

#include <map>
#include <string>
#include <vector>

namespace rocref::hip {

class RtcProgram {
 public:
  RtcProgram(std::string source, std::string name) : source_(std::move(source)), name_(std::move(name)) {}

  void add_header(std::string text, std::string name) { headers_.emplace_back(std::move(name), std::move(text)); }
  // HIP-RTC-3: the expression is kept, and a use of it appended to the source, so that a
  // template it names is instantiated.
  void add_name_expression(const std::string& expression);
  // False on a compilation error (the log says which); the log and code of the last compile stay.
  bool compile(const std::vector<std::string>& options);
  // The mangled name of the kernel `expression` (given to add_name_expression) names, or nullptr.
  const char* lowered_name(const std::string& expression) const;

  const std::string& log() const { return log_; }
  const std::vector<char>& code() const { return code_; }

 private:
  std::string source_;
  std::string name_;
  std::vector<std::pair<std::string, std::string>> headers_;  // name, text
  std::map<std::string, std::string> stripped_;               // expression -> without '&', parentheses, spaces
  std::map<std::string, std::string> lowered_;                // stripped expression -> mangled name
  std::string log_;
  std::vector<char> code_;
};

}  // namespace rocref::hip
