// gpu/vm/page_table.h - one VMID's 4-level GPU page table (radix tree of 512-entry pages).
//
// Each table page is 512 eight-byte entries, PDEs above the last level and PTEs at it, as the
// hardware's. Page-table pages below the root are allocated on demand by map() and freed
// by unmap() as soon as they hold no valid entry (VM-PT-3). map() and unmap()
// are all-or-nothing: a rejected call changes no entry (VM-MAP-2, VM-MAP-4).
// Not thread-safe: GpuVm serialises access.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>

#include "gpu/vm/pte.h"

namespace rocref::gpu::vm {

class PageTable {
 public:
  PageTable();
  ~PageTable();
  PageTable(const PageTable&) = delete;
  PageTable& operator=(const PageTable&) = delete;

  // Maps npages GPU pages from va onto host pages from host_page with the PTE
  // flags given (kPteValid is added). -EINVAL when va/host are not page
  // aligned, the range leaves the 48-bit space, npages is 0, or any page of
  // the range is already mapped (VM-MAP-2: mappings never overlap).
  int map(uint64_t va, uint64_t host_page, uint64_t npages, uint64_t flags);
  // Clears npages PTEs from va. -EINVAL unless every page of the range is mapped.
  int unmap(uint64_t va, uint64_t npages);
  // The PTE for va, or 0 when unmapped (VM-XLATE-1).
  uint64_t walk(uint64_t va) const noexcept;

  size_t table_pages() const noexcept { return table_pages_; }  // including the root
  size_t mapped_pages() const noexcept { return mapped_pages_; }

 private:
  struct Table;
  static Table* next_table(uint64_t pde) noexcept;  // the table a PDE points at, or null
  static bool range_ok(uint64_t va, uint64_t npages) noexcept;
  unsigned index(uint64_t va, unsigned level) const noexcept;
  void install(uint64_t va, uint64_t pte);
  void clear(uint64_t va);
  void free_table(Table* t, unsigned level);

  std::unique_ptr<Table> root_;
  size_t table_pages_ = 1;
  size_t mapped_pages_ = 0;
};

}  // namespace rocref::gpu::vm
