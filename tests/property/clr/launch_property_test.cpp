// tests/property/clr/launch_property_test.cpp - random launches with random completion order
// never get a live kernarg slice or a held signal; each planted bug must be caught.
#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include "clr/clr_mutant.h"
#include "launch_sequence.h"

namespace clr_prop {
namespace {

using rocref::clr::ClrMutant;
using rocref::clr::ScopedClrMutant;

RC_GTEST_PROP(ClrLaunchProperty, NoLiveSliceOrHeldSignalIsHandedOut,
              (uint16_t capacity, uint8_t base_offset, const std::vector<RawOp>& ops)) {
  check_sequence(RingShape{capacity, base_offset}, ops);
}

// A property that cannot fail proves nothing: each planted bug must give a counterexample.
bool property_holds() {
  return rc::check("launch sequence against the model",
                   [](uint16_t capacity, uint8_t base_offset, const std::vector<RawOp>& ops) {
                     check_sequence(RingShape{capacity, base_offset}, ops);
                   });
}

TEST(ClrLaunchPropertyMutants, RingWrappingOverLiveSlicesIsCaught) {
  ScopedClrMutant m(ClrMutant::WrapOverLiveSlices);
  EXPECT_FALSE(property_holds());
}

TEST(ClrLaunchPropertyMutants, IgnoredAlignmentIsCaught) {
  ScopedClrMutant m(ClrMutant::AlignmentIgnored);
  EXPECT_FALSE(property_holds());
}

TEST(ClrLaunchPropertyMutants, SignalReusedWhileHeldIsCaught) {
  ScopedClrMutant m(ClrMutant::ReuseWhileHeld);
  EXPECT_FALSE(property_holds());
}

TEST(ClrLaunchPropertyMutants, SignalNotResetBeforeReuseIsCaught) {
  ScopedClrMutant m(ClrMutant::NoResetOnReuse);
  EXPECT_FALSE(property_holds());
}

TEST(ClrLaunchPropertyMutants, EveryMutantHasACheck) {
  // The ring and pool bugs come before NoBarrierBit; the packet bugs after it are
  // caught by the adversarial GPU model (tests/unit/clr/adversarial_clr_test.cpp).
  // DependencyNotHeld is caught by ClrDependencyHold (tests/unit/clr/dependency_hold_test.cpp).
  EXPECT_EQ(static_cast<uint32_t>(ClrMutant::NoBarrierBit), 5u) << "add a test above for the new planted bug";
}

}  // namespace
}  // namespace clr_prop
