// thunk/key_values.h - parser for the "name value" lines of KFD sysfs property files.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace rocref::thunk {

// Properties of one sysfs file. Parsing follows libhsakmt: "%s %llu" per line,
// stopping at the first line that does not match, so a malformed file yields the
// keys read before the damage and never more.
class KeyValues {
 public:
  static KeyValues parse(std::string_view text);

  // Value of `key`, or `fallback` when absent.
  uint64_t get(std::string_view key, uint64_t fallback = 0) const;
  bool has(std::string_view key) const;
  size_t size() const { return values_.size(); }

 private:
  std::unordered_map<std::string, uint64_t> values_;
};

// The caches' "sibling_map 1,0,1,..." line (comma-separated), up to `max` entries.
std::vector<uint32_t> parse_sibling_map(std::string_view text, size_t max);

// Parses a whole decimal number (e.g. generation_id, gpu_id); false if it is not one.
bool parse_u64(std::string_view text, uint64_t* value);
// `s` without leading and trailing white space.
std::string_view trim(std::string_view s);

}  // namespace rocref::thunk
