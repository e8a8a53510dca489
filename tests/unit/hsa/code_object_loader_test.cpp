// tests/unit/hsa/code_object_loader_test.cpp - the loader's planted bugs (hsa_mutant.h) against the
// conformance suite's loader checks: with each bug off the hipcc-built kernel runs; with it on the
// dispatch fails (the GPU model reports the fault as a queue error) or the symbols are wrong.
#include <gtest/gtest.h>

#include "hsa/hsa_mutant.h"
#include "hsa_fixture.h"
#include "loader_fixture.h"

namespace {

using rocref::hsa::HsaMutant;
using rocref::hsa::ScopedHsaMutant;

class LoaderMutants : public hsa_conformance::HsaTest {
 protected:
  void SetUp() override {
    HsaTest::SetUp();
    if (HasFatalFailure()) return;
    image_ = hsa_conformance::read_file(ROCREF_HSA_LOADER_KERNELS);
    system_ = hsa_conformance::find_pool(agents_.cpu, HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_FINE_GRAINED);
    kernarg_ = hsa_conformance::find_pool(agents_.cpu, HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_KERNARG_INIT);
    ASSERT_FALSE(image_.empty());
  }
  // Loads the image (under whatever bug is on) and runs read_table; true when every value is right.
  bool kernel_runs() {
    hsa_conformance::LoadedImage loaded(image_, agents_.gpu);
    if (loaded.status != HSA_STATUS_SUCCESS) return false;
    std::vector<int32_t> out;
    if (!hsa_conformance::run_read_table(loaded.executable, agents_.gpu, agents_.cpu, system_, kernarg_, 64, 2, 7,
                                         &out)) {
      return false;
    }
    const int32_t table[4] = {11, 22, 33, 44};
    for (int i = 0; i < 64; ++i) {
      if (out[i] != table[i % 4] + 7 * i + 2) return false;
    }
    return true;
  }
  std::vector<uint8_t> image_;
  hsa_amd_memory_pool_t system_{0}, kernarg_{0};
};

// covers: HSA-LOAD-3
TEST_F(LoaderMutants, KernelObjectIsLoadBasePlusDescriptorValue) {
  EXPECT_TRUE(kernel_runs());
  ScopedHsaMutant bug(HsaMutant::LoaderKernelObjectWithoutBase);
  EXPECT_FALSE(kernel_runs()) << "LoaderKernelObjectWithoutBase: a dispatch of the unrelocated descriptor ran";
}

// covers: HSA-LOAD-2
TEST_F(LoaderMutants, DynamicRelocationsAreApplied) {
  EXPECT_TRUE(kernel_runs());
  ScopedHsaMutant bug(HsaMutant::LoaderRelocationsSkipped);
  EXPECT_FALSE(kernel_runs()) << "LoaderRelocationsSkipped: the kernel read through an unrelocated pointer";
}

}  // namespace
