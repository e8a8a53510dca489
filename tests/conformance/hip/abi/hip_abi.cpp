// tests/conformance/hip/abi/hip_abi.cpp - see hip_abi.h.
#include "hip_abi.h"

#include <dlfcn.h>

#include <cctype>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <sstream>
#include <vector>

namespace rocref_hip_abi {

std::string read_file(const std::string& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

static bool ident(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

// Names of the functions declared (not defined) as `hipError_t NAME(...);`,
// skipping inline and template definitions.
std::set<std::string> declared_functions(const std::string& text) {
  std::set<std::string> names;
  const std::string key = "hipError_t";
  for (size_t at = text.find(key); at != std::string::npos; at = text.find(key, at + key.size())) {
    if (at > 0 && ident(text[at - 1])) continue;
    size_t i = at + key.size();
    while (i < text.size() && std::isspace(static_cast<unsigned char>(text[i]))) ++i;
    const size_t name_start = i;
    while (i < text.size() && ident(text[i])) ++i;
    if (i == name_start) continue;
    const std::string name = text.substr(name_start, i - name_start);
    while (i < text.size() && std::isspace(static_cast<unsigned char>(text[i]))) ++i;
    if (i >= text.size() || text[i] != '(') continue;
    // The statement so far: a definition's inline/static/template keywords come before it.
    size_t stmt = text.find_last_of(";{}", at);
    stmt = stmt == std::string::npos ? 0 : stmt + 1;
    const std::string head = text.substr(stmt, at - stmt);
    if (head.find("inline") != std::string::npos || head.find("template") != std::string::npos ||
        head.find("static") != std::string::npos) {
      continue;
    }
    int depth = 0;
    for (; i < text.size(); ++i) {
      if (text[i] == '(') ++depth;
      if (text[i] == ')' && --depth == 0) break;
    }
    ++i;
    // Attributes between the parameters and the ';' (deprecation notes).
    while (i < text.size()) {
      while (i < text.size() && std::isspace(static_cast<unsigned char>(text[i]))) ++i;
      if (text.compare(i, 13, "__attribute__") != 0) break;
      i += 13;
      int d = 0;
      for (; i < text.size(); ++i) {
        if (text[i] == '(') ++d;
        if (text[i] == ')' && --d == 0) break;
      }
      ++i;
    }
    if (i < text.size() && text[i] == ';') names.insert(name);
  }
  return names;
}

// Exported names, demangled and without parameter lists or versions.
std::set<std::string> exported_names(const std::string& library, const std::string& from_file) {
  std::set<std::string> names;
  std::string line;
  if (!from_file.empty()) {
    std::ifstream in(from_file);
    while (std::getline(in, line)) {
      if (!line.empty()) names.insert(line);
    }
    return names;
  }
  const std::string command = "nm -D --defined-only -C '" + library + "'";
  FILE* pipe = popen(command.c_str(), "r");
  if (pipe == nullptr) return names;
  char buffer[4096];
  while (std::fgets(buffer, sizeof buffer, pipe) != nullptr) {
    std::istringstream fields(buffer);
    std::string address, type, rest;
    fields >> address >> type;
    std::getline(fields, rest);
    rest.erase(0, rest.find_first_not_of(' '));
    rest = rest.substr(0, rest.find_first_of("(@\n"));
    if (!rest.empty()) names.insert(rest);
  }
  pclose(pipe);
  return names;
}

// objdump -T lines: address, flags, section, size, version, name (a non-default version in parentheses).
std::map<std::string, std::string> symbol_versions(const std::string& library) {
  std::map<std::string, std::string> versions;
  const std::string command = "objdump -T '" + library + "'";
  FILE* pipe = popen(command.c_str(), "r");
  if (pipe == nullptr) return versions;
  char buffer[4096];
  while (std::fgets(buffer, sizeof buffer, pipe) != nullptr) {
    const std::string line = buffer;
    if (line.find("*UND*") != std::string::npos ||
        line.find(" DF ") == std::string::npos && line.find(" DO ") == std::string::npos) {
      continue;
    }
    std::istringstream fields(line);
    std::vector<std::string> tokens;
    for (std::string t; fields >> t;) tokens.push_back(t);
    if (tokens.size() < 6) continue;
    std::string version = tokens[tokens.size() - 2];
    if (version.size() > 2 && version.front() == '(') version = version.substr(1, version.size() - 2);
    const bool size_column = version.size() == 16 && version.find_first_not_of("0123456789abcdef") == std::string::npos;
    if (version == "Base" || size_column) version.clear();  // no version node
    versions[tokens.back()] = version;
  }
  pclose(pipe);
  return versions;
}

// readelf -V's version definitions: "Name: hip_4.3" then "Parent 1: hip_4.2" lines.
std::map<std::string, std::string> version_nodes(const std::string& library) {
  std::map<std::string, std::string> nodes;
  const std::string command = "readelf -V -W '" + library + "'";
  FILE* pipe = popen(command.c_str(), "r");
  if (pipe == nullptr) return nodes;
  char buffer[4096];
  std::string last;
  bool definitions = false;
  while (std::fgets(buffer, sizeof buffer, pipe) != nullptr) {
    const std::string line = buffer;
    if (line.find("Version definition section") != std::string::npos) definitions = true;
    if (line.find("Version needs section") != std::string::npos) definitions = false;
    if (!definitions) continue;
    const bool base = line.find("Flags: BASE") != std::string::npos;
    if (size_t at = line.find("Name: "); at != std::string::npos && !base) {
      std::istringstream(line.substr(at + 6)) >> last;
      nodes[last] = "";
    } else if (size_t p = line.find("Parent 1: "); p != std::string::npos && !last.empty()) {
      std::istringstream(line.substr(p + 10)) >> nodes[last];
    }
  }
  pclose(pipe);
  return nodes;
}

std::set<std::string> version_differences(const std::map<std::string, std::string>& ours,
                                          const std::map<std::string, std::string>& theirs) {
  std::set<std::string> differences;
  for (const auto& [name, version] : ours) {
    auto it = theirs.find(name);
    if (it != theirs.end() && it->second != version) {
      differences.insert(name + ": " + (version.empty() ? "(none)" : version) + " vs " + it->second);
    }
  }
  return differences;
}

// The first column of the table under "## Not supported" in spec/hip.md.
std::set<std::string> spec_not_supported(const std::string& spec) {
  std::set<std::string> names;
  const size_t section = spec.find("\n## Not supported");
  if (section == std::string::npos) return names;
  const size_t end = spec.find("\n## ", section + 1);
  std::istringstream lines(spec.substr(section, end == std::string::npos ? std::string::npos : end - section));
  std::string line;
  while (std::getline(lines, line)) {
    if (line.rfind("| hip", 0) != 0 && line.rfind("| __hip", 0) != 0) continue;
    const size_t bar = line.find('|', 2);
    std::string name = line.substr(2, bar - 2);
    name.erase(name.find_last_not_of(' ') + 1);
    names.insert(name);
  }
  return names;
}

std::set<std::string> library_not_supported(const std::string& library) {
  std::set<std::string> names;
  void* handle = dlopen(library.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (handle == nullptr) {
    std::cerr << "cannot load " << library << ": " << dlerror() << "\n";
    return names;
  }
  using List = const char* const* (*)();
  auto list = reinterpret_cast<List>(dlsym(handle, "rocref_hip_not_supported"));
  if (list != nullptr) {
    for (const char* const* n = list(); *n != nullptr; ++n) names.insert(*n);
  }
  return names;  // the handle stays open: the names live in the library
}

}  // namespace rocref_hip_abi


namespace rocref_hip_abi {

Report compare(const std::set<std::string>& declared, const std::set<std::string>& exported,
               const std::set<std::string>& not_supported, const std::set<std::string>& listed) {
  Report r;
  r.declared = declared.size();
  for (const std::string& name : declared) {
    if (exported.count(name) == 0) {
      r.missing_names.insert(name);
    } else if (not_supported.count(name) != 0) {
      ++r.not_supported;
    } else {
      ++r.implemented;
    }
  }
  r.missing = r.missing_names.size();
  for (const std::string& name : not_supported) {
    if (listed.count(name) == 0) r.unlisted.insert(name);
  }
  for (const std::string& name : listed) {
    if (not_supported.count(name) == 0) r.stale.insert(name);
  }
  return r;
}

}  // namespace rocref_hip_abi
