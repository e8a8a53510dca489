// tests/conformance/hip/abi/hip_abi.h - reading HIP 5.2.3's declarations, a library's exports and spec/hip.md's NotSupported list.
#pragma once

#include <map>
#include <set>
#include <string>

namespace rocref_hip_abi {

std::string read_file(const std::string& path);
// Names of the functions declared (not defined) as `hipError_t NAME(...);`, skipping inline and template definitions.
std::set<std::string> declared_functions(const std::string& text);
// Exported names (nm -D, demangled, no parameter lists or versions), or the lines of `from_file` when given.
std::set<std::string> exported_names(const std::string& library, const std::string& from_file);
// The first column of the table under "## Not supported" in spec/hip.md.
std::set<std::string> spec_not_supported(const std::string& spec);
// The names the library's rocref_hip_not_supported() lists.
std::set<std::string> library_not_supported(const std::string& library);

// Each defined dynamic symbol (mangled, as the loader binds it) -> the version node it is
// exported in ("" when the library defines no versions), read with objdump -T.
std::map<std::string, std::string> symbol_versions(const std::string& library);
// The library's version nodes (its soname's base definition left out) -> the node each inherits ("" for none).
std::map<std::string, std::string> version_nodes(const std::string& library);
// The symbols both maps have whose versions differ, as "name: ours vs theirs" (HIP-ABI-4).
std::set<std::string> version_differences(const std::map<std::string, std::string>& ours,
                                          const std::map<std::string, std::string>& theirs);

struct Report {
  size_t declared = 0, implemented = 0, not_supported = 0, missing = 0;
  std::set<std::string> missing_names;
  std::set<std::string> unlisted;  // NotSupported in the library, not in the spec
  std::set<std::string> stale;     // in the spec, implemented by the library
};
Report compare(const std::set<std::string>& declared, const std::set<std::string>& exported,
               const std::set<std::string>& not_supported, const std::set<std::string>& listed);

}  // namespace rocref_hip_abi
