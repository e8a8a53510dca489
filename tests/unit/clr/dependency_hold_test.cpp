// tests/unit/clr/dependency_hold_test.cpp - a stream waiting on another stream's signal holds
// it (VirtualGpu::wait_for): after the signal's own command completed and its caller let go,
// the pool must not hand it out again (reset to 1) while the barrier packet still has to read it.
#include <gtest/gtest.h>

#include <hsa/hsa.h>

#include "clr/clr_mutant.h"
#include "clr/device.h"
#include "clr/signal_pool.h"
#include "clr/virtual_gpu.h"

namespace {

using rocref::clr::ClrMutant;
using rocref::clr::Device;
using rocref::clr::ScopedClrMutant;
using rocref::clr::VirtualGpu;

class ClrDependencyHold : public ::testing::Test {
 protected:
  void SetUp() override {
    device = Device::get();
    ASSERT_NE(device, nullptr) << "HSA status " << Device::open_status();
  }
  std::unique_ptr<VirtualGpu> make() {
    auto made = VirtualGpu::create(*device, VirtualGpu::Options{VirtualGpu::kDefaultKernargRingBytes});
    const hsa_status_t status = made ? HSA_STATUS_SUCCESS : made.error();
    auto gpu = std::move(made).value_or(nullptr);
    EXPECT_EQ(status, HSA_STATUS_SUCCESS);
    return gpu;
  }
  // Stream b waits on stream a's marker behind a hold; the marker completes, its caller
  // releases it. True when the pool's next signal is not the marker b still has to read.
  bool dependency_stays_held() {
    auto a = make(), b = make();
    if (!a || !b) return false;
    hsa_signal_t hold{0};
    EXPECT_EQ(hsa_signal_create(1, 0, nullptr, &hold), HSA_STATUS_SUCCESS);
    EXPECT_EQ(b->wait_for(hold), HSA_STATUS_SUCCESS);  // b launches nothing past this yet
    hsa_signal_t marker{0};
    EXPECT_EQ(a->marker(&marker), HSA_STATUS_SUCCESS);
    EXPECT_EQ(b->wait_for(marker), HSA_STATUS_SUCCESS);
    EXPECT_TRUE(device->signal_pool().release(marker));  // the caller (an event) lets go
    EXPECT_EQ(a->synchronize(), HSA_STATUS_SUCCESS);     // the marker completed
    EXPECT_TRUE(a->idle());                              // and a gave back what it held
    hsa_signal_t next{0};
    EXPECT_EQ(device->signal_pool().acquire(1, &next), HSA_STATUS_SUCCESS);
    const bool held = next.handle != marker.handle;
    hsa_signal_store_screlease(next, 0);  // whichever it is, b's wait can complete
    device->signal_pool().release(next);
    hsa_signal_store_screlease(hold, 0);
    EXPECT_EQ(b->synchronize(), HSA_STATUS_SUCCESS);
    b.reset();
    a.reset();
    hsa_signal_destroy(hold);
    return held;
  }
  Device* device = nullptr;
};

TEST_F(ClrDependencyHold, WaitedOnSignalIsNotReusedBeforeTheWaitRuns) {
  EXPECT_TRUE(dependency_stays_held()) << "the pool handed out a signal a barrier packet still waits on";
  ScopedClrMutant bug(ClrMutant::DependencyNotHeld);
  EXPECT_FALSE(dependency_stays_held()) << "DependencyNotHeld: the reuse went unnoticed";
}

}  // namespace
