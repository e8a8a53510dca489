// thunk/key_values.cpp - parser for the "name value" lines of KFD sysfs property files.
#include "thunk/key_values.h"

#include <cctype>
#include <charconv>

namespace rocref::thunk {

std::string_view trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return s;
}

bool parse_u64(std::string_view text, uint64_t* value) {
  text = trim(text);
  if (text.empty()) return false;
  uint64_t v = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (ec != std::errc() || end != text.data() + text.size()) return false;
  *value = v;
  return true;
}

KeyValues KeyValues::parse(std::string_view text) {
  KeyValues kv;
  while (!text.empty()) {
    const size_t eol = text.find('\n');
    std::string_view line = trim(text.substr(0, eol));
    text = eol == std::string_view::npos ? std::string_view{} : text.substr(eol + 1);
    if (line.empty()) continue;  // sscanf("%s ...") skips blank lines too
    const size_t space = line.find_first_of(" \t");
    if (space == std::string_view::npos) break;
    const std::string_view key = line.substr(0, space);
    uint64_t value = 0;
    if (!parse_u64(line.substr(space + 1), &value)) break;
    kv.values_.insert_or_assign(std::string(key), value);
  }
  return kv;
}

uint64_t KeyValues::get(std::string_view key, uint64_t fallback) const {
  const auto it = values_.find(std::string(key));
  return it == values_.end() ? fallback : it->second;
}

bool KeyValues::has(std::string_view key) const { return values_.count(std::string(key)) != 0; }

std::vector<uint32_t> parse_sibling_map(std::string_view text, size_t max) {
  std::vector<uint32_t> out;
  const size_t at = text.find("sibling_map");
  if (at == std::string_view::npos) return out;
  std::string_view rest = text.substr(at + 11);
  const size_t eol = rest.find('\n');
  rest = trim(rest.substr(0, eol));
  while (!rest.empty() && out.size() < max) {
    const size_t comma = rest.find(',');
    uint64_t v = 0;
    if (!parse_u64(rest.substr(0, comma), &v) || v > UINT32_MAX) break;
    out.push_back(static_cast<uint32_t>(v));
    if (comma == std::string_view::npos) break;
    rest = rest.substr(comma + 1);
  }
  return out;
}

}  // namespace rocref::thunk
