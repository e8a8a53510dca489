// tests/conformance/hip/abi/hip_abi_test.cpp - libamdhip64.so.5 against HIP 5.2.3's declarations (HIP-ABI-1..3).
#include <dlfcn.h>
#include <gtest/gtest.h>
#include <hip/hip_runtime.h>
#include <unistd.h>

#include <cstdio>
#include <cstring>
#include <iostream>
#include <string>

#include "hip_abi.h"

namespace {

using namespace rocref_hip_abi;

TEST(HipAbi, HIP_ABI_1_EveryDeclaredFunctionIsExportedUnderTheSoname) {
  const std::set<std::string> declared = declared_functions(read_file(ROCREF_HIP_API_PREPROCESSED));
  ASSERT_GE(declared.size(), 357u);  // HIP 5.2.3's count without the _spt forms
  const Report r = compare(declared, exported_names(ROCREF_HIP_LIBRARY, ""), library_not_supported(ROCREF_HIP_LIBRARY),
                           spec_not_supported(read_file(ROCREF_HIP_SPEC)));
  std::cout << "declared " << r.declared << ": implemented " << r.implemented << ", NotSupported " << r.not_supported
            << ", missing " << r.missing << "\n";
  for (const std::string& name : r.missing_names) ADD_FAILURE() << "not exported: " << name;
  EXPECT_GE(r.implemented, 300u);  // functions with HIP 5.2.3's semantics, not hipErrorNotSupported
  void* handle = dlopen(ROCREF_HIP_LIBRARY, RTLD_NOW | RTLD_LOCAL);
  ASSERT_NE(handle, nullptr) << dlerror();
  // The soname programs linked against Debian's libamdhip64-5 ask for.
  EXPECT_NE(std::string(ROCREF_HIP_LIBRARY).find("libamdhip64.so"), std::string::npos);
}

TEST(HipAbi, HIP_ABI_1_CheckCatchesAMissingExport) {
  const std::set<std::string> declared = declared_functions(read_file(ROCREF_HIP_API_PREPROCESSED));
  std::set<std::string> exported = exported_names(ROCREF_HIP_LIBRARY, "");
  ASSERT_EQ(exported.erase("hipMemcpy2D"), 1u);
  const Report r = compare(declared, exported, {}, {});
  EXPECT_EQ(r.missing, 1u);
  EXPECT_EQ(r.missing_names.count("hipMemcpy2D"), 1u);
}

TEST(HipAbi, HIP_ABI_2_PropertiesFillExactlyTheStruct) {
  // A canary after hipDeviceProp_t: a layout larger than HIP 5.2.3's would overwrite it.
  struct {
    hipDeviceProp_t prop;
    unsigned char canary[64];
  } buffer;
  std::memset(&buffer, 0xA5, sizeof buffer);
  ASSERT_EQ(hipSuccess, hipGetDeviceProperties(&buffer.prop, 0));
  for (unsigned char c : buffer.canary) ASSERT_EQ(c, 0xA5);
  EXPECT_EQ(sizeof(hipDeviceProp_t), 792u);
  EXPECT_GT(std::strlen(buffer.prop.gcnArchName), 0u);
}

TEST(HipAbi, HIP_ABI_3_NotSupportedListMatchesTheSpec) {
  const std::set<std::string> in_library = library_not_supported(ROCREF_HIP_LIBRARY);
  const std::set<std::string> in_spec = spec_not_supported(read_file(ROCREF_HIP_SPEC));
  ASSERT_FALSE(in_spec.empty());
  EXPECT_EQ(in_library, in_spec);
  // And each listed function really answers hipErrorNotSupported.
  EXPECT_EQ(hipErrorNotSupported, hipIpcCloseMemHandle(nullptr));
  EXPECT_EQ(hipErrorNotSupported, hipGetLastError());
}

// HIP-ABI-4: the version nodes of Debian's libamdhip64.so.5 and the node of every symbol both export.
constexpr const char* kDebianHip = "/usr/lib/x86_64-linux-gnu/libamdhip64.so.5";

TEST(HipAbi, HIP_ABI_4_SymbolsCarryHipsVersionNodes) {
  if (access(kDebianHip, R_OK) != 0) GTEST_SKIP() << "Debian's libamdhip64-5 is not installed";
  const auto theirs = symbol_versions(kDebianHip);
  const auto ours = symbol_versions(ROCREF_HIP_LIBRARY);
  ASSERT_GE(theirs.size(), 400u);
  size_t shared = 0;
  for (const auto& [name, version] : ours) {
    if (theirs.count(name) == 1) ++shared;
    if (name.rfind("hip", 0) == 0 || name.rfind("__hip", 0) == 0) {
      EXPECT_FALSE(version.empty()) << name << " is exported without a version";
    }
  }
  EXPECT_GE(shared, 300u);
  for (const std::string& d : version_differences(ours, theirs)) ADD_FAILURE() << "version differs: " << d;
  // The nodes and their inheritance: hip_4.2 <- hip_4.3 <- ... <- hip_5.2.
  const auto nodes = version_nodes(ROCREF_HIP_LIBRARY);
  EXPECT_EQ(nodes, version_nodes(kDebianHip));
  EXPECT_EQ(nodes.count("hip_5.2"), 1u);
}

TEST(HipAbi, HIP_ABI_4_CheckCatchesAVersionDifference) {
  auto ours = symbol_versions(ROCREF_HIP_LIBRARY);
  const auto theirs = ours;
  ASSERT_EQ(ours.count("hipMallocAsync"), 1u);
  ours["hipMallocAsync"] = "hip_4.2";
  const std::set<std::string> d = version_differences(ours, theirs);
  ASSERT_EQ(d.size(), 1u);
  EXPECT_EQ(d.begin()->rfind("hipMallocAsync: hip_4.2 vs ", 0), 0u);
}

TEST(HipAbi, HIP_ABI_4_HipccProgramBindsWithoutLoaderWarning) {
#ifndef ROCREF_HIP_VERSIONS_PROBE
  GTEST_SKIP() << "hipcc is not installed";
#else
  // The program's versioned imports bind to rocref's library (its directory first in the search path).
  std::string library_dir = ROCREF_HIP_LIBRARY;
  library_dir.erase(library_dir.rfind('/'));
  const std::string command =
      "LD_LIBRARY_PATH='" + library_dir + "' '" ROCREF_HIP_VERSIONS_PROBE "' 2>&1; echo \"exit $?\"";
  FILE* pipe = popen(command.c_str(), "r");
  ASSERT_NE(pipe, nullptr);
  std::string output;
  char buffer[4096];
  while (std::fgets(buffer, sizeof buffer, pipe) != nullptr) output += buffer;
  pclose(pipe);
  EXPECT_EQ(output.find("no version information available"), std::string::npos) << output;
  EXPECT_NE(output.find("ok\nexit 0"), std::string::npos) << output;
#endif
}

}  // namespace
