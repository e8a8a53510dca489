// tests/conformance/hip/abi/hip_abi_check.cpp - rocref's libamdhip64 against the declarations of HIP 5.2.3's hip_runtime_api.h (HIP-ABI-1, HIP-ABI-3).
//
// usage: rocref_hip_abi_check <preprocessed hip_runtime_api.h> <library> <spec/hip.md> [--exports FILE]
//
// Every hipError_t function the header declares must be exported (nm -D, or
// the names in FILE, one per line); the functions the library reports as
// NotSupported (rocref_hip_not_supported) must be exactly those spec/hip.md
// lists under "## Not supported". Prints the implemented / NotSupported /
// missing counts and the NotSupported names; exits 1 on a missing export, a list mismatch, or
// fewer than 300 functions with semantics (HIP-ABI-1).
#include <iostream>

#include "hip_abi.h"

int main(int argc, char** argv) {
  using namespace rocref_hip_abi;
  if (argc < 4) {
    std::cerr << "usage: " << argv[0] << " <preprocessed hip_runtime_api.h> <library> <spec/hip.md> [--exports FILE]\n";
    return 2;
  }
  const std::string exports_file = argc >= 6 && std::string(argv[4]) == "--exports" ? argv[5] : "";
  const std::set<std::string> not_supported = library_not_supported(argv[2]);
  const Report r = compare(declared_functions(read_file(argv[1])), exported_names(argv[2], exports_file), not_supported,
                           spec_not_supported(read_file(argv[3])));
  for (const std::string& name : r.missing_names) std::cout << "MISSING " << name << "\n";
  for (const std::string& name : r.unlisted) std::cout << "NOT IN SPEC " << name << "\n";
  for (const std::string& name : r.stale) std::cout << "NOT IN LIBRARY " << name << "\n";
  for (const std::string& name : not_supported) std::cout << "NotSupported: " << name << "\n";
  std::cout << "declared " << r.declared << ": implemented " << r.implemented << ", NotSupported " << r.not_supported
            << ", missing " << r.missing << "\n";
  const bool ok = r.missing == 0 && r.unlisted.empty() && r.stale.empty() && r.declared >= 300 &&
                  r.implemented >= 300;
  return ok ? 0 : 1;
}
