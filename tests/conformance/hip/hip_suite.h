// tests/conformance/hip/hip_suite.h - what every HIP suite file shares.
//
// Written only against the HIP API, so it builds against rocref, HIP-CPU and
// HIP on CUDA. Error codes are compared as numbers (names differ across
// implementations). Known, explained differences live in deviations(): a test
// that meets one reports it and skips instead of failing.
#pragma once

#include <gtest/gtest.h>
#include <hip/hip_runtime.h>

#include <string>

// HIP on NVIDIA (HIP 5.2.3's nvidia_detail headers over CUDA) declares none of AMD's extensions and
// several families (graphs, memory pools, texture objects' descriptors, the call-configuration
// stack): their tests are built for AMD's platform only, and the matrix lists them as missing on
// NVIDIA (expected_deviations.tsv).
#if defined(__HIP_PLATFORM_NVIDIA__)
#define HIP_SUITE_AMD_API 0
#else
#define HIP_SUITE_AMD_API 1
#endif

#ifndef ROCREF_HIP_IMPL_NAME
#define ROCREF_HIP_IMPL_NAME "rocref"
#endif

namespace hip_suite {

// The reason an implementation deviates at `clause`, or nullptr.
const char* deviation(const std::string& implementation, const std::string& clause);

#define HIP_CLAUSE(id)                                                    \
  do {                                                                    \
    ::testing::Test::RecordProperty("clause", id);                        \
    if (const char* why = ::hip_suite::deviation(ROCREF_HIP_IMPL_NAME, id)) \
      GTEST_SKIP() << "expected deviation at " << id << ": " << why;      \
  } while (0)

// hipLaunchKernel's kernel argument. Real HIP (either platform) takes the
// kernel's address as const void* and finds its argument layout in the code
// object; rocref's kernels are host functions without that metadata, so it
// learns the types from a typed overload (spec/hip.md HIP-LNC-4).
#if defined(ROCREF_HIP_HOST_KERNELS)
#define HIP_SUITE_KERNEL(kernel) (kernel)
#else
#define HIP_SUITE_KERNEL(kernel) reinterpret_cast<const void*>(&(kernel))
#endif

#define EXPECT_HIP(expected, call) EXPECT_EQ(static_cast<int>(expected), static_cast<int>(call))
#define ASSERT_HIP_OK(call) ASSERT_EQ(static_cast<int>(hipSuccess), static_cast<int>(call))

}  // namespace hip_suite
