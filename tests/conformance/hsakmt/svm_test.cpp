// tests/conformance/hsakmt/svm_test.cpp - hsaKmtSVMSetAttr / hsaKmtSVMGetAttr (THUNK-SVM-*).
#include <sys/mman.h>

#include <cstring>

#include "hsakmt_fixture.h"

namespace hsakmt_conformance {
namespace {

struct Hsakmt_Svm : Hsakmt {
  void SetUp() override {
    Hsakmt::SetUp();
    if (IsSkipped() || HasFatalFailure()) return;
    void* m = ::mmap(nullptr, 4 * 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    ASSERT_NE(m, MAP_FAILED);
    std::memset(m, 0, 4 * 4096);
    mem_ = static_cast<uint8_t*>(m);
  }
  void TearDown() override {
    Hsakmt::TearDown();
    if (mem_) ::munmap(mem_, 4 * 4096);
  }
  uint8_t* mem_ = nullptr;
};

TEST_F(Hsakmt_Svm, THUNK_SVM_3_NodeAdvertisesTheSvmApi) { EXPECT_EQ(gpu_.Capability.ui32.SVMAPISupported, 1u); }

TEST_F(Hsakmt_Svm, THUNK_SVM_1_THUNK_SVM_2_BadRangesReturnInvalidParameter) {
  HSA_SVM_ATTRIBUTE a[] = {{HSA_SVM_ATTR_GRANULARITY, 3}};
  EXPECT_EQ(hsaKmtSVMSetAttr(nullptr, 4096, 1, a), HSAKMT_STATUS_INVALID_PARAMETER);
  EXPECT_EQ(hsaKmtSVMSetAttr(mem_, 0, 1, a), HSAKMT_STATUS_INVALID_PARAMETER);
  EXPECT_EQ(hsaKmtSVMSetAttr(mem_ + 8, 4096, 1, a), HSAKMT_STATUS_INVALID_PARAMETER);
  EXPECT_EQ(hsaKmtSVMSetAttr(mem_, 4097, 1, a), HSAKMT_STATUS_INVALID_PARAMETER);
  EXPECT_EQ(hsaKmtSVMGetAttr(nullptr, 4096, 1, a), HSAKMT_STATUS_INVALID_PARAMETER);
  EXPECT_EQ(hsaKmtSVMGetAttr(mem_ + 8, 4096, 1, a), HSAKMT_STATUS_INVALID_PARAMETER);
  EXPECT_EQ(hsaKmtSVMGetAttr(mem_, 4096, 1, a), HSAKMT_STATUS_SUCCESS);
  EXPECT_EQ(a[0].value, 9u) << "nothing was set: the default granularity";
}

TEST_F(Hsakmt_Svm, THUNK_SVM_1_THUNK_SVM_2_NodeIdsAreCheckedBeforeTheDriver) {
  HSA_SVM_ATTRIBUTE cpu[] = {{HSA_SVM_ATTR_ACCESS, 0}};  // node 0 is the CPU
  EXPECT_EQ(hsaKmtSVMSetAttr(mem_, 4096, 1, cpu), HSAKMT_STATUS_INVALID_NODE_UNIT);
  HSA_SVM_ATTRIBUTE past[] = {{HSA_SVM_ATTR_PREFERRED_LOC, sys_.NumNodes}};
  EXPECT_EQ(hsaKmtSVMSetAttr(mem_, 4096, 1, past), HSAKMT_STATUS_INVALID_NODE_UNIT);
  HSA_SVM_ATTRIBUTE unknown[] = {{static_cast<HSA_SVM_ATTR_TYPE>(99), 0}};
  EXPECT_EQ(hsaKmtSVMSetAttr(mem_, 4096, 1, unknown), HSAKMT_STATUS_ERROR) << "the driver's EINVAL";
  HSA_SVM_ATTRIBUTE q[] = {{HSA_SVM_ATTR_NO_ACCESS, gpu_node_}};
  EXPECT_EQ(hsaKmtSVMGetAttr(mem_, 4096, 1, q), HSAKMT_STATUS_ERROR) << "NO_ACCESS is not a question";
}

TEST_F(Hsakmt_Svm, THUNK_SVM_1_THUNK_SVM_2_SetThenGetRoundTripsInNodeIds) {
  HSA_SVM_ATTRIBUTE def[] = {{HSA_SVM_ATTR_PREFERRED_LOC, 0}, {HSA_SVM_ATTR_ACCESS, gpu_node_}};
  ASSERT_EQ(hsaKmtSVMGetAttr(mem_, 4 * 4096, 2, def), HSAKMT_STATUS_SUCCESS);
  EXPECT_EQ(def[0].value, uint32_t(INVALID_NODEID)) << "no preferred location yet";
  EXPECT_EQ(def[1].type, HSA_SVM_ATTR_NO_ACCESS);
  HSA_SVM_ATTRIBUTE set[] = {{HSA_SVM_ATTR_PREFERRED_LOC, gpu_node_},
                             {HSA_SVM_ATTR_PREFETCH_LOC, 0},
                             {HSA_SVM_ATTR_ACCESS, gpu_node_},
                             {HSA_SVM_ATTR_SET_FLAGS, HSA_SVM_FLAG_GPU_EXEC}};
  ASSERT_EQ(hsaKmtSVMSetAttr(mem_, 4 * 4096, 4, set), HSAKMT_STATUS_SUCCESS);
  HSA_SVM_ATTRIBUTE get[] = {{HSA_SVM_ATTR_PREFERRED_LOC, 0},
                             {HSA_SVM_ATTR_PREFETCH_LOC, 0},
                             {HSA_SVM_ATTR_ACCESS, gpu_node_},
                             {HSA_SVM_ATTR_SET_FLAGS, 0}};
  ASSERT_EQ(hsaKmtSVMGetAttr(mem_, 4 * 4096, 4, get), HSAKMT_STATUS_SUCCESS);
  EXPECT_EQ(get[0].value, gpu_node_);
  EXPECT_EQ(get[1].value, 0u) << "system memory reads as the CPU node";
  EXPECT_EQ(get[2].type, HSA_SVM_ATTR_ACCESS);
  EXPECT_TRUE(get[3].value & HSA_SVM_FLAG_GPU_EXEC);
  // INVALID_NODEID as a preferred location means "undefined" again; a sub-range mixes.
  HSA_SVM_ATTRIBUTE none[] = {{HSA_SVM_ATTR_PREFERRED_LOC, INVALID_NODEID}};
  ASSERT_EQ(hsaKmtSVMSetAttr(mem_ + 4096, 4096, 1, none), HSAKMT_STATUS_SUCCESS);
  HSA_SVM_ATTRIBUTE pref[] = {{HSA_SVM_ATTR_PREFERRED_LOC, 0}};
  ASSERT_EQ(hsaKmtSVMGetAttr(mem_, 4096, 1, pref), HSAKMT_STATUS_SUCCESS);
  EXPECT_EQ(pref[0].value, gpu_node_);
  ASSERT_EQ(hsaKmtSVMGetAttr(mem_, 4 * 4096, 1, pref), HSAKMT_STATUS_SUCCESS);
  EXPECT_EQ(pref[0].value, uint32_t(INVALID_NODEID));
}

}  // namespace
}  // namespace hsakmt_conformance
