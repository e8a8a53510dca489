// gpu/vm/page_table.cpp - the 4-level radix page table: walk, map, unmap, free when empty.
#include "gpu/vm/page_table.h"

#include <cerrno>

#include "gpu/vm/vm_mutant.h"
#include "gpu/vm/vm_rules.h"

namespace rocref::gpu::vm {

// One 4 KiB table page, as the hardware's: 512 entries of 8 bytes. Above the last level an
// entry is a PDE holding the next table's address (0: none); at the last level it is a PTE.
// So a mapping costs what its page tables cost on the GPU, 8 bytes per 4 KiB page plus the
// directories above, and nothing per page that no mapping covers.
struct PageTable::Table {
  uint64_t entry[kEntriesPerTable] = {};
  uint32_t used = 0;  // valid entries: the page is freed when it reaches 0
};

PageTable::Table* PageTable::next_table(uint64_t pde) noexcept { return reinterpret_cast<Table*>(pde); }

PageTable::PageTable() : root_(std::make_unique<Table>()) {}

PageTable::~PageTable() { free_table(root_.release(), 0); }

void PageTable::free_table(Table* t, unsigned level) {
  if (!t) return;
  if (level + 1 < kLevels)
    for (uint64_t pde : t->entry) free_table(next_table(pde), level + 1);
  delete t;
}

bool PageTable::range_ok(uint64_t va, uint64_t npages) noexcept {
  if (!page_aligned(va) || npages == 0 || va >= kVaLimit) return false;
  return npages <= (kVaLimit - va) >> kPageShift;
}

unsigned PageTable::index(uint64_t va, unsigned level) const noexcept {
  return static_cast<unsigned>(table_index(VmConcreteDomain{}, va, level));  // VM-VA-1, VM-SRC-1
}

uint64_t PageTable::walk(uint64_t va) const noexcept {
  if (va >= kVaLimit) return 0;
  const Table* t = root_.get();
  for (unsigned level = 0; level + 1 < kLevels; ++level) {
    t = next_table(t->entry[index(va, level)]);
    if (!t) return 0;
  }
  return t->entry[index(va, kLevels - 1)];
}

void PageTable::install(uint64_t va, uint64_t pte) {
  Table* t = root_.get();
  for (unsigned level = 0; level + 1 < kLevels; ++level) {
    const unsigned i = index(va, level);
    if (!t->entry[i]) {
      t->entry[i] = reinterpret_cast<uintptr_t>(new Table());
      ++t->used;
      ++table_pages_;
    }
    t = next_table(t->entry[i]);
  }
  const unsigned i = index(va, kLevels - 1);
  if (!(t->entry[i] & kPteValid)) ++t->used;
  t->entry[i] = pte;
}

void PageTable::clear(uint64_t va) {
  Table* path[kLevels] = {};
  unsigned idx[kLevels] = {};
  Table* t = root_.get();
  for (unsigned level = 0; level < kLevels; ++level) {
    path[level] = t;
    idx[level] = index(va, level);
    if (level + 1 < kLevels) t = next_table(t->entry[idx[level]]);
    if (!t) return;
  }
  Table* leaf = path[kLevels - 1];
  if (!(leaf->entry[idx[kLevels - 1]] & kPteValid)) return;
  leaf->entry[idx[kLevels - 1]] = 0;
  --leaf->used;
  if (vm_mutant_active(VmMutant::EmptyTablesKept)) return;
  // VM-PT-3: free every page on the path that became empty, bottom up; never the root.
  for (unsigned level = kLevels - 1; level > 0; --level) {
    if (path[level]->used != 0) break;
    Table* parent = path[level - 1];
    delete path[level];
    parent->entry[idx[level - 1]] = 0;
    --parent->used;
    --table_pages_;
  }
}

int PageTable::map(uint64_t va, uint64_t host_page, uint64_t npages, uint64_t flags) {
  if (!range_ok(va, npages) || !page_aligned(host_page)) return -EINVAL;
  if (host_page + (npages << kPageShift) - 1 > kPteAddrMask + (kPageSize - 1)) return -EINVAL;
  for (uint64_t p = 0; p < npages; ++p)  // VM-MAP-2: check the whole range before touching it
    if (walk(va + (p << kPageShift)) & kPteValid) return -EINVAL;
  for (uint64_t p = 0; p < npages; ++p)
    install(va + (p << kPageShift), make_pte(VmConcreteDomain{}, host_page + (p << kPageShift), flags | kPteValid));
  mapped_pages_ += npages;
  return 0;
}

int PageTable::unmap(uint64_t va, uint64_t npages) {
  if (!range_ok(va, npages)) return -EINVAL;
  for (uint64_t p = 0; p < npages; ++p)
    if (!(walk(va + (p << kPageShift)) & kPteValid)) return -EINVAL;
  uint64_t n = npages;
  if (vm_mutant_active(VmMutant::UnmapLeavesLastPage) && n > 1) --n;
  for (uint64_t p = 0; p < n; ++p) clear(va + (p << kPageShift));
  mapped_pages_ -= n;
  return 0;
}

}  // namespace rocref::gpu::vm
