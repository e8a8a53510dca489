// tests/conformance/hip/abi/hip_abi_test.cpp - libamdhip64.so.5 against HIP 5.2.3's declarations (HIP-ABI-1..3).
#include <dlfcn.h>
#include <gtest/gtest.h>
#include <hip/hip_runtime.h>

#include <cstring>
#include <iostream>

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

}  // namespace
