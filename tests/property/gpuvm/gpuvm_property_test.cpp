// tests/property/gpuvm/gpuvm_property_test.cpp - the GPUVM properties, and the planted bugs they catch.
#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include <string>

#include "gpu/vm/vm_mutant.h"
#include "gpuvm_ops.h"

namespace gpuvm_prop {
namespace {

using rocref::gpu::vm::ScopedVmMutant;
using rocref::gpu::vm::VmMutant;

// Unaligned starts, partial-page sizes, unmaps in the middle of buffers, translations that cross
// into separately mapped buffers (adjacent backing or not) and permission variants.
// covers: VM-PTE-1, VM-MAP-1, VM-MAP-2, VM-MAP-3, VM-MAP-4, VM-XLATE-1, VM-XLATE-2, VM-XLATE-3, VM-PERM-1, VM-TLB-2, VM-FAULT-1, VM-PT-3
RC_GTEST_PROP(GpuVmProperty, MatchesTheFlatModel, (const std::vector<RawOp>& ops)) {
  check_sequence(ops);
}

// The generator reaches the cases the properties claim (a zero here means a clause is not exercised).
TEST(GpuVmProperty, GeneratorReachesCrossingPartialAndMiddleCases) {
  g_reached = Reached{};
  ASSERT_TRUE(rc::check("gpuvm sequence against the flat model", [](const std::vector<RawOp>& ops) { check_sequence(ops); }));
  std::printf("across buffers %d, crossing faults %d, partial-page maps %d, unaligned maps %d, middle unmaps %d\n",
              g_reached.across_buffers, g_reached.crossing_faults, g_reached.partial_page_maps,
              g_reached.unaligned_refused, g_reached.middle_unmaps);
  EXPECT_GT(g_reached.across_buffers, 0);
  EXPECT_GT(g_reached.crossing_faults, 0);
  EXPECT_GT(g_reached.partial_page_maps, 0);
  EXPECT_GT(g_reached.unaligned_refused, 0);
  EXPECT_GT(g_reached.middle_unmaps, 0);
}

// A property that cannot fail proves nothing: each planted bug must give a counterexample.
bool property_holds() {
  return rc::check("gpuvm sequence against the flat model",
                   [](const std::vector<RawOp>& ops) { check_sequence(ops); });
}

TEST(GpuVmPropertyMutants, VM_TLB_2_MissingInvalidationIsCaught) {
  ScopedVmMutant m(VmMutant::TlbInvalidateIgnored);
  EXPECT_FALSE(property_holds());
}

TEST(GpuVmPropertyMutants, VM_VA_1_LastLevelOffByOneIsCaught) {
  ScopedVmMutant m(VmMutant::LevelIndexOffByOne);
  EXPECT_FALSE(property_holds());
}

TEST(GpuVmPropertyMutants, VM_PT_3_EmptyTablesKeptIsCaught) {
  ScopedVmMutant m(VmMutant::EmptyTablesKept);
  EXPECT_FALSE(property_holds());
}

TEST(GpuVmPropertyMutants, VM_PERM_1_PermissionIgnoredIsCaught) {
  ScopedVmMutant m(VmMutant::PermissionIgnored);
  EXPECT_FALSE(property_holds());
}

TEST(GpuVmPropertyMutants, VM_MAP_3_PartialUnmapIsCaught) {
  ScopedVmMutant m(VmMutant::UnmapLeavesLastPage);
  EXPECT_FALSE(property_holds());
}

TEST(GpuVmPropertyMutants, VM_XLATE_2_FirstPageOnlyIsCaught) {
  ScopedVmMutant m(VmMutant::TranslateChecksFirstPageOnly);
  EXPECT_FALSE(property_holds());
}

TEST(GpuVmPropertyMutants, VM_PTE_1_AddressBit47DroppedIsCaught) {
  ScopedVmMutant m(VmMutant::PteAddressDropsBit47);
  EXPECT_FALSE(property_holds());
}

// A counterexample reads as the operations and the page table at the failure, not as raw bytes.
TEST(GpuVmPropertyMutants, CounterexampleShowsOperationsAndPageTable) {
  ScopedVmMutant m(VmMutant::TranslateChecksFirstPageOnly);
  std::string report;
  const auto result = rc::detail::checkTestable([](const std::vector<RawOp>& ops) { check_sequence(ops); });
  rc::detail::FailureResult failure;
  ASSERT_TRUE(result.match(failure));
  report = failure.description;
  EXPECT_NE(report.find("operations:"), std::string::npos) << report;
  EXPECT_NE(report.find("translate va"), std::string::npos) << report;
  EXPECT_NE(report.find("page table of VMID 7"), std::string::npos) << report;
  std::printf("%s\n", report.c_str());
}

}  // namespace
}  // namespace gpuvm_prop
