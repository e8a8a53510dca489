// gpu/vm/vm_mutant.h - planted GPUVM bugs that the property test and proofs must catch.
//
// Compiled in only for the test-only rocref_gpuvm_mutable library
// (ROCREF_GPUVM_MUTANTS); elsewhere vm_mutant_active() is a constant false.
#pragma once

#include <cstdint>

#include "common/mutant_switch.h"

namespace rocref::gpu::vm {

enum class VmMutant : uint32_t {
  TlbInvalidateIgnored,          // VM-TLB-2: invalidation leaves cached translations
  LevelIndexOffByOne,            // VM-VA-1: PT index taken one bit too low at the last level
  EmptyTablesKept,               // VM-PT-3: empty page-table pages never freed
  PermissionIgnored,             // VM-PERM-1: write to a read-only page allowed
  UnmapLeavesLastPage,           // VM-MAP-3: unmap of n pages clears only n-1
  PteAddressDropsBit47,          // VM-PTE-1: the PTE address field loses bit 47
  TranslateChecksFirstPageOnly,  // VM-XLATE-2: a page-crossing access checks only its first page
  UserptrEvictionIgnored,        // VM-USERPTR-1: a USERPTR buffer whose pages went away still translates
  UserptrAddedRangeUnseen,       // VM-USERPTR-1: translate()'s shortcut is not told of a new USERPTR buffer
  TlbReadUnchecked,              // VM-TLB-3: a lock-free TLB hit is kept though a locked section overlapped it
  kCount
};

#ifdef ROCREF_GPUVM_MUTANTS
bool vm_mutant_active(VmMutant m) noexcept;
void set_vm_mutant(VmMutant m, bool on) noexcept;
using ScopedVmMutant = ScopedMutantSwitch<VmMutant, set_vm_mutant>;
#else
constexpr bool vm_mutant_active(VmMutant) noexcept { return false; }
#endif

}  // namespace rocref::gpu::vm
