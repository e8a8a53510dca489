// tests/conformance/hsakmt/open_test.cpp - hsaKmtOpenKFD / CloseKFD / GetVersion and calls before open.
#include "hsakmt_fixture.h"

namespace hsakmt_conformance {
namespace {

bool kfd_available() {
  if (hsaKmtOpenKFD() != HSAKMT_STATUS_SUCCESS) return false;
  hsaKmtCloseKFD();
  return true;
}

TEST(Hsakmt_OpenKFD, SecondOpenReturnsAlreadyOpenedAndIsRefcounted) {
  if (!kfd_available()) GTEST_SKIP() << "no KFD";
  ASSERT_EQ(hsaKmtOpenKFD(), HSAKMT_STATUS_SUCCESS);
  EXPECT_EQ(hsaKmtOpenKFD(), HSAKMT_STATUS_KERNEL_ALREADY_OPENED);
  EXPECT_EQ(hsaKmtCloseKFD(), HSAKMT_STATUS_SUCCESS);
  HsaVersionInfo v{};
  EXPECT_EQ(hsaKmtGetVersion(&v), HSAKMT_STATUS_SUCCESS) << "one close of two opens keeps it open";
  EXPECT_EQ(hsaKmtCloseKFD(), HSAKMT_STATUS_SUCCESS);
  EXPECT_EQ(hsaKmtGetVersion(&v), HSAKMT_STATUS_KERNEL_IO_CHANNEL_NOT_OPENED);
}

TEST(Hsakmt_OpenKFD, ReopenAfterCloseWorks) {
  if (!kfd_available()) GTEST_SKIP() << "no KFD";
  for (int i = 0; i < 3; ++i) {
    ASSERT_EQ(hsaKmtOpenKFD(), HSAKMT_STATUS_SUCCESS);
    HsaSystemProperties sys{};
    EXPECT_EQ(hsaKmtAcquireSystemProperties(&sys), HSAKMT_STATUS_SUCCESS);
    EXPECT_GE(sys.NumNodes, 1u);
    EXPECT_EQ(hsaKmtCloseKFD(), HSAKMT_STATUS_SUCCESS);
  }
}

TEST(Hsakmt_CloseKFD, WithoutOpenReturnsNotOpened) {
  EXPECT_EQ(hsaKmtCloseKFD(), HSAKMT_STATUS_KERNEL_IO_CHANNEL_NOT_OPENED);
}

TEST(Hsakmt_NotOpened, EveryCallReturnsKernelIoChannelNotOpened) {
  constexpr HSAKMT_STATUS kNotOpened = HSAKMT_STATUS_KERNEL_IO_CHANNEL_NOT_OPENED;
  HsaVersionInfo v{};
  EXPECT_EQ(hsaKmtGetVersion(&v), kNotOpened);
  HsaSystemProperties sys{};
  EXPECT_EQ(hsaKmtAcquireSystemProperties(&sys), kNotOpened);
  HsaNodeProperties props{};
  EXPECT_EQ(hsaKmtGetNodeProperties(0, &props), kNotOpened);
  HsaMemFlags flags{};
  flags.ui32.HostAccess = 1;
  void* mem = nullptr;
  EXPECT_EQ(hsaKmtAllocMemory(0, 4096, flags, &mem), kNotOpened);
  EXPECT_EQ(mem, nullptr);
  EXPECT_EQ(hsaKmtFreeMemory(&mem, 4096), kNotOpened);
  HsaEventDescriptor d{};
  d.EventType = HSA_EVENTTYPE_SIGNAL;
  HsaEvent* e = nullptr;
  EXPECT_EQ(hsaKmtCreateEvent(&d, false, false, &e), kNotOpened);
  HsaQueueResource r{};
  EXPECT_EQ(hsaKmtCreateQueue(1, HSA_QUEUE_COMPUTE_AQL, 100, HSA_QUEUE_PRIORITY_NORMAL, nullptr, 4096, nullptr, &r),
            kNotOpened);
  HsaClockCounters c{};
  EXPECT_EQ(hsaKmtGetClockCounters(0, &c), kNotOpened);
}

TEST_F(Hsakmt, GetVersionReportsInterfaceMajor1) {
  HsaVersionInfo v{};
  ASSERT_EQ(hsaKmtGetVersion(&v), HSAKMT_STATUS_SUCCESS);
  EXPECT_EQ(v.KernelInterfaceMajorVersion, 1u);
  EXPECT_GE(v.KernelInterfaceMinorVersion, 1u);
}

TEST_F(Hsakmt, GetVersionNullReturnsInvalidParameter) {
  ROCREF_ONLY("GetVersion writes through the pointer unchecked");
  EXPECT_EQ(hsaKmtGetVersion(nullptr), HSAKMT_STATUS_INVALID_PARAMETER);
}

}  // namespace
}  // namespace hsakmt_conformance
