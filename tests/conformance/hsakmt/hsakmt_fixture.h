// tests/conformance/hsakmt/hsakmt_fixture.h - shared set-up for the hsakmt.h conformance suite.
//
// Only the public hsakmt.h API: the same sources build against rocref's thunk and
// Debian's libhsakmt (ROCREF_HSAKMT_IMPL=system). Where rocref deliberately
// answers input the real library would dereference or crash on, the test runs
// only on rocref (ROCREF_ONLY) and says why.
#pragma once

#include <hsakmt.h>

#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#if defined(ROCREF_HSAKMT_IMPL_SYSTEM)
#define ROCREF_ONLY(why) GTEST_SKIP() << "real libhsakmt: " << why
#else
#define ROCREF_ONLY(why) (void)0
#endif

// Calls added after libhsakmt 5.2.3: weak, so the suite links against 5.2.3 and skips.
extern "C" {
HSAKMT_STATUS HSAKMTAPI hsaKmtAvailableMemory(HSAuint32 Node, HSAuint64* AvailableBytes) __attribute__((weak));
HSAKMT_STATUS HSAKMTAPI hsaKmtWaitOnEvent_Ext(HsaEvent* Event, HSAuint32 Milliseconds, uint64_t* event_age)
    __attribute__((weak));
HSAKMT_STATUS HSAKMTAPI hsaKmtWaitOnMultipleEvents_Ext(HsaEvent* Events[], HSAuint32 NumEvents, bool WaitOnAll,
                                                       HSAuint32 Milliseconds, uint64_t* event_age)
    __attribute__((weak));
}

namespace hsakmt_conformance {

// An open KFD with a topology snapshot; skips (or fails, where a KFD must exist) without one.
class Hsakmt : public ::testing::Test {
 protected:
  void SetUp() override;
  void TearDown() override;

  // Buffers and objects made through these are released in TearDown.
  void* alloc(uint32_t node, uint64_t size, HsaMemFlags flags);
  void* alloc_vram(uint64_t size);
  void* alloc_system(uint64_t size);
  HsaEvent* make_event(bool manual_reset = false, bool signaled = false);
  HsaQueueResource make_aql_queue(HSA_QUEUE_PRIORITY priority = HSA_QUEUE_PRIORITY_NORMAL);

  static HsaMemFlags vram_flags();
  static HsaMemFlags system_flags();

  HsaSystemProperties sys_{};
  uint32_t gpu_node_ = 0;
  HsaNodeProperties gpu_{};
  bool opened_ = false;

 private:
  struct Buffer {
    void* address;
    uint64_t size;
  };
  std::vector<Buffer> buffers_;
  std::vector<HsaEvent*> events_;
  std::vector<HSA_QUEUEID> queues_;
};

}  // namespace hsakmt_conformance
