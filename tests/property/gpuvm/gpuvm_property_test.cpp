// tests/property/gpuvm/gpuvm_property_test.cpp - the GPUVM properties, and the planted bugs they catch.
#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include "gpu/vm/vm_mutant.h"
#include "gpuvm_ops.h"

namespace gpuvm_prop {
namespace {

using rocref::gpu::vm::ScopedVmMutant;
using rocref::gpu::vm::VmMutant;

// covers: VM-MAP-1, VM-MAP-2, VM-MAP-3, VM-MAP-4, VM-XLATE-1, VM-XLATE-2, VM-XLATE-3, VM-PERM-1, VM-TLB-2, VM-FAULT-1, VM-PT-3
RC_GTEST_PROP(GpuVmProperty, MatchesTheFlatModel, (const std::vector<RawOp>& ops)) {
  check_sequence(ops);
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

}  // namespace
}  // namespace gpuvm_prop
