// gpu/vm/pte.h - GPUVM address split and page-table-entry encoding (gfx9 layout).
//
// 48-bit virtual addresses, 4 KiB pages, four levels of 512 entries (9 bits
// each): level 0 (PML4-like, bits 47..39) down to level 3 (the PTE, bits
// 20..12). PTE flag bits sit where amdgpu's gfx9 PTEs have them
// (AMDGPU_PTE_VALID 0, SYSTEM 1, EXECUTABLE 4, READABLE 5, WRITEABLE 6); the
// page address occupies bits 47..12. In rocref the "physical" address is the
// host address of the page backing the GPU page (VM-PTE-1).
#pragma once

#include <cstdint>

namespace rocref::gpu::vm {

inline constexpr unsigned kPageShift = 12;
inline constexpr uint64_t kPageSize = uint64_t{1} << kPageShift;
inline constexpr unsigned kLevels = 4;
inline constexpr unsigned kBitsPerLevel = 9;
inline constexpr unsigned kEntriesPerTable = 1u << kBitsPerLevel;
inline constexpr unsigned kVaBits = 48;
inline constexpr uint64_t kVaLimit = uint64_t{1} << kVaBits;  // first address past the VA space

inline constexpr uint64_t kPteValid = uint64_t{1} << 0;
inline constexpr uint64_t kPteSystem = uint64_t{1} << 1;
inline constexpr uint64_t kPteExecutable = uint64_t{1} << 4;
inline constexpr uint64_t kPteReadable = uint64_t{1} << 5;
inline constexpr uint64_t kPteWriteable = uint64_t{1} << 6;
// GPU-GRAIN-1: the memory type, bits 58..57 as AMDGPU_PTE_MTYPE_VG10 places it (MTYPE_NC 0,
// MTYPE_WC 1, MTYPE_CC 2, MTYPE_UC 3). amdkfd maps a KFD_IOC_ALLOC_MEM_FLAGS_COHERENT buffer
// UC on gfx900 (not cached in L2: fine grain) and any other NC (cached: coarse grain).
inline constexpr unsigned kPteMtypeShift = 57;
inline constexpr uint64_t kPteMtypeMask = uint64_t{3} << kPteMtypeShift;
inline constexpr uint64_t kPteMtypeNc = uint64_t{0} << kPteMtypeShift;
inline constexpr uint64_t kPteMtypeUc = uint64_t{3} << kPteMtypeShift;
inline constexpr uint64_t kPteFlagMask =
    kPteValid | kPteSystem | kPteExecutable | kPteReadable | kPteWriteable | kPteMtypeMask;
inline constexpr uint64_t kPteAddrMask = (kVaLimit - 1) & ~(kPageSize - 1);  // bits 47..12

// Shift of the index field for `level` (0 = top): 39, 30, 21, 12 (VM-VA-1).
constexpr unsigned level_shift(unsigned level) noexcept {
  return kPageShift + kBitsPerLevel * (kLevels - 1 - level);
}
constexpr unsigned level_index(uint64_t va, unsigned level) noexcept {
  return static_cast<unsigned>((va >> level_shift(level)) & (kEntriesPerTable - 1));
}
constexpr uint64_t page_of(uint64_t va) noexcept { return va & ~(kPageSize - 1); }
constexpr bool page_aligned(uint64_t v) noexcept { return (v & (kPageSize - 1)) == 0; }

// VM-PTE-1: encode(host page, flags) and its inverse.
constexpr uint64_t pte_encode(uint64_t host_page, uint64_t flags) noexcept {
  return (host_page & kPteAddrMask) | (flags & kPteFlagMask);
}
constexpr uint64_t pte_address(uint64_t pte) noexcept { return pte & kPteAddrMask; }
constexpr uint64_t pte_flags(uint64_t pte) noexcept { return pte & kPteFlagMask; }

static_assert(level_shift(0) == 39 && level_shift(3) == 12, "VM-VA-1: 9 bits a level above 4 KiB pages");
static_assert(pte_address(pte_encode(0x7fff'ffff'f000, kPteValid)) == 0x7fff'ffff'f000, "VM-PTE-1");

}  // namespace rocref::gpu::vm
