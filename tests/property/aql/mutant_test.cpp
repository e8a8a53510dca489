// tests/property/aql/mutant_test.cpp - every planted bug of common/mutant.h is caught.
//
// Each test runs a property with its mutant off (it must pass) and on (it must
// fail, and the first broken check must name the expected clause). Built
// against the *_mutable libraries. The table in tests/property/README.md lists
// mutant -> property.
#include <gtest/gtest.h>
#include <rapidcheck.h>

#include <set>
#include <string>
#include <vector>

#include "common/aql_ring.h"
#include "common/mutant.h"
#include "doorbell_trap.h"
#include "properties.h"
#include "world.h"

namespace rocref::prop {
namespace {

struct Outcome {
  bool passed = true;
  std::string first_failure;  // the clause-led message of the first failing run
};

Outcome check(void (*property)()) {
  std::vector<std::string> failures;
  const bool passed = rc::check("property", [&] {
    try {
      property();
    } catch (...) {
      failures.push_back(last_failure());
      throw;
    }
  });
  return Outcome{passed, failures.empty() ? "" : failures.front()};
}

// The property holds on the correct code and fails, naming one of `clauses`, with the mutant on.
void expect_caught(Mutant mutant, void (*property)(), std::set<std::string> clauses) {
  const Outcome clean = check(property);
  ASSERT_TRUE(clean.passed) << "the property fails without " << mutant_name(mutant) << ": " << clean.first_failure;
  Outcome bad;
  {
    ScopedMutant on(mutant);
    bad = check(property);
  }
  ASSERT_FALSE(bad.passed) << mutant_name(mutant) << " was not caught";
  const std::string clause = bad.first_failure.substr(0, bad.first_failure.find(':'));
  EXPECT_TRUE(clauses.count(clause)) << mutant_name(mutant) << " caught as: " << bad.first_failure;
}

TEST(AqlMutant, SkipFullCheckIsCaught) {
  expect_caught(Mutant::SkipFullCheck, &property_refinement, {"AQL-IDX-2", "AQL-IDX-3"});
}

TEST(AqlMutant, HeaderResetAfterReadIndexIsCaught) {
  expect_caught(Mutant::HeaderResetAfterReadIndex, &property_refinement, {"REFINE"});
}

TEST(AqlMutant, DoorbellOverAdvanceIsCaught) {
  expect_caught(Mutant::DoorbellOverAdvance, &property_refinement, {"AQL-DB-3"});
}

TEST(AqlMutant, InvalidHeaderConsumedIsCaught) {
  expect_caught(Mutant::InvalidHeaderConsumed, &property_refinement, {"AQL-INV-1"});
}

TEST(AqlMutant, IgnoreBarrierBitIsCaught) {
  expect_caught(Mutant::IgnoreBarrierBit, &property_refinement, {"AQL-BAR-1"});
}

TEST(AqlMutant, VendorTypeAcceptedAsValidIsCaught) {
  expect_caught(Mutant::VendorTypeAcceptedAsValid, &property_unknown_vendor_packet, {"AQL-INV-2"});
}

TEST(AqlMutant, BarrierOrNeedsAllIsCaught) {
  expect_caught(Mutant::BarrierOrNeedsAll, &property_barrier_or, {"AQL-BAR-3"});
}

TEST(AqlMutant, BarrierValueIgnoresConditionIsCaught) {
  expect_caught(Mutant::BarrierValueIgnoresCondition, &property_barrier_value, {"AQL-BAR-4"});
}

// The launch guard's barrier-packet rule (aql::may_launch) covers every barrier packet kind.
TEST(AqlMutant, BarrierPacketDoesNotBlockIsCaught) {
  expect_caught(Mutant::BarrierPacketDoesNotBlock, &property_barrier_and, {"AQL-BAR-2"});
}

TEST(AqlMutant, CasWakesOnFailureIsCaught) {
  expect_caught(Mutant::CasWakesOnFailure, &property_failed_cas, {"AQL-SIG-5"});
}

TEST(AqlMutant, NonAtomicSignalDecrementIsCaught) {
  expect_caught(Mutant::NonAtomicSignalDecrement, &property_decrement_composes, {"AQL-SIG-2"});
}

// AQL-DB-1 is about the instant of the doorbell store: trap the store and look at the header then.
struct AtDoorbell {
  testing::TestQueue* queue = nullptr;
  uint64_t id = 0;
  bool published = false;
  static void check(void* context) {
    auto* self = static_cast<AtDoorbell*>(context);
    self->published = aql::header_type(self->queue->header(self->id)) != HSA_PACKET_TYPE_INVALID;
  }
};

uint64_t unpublished_doorbells(uint32_t packets) {
  World world(WorldOptions{8, 0, packets});
  AtDoorbell seen{&world.queue()};
  testing::DoorbellTrap trap(world.queue(), &AtDoorbell::check, &seen);
  uint64_t bad = 0;
  for (uint32_t m = 0; m < packets; ++m) {
    const hsa_kernel_dispatch_packet_t p = world.dispatch(m, false, hsa_signal_t{0});
    seen.id = world.ring().load_write_index(MemoryOrder::Relaxed);
    trap.arm();
    world.ring().submit(&p, m % 2 ? aql::Reservation::Cas : aql::Reservation::FetchAdd);
    bad += seen.published ? 0 : 1;
    world.processor().drain(16);
  }
  EXPECT_EQ(trap.stores(), packets);
  return bad;
}

TEST(AqlMutant, DoorbellBeforeHeaderIsCaught) {
  EXPECT_EQ(unpublished_doorbells(16), 0u);
  ScopedMutant on(Mutant::DoorbellBeforeHeader);
  EXPECT_EQ(unpublished_doorbells(16), 16u) << "AQL-DB-1: the doorbell must follow the header store";
}

// A new mutant must come with a check here (or in AqlMutantTsan).
TEST(AqlMutant, EveryMutantHasACheck) {
  const std::set<Mutant> checked = {
      Mutant::RelaxedHeaderStore, Mutant::DoorbellBeforeHeader, Mutant::HeaderResetAfterReadIndex,
      Mutant::SkipFullCheck, Mutant::NonAtomicSignalDecrement, Mutant::VendorTypeAcceptedAsValid,
      Mutant::DoorbellOverAdvance, Mutant::CasWakesOnFailure, Mutant::IgnoreBarrierBit, Mutant::BarrierOrNeedsAll,
      Mutant::InvalidHeaderConsumed, Mutant::BarrierPacketDoesNotBlock, Mutant::BarrierValueIgnoresCondition,
      // Checked in tests/unit/gpu/mutant_test.cpp (MutantTest.AQL_SIG_6_*,
      // MutantTest.AQL_MEM_1_*, MutantTest.AQL_FEN_1_*).
      Mutant::MisalignedSignalUsed, Mutant::ReadIndexTranslatedOnce, Mutant::CompletionBeforeWork,
      // Checked in tests/unit/isa/isa_grain_test.cpp (IsaGrain.GPU_GRAIN_*).
      Mutant::SystemReleaseSkipsL2WriteBack, Mutant::SystemAcquireKeepsL2Lines, Mutant::BypassingEngineSkipsL2WriteBack,
      // Checked in tests/unit/aql_fast (AqlFastMutant.AQL_INV_4_*, AqlFastMutant.AQL_IDX_2_*)
      // and tests/unit/proofs (AqlEncodingSource.AQL_IDX_2_*).
      Mutant::IdleReaderPollsSlot, Mutant::RoomLimitPastRing,
      // Checked in tests/unit/gpu/mutant_test.cpp (MutantTest.AQL_ERR_1_KernelLookupByObjectIsCaught,
      // MutantTest.VM_XLATE_4_BlitKernelRawAddressesIsCaught).
      Mutant::KernelLookupByObject, Mutant::BlitKernelRawAddresses};
  for (uint32_t m = 0; m < static_cast<uint32_t>(Mutant::kCount); ++m) {
    EXPECT_TRUE(checked.count(static_cast<Mutant>(m))) << mutant_name(static_cast<Mutant>(m)) << " has no check";
  }
}

}  // namespace
}  // namespace rocref::prop
