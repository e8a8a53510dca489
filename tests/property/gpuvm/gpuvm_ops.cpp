// tests/property/gpuvm/gpuvm_ops.cpp - the model, the decoder and the step-by-step comparison.
#include "gpuvm_ops.h"

#include <rapidcheck.h>

#include <cerrno>
#include <map>
#include <set>

#include "gpu/vm/gpu_vm.h"

namespace gpuvm_prop {
namespace {

using namespace rocref::gpu;
using namespace rocref::gpu::vm;

// Bases on and around every level boundary, and two pages 256 apart in one 2 MiB table
// (they collide if the last level is indexed one bit too low).
constexpr uint64_t kBases[] = {
    0x0000'0000'1000, 0x0000'0010'0000, 0x0000'001f'e000, 0x0000'0020'0000, 0x0000'3fff'e000,
    0x0000'4000'0000, 0x007f'ffff'e000, 0x0080'0000'0000, 0xffff'ffff'c000, 0x7fff'ffff'e000,
};

struct Entry {
  uint64_t host;
  uint64_t flags;
};

struct World {
  std::map<uint64_t, Entry> model;  // GPU page -> (host page, flags): the flat model
  uint64_t next_host = 0x1000'0000'0000;
  std::vector<VmFault> faults;
  GpuVm vm{7, [this](const VmFault& f) { faults.push_back(f); }};

  size_t expected_table_pages() const {
    std::set<uint64_t> l1, l2, l3;
    for (const auto& [va, e] : model) {
      l1.insert(va >> 39);
      l2.insert(va >> 30);
      l3.insert(va >> 21);
    }
    return 1 + l1.size() + l2.size() + l3.size();
  }
};

uint64_t flags_of(uint8_t b) {
  uint64_t f = kPteReadable;
  if (b & 1) f |= kPteWriteable;
  if (b & 2) f |= kPteExecutable;
  if (b & 4) f |= kPteSystem;
  return f;
}

Access access_of(uint8_t b) {
  switch (b % 4) {
    case 0: return Access::Read;
    case 1: return Access::Write;
    case 2: return Access::ReadWrite;
    default: return Access::Execute;
  }
}

bool permits(uint64_t flags, Access a) {
  const unsigned need = static_cast<unsigned>(a);
  if ((need & 1) && !(flags & kPteReadable)) return false;
  if ((need & 2) && !(flags & kPteWriteable)) return false;
  if ((need & 4) && !(flags & kPteExecutable)) return false;
  return true;
}

void step(World& w, const RawOp& op) {
  const uint64_t va = kBases[op[1] % std::size(kBases)] + uint64_t(op[2] % 4) * kPageSize;
  const uint64_t npages = 1 + op[3] % 4;
  const uint64_t size = npages * kPageSize;
  switch (op[0] % 4) {
    case 0: {  // map
      bool free = va + size <= kVaLimit;
      for (uint64_t p = 0; free && p < npages; ++p) free = !w.model.count(va + p * kPageSize);
      const uint64_t host = w.next_host;
      const uint64_t flags = flags_of(op[4]);
      const int rc = w.vm.map(va, host, size, flags);
      RC_ASSERT(rc == (free ? 0 : -EINVAL));  // VM-MAP-2: never overlap; refused maps change nothing
      if (rc == 0) {
        for (uint64_t p = 0; p < npages; ++p) w.model[va + p * kPageSize] = Entry{host + p * kPageSize, flags};
        w.next_host += size + kPageSize;  // a gap: separate buffers are not host-contiguous
      }
      break;
    }
    case 1: {  // unmap, then the KFD's TLB invalidation
      bool all = true;
      for (uint64_t p = 0; all && p < npages; ++p) all = w.model.count(va + p * kPageSize) != 0;
      const int rc = w.vm.unmap(va, size);
      RC_ASSERT(rc == (all ? 0 : -EINVAL));  // VM-MAP-4
      if (rc == 0) {
        for (uint64_t p = 0; p < npages; ++p) w.model.erase(va + p * kPageSize);
        if (op[5] & 1) w.vm.invalidate_tlb_range(va, size);
        else w.vm.invalidate_tlb();
      }
      break;
    }
    default: {  // translate (twice as likely: it fills and uses the TLB)
      const uint64_t at = va + (op[6] % 8) * 512;
      const size_t len = 1 + op[7] % 64;
      const Access a = access_of(op[4]);
      // Expected: every page mapped, permitted and host-contiguous with the first.
      uint64_t expect = 0;
      uint64_t bad_page = UINT64_MAX;
      for (uint64_t page = at & ~(kPageSize - 1); page <= ((at + len - 1) & ~(kPageSize - 1)); page += kPageSize) {
        auto it = w.model.find(page);
        const bool first = page == (at & ~(kPageSize - 1));
        if (it == w.model.end() || !permits(it->second.flags, a) ||
            (!first && it->second.host != w.model.at(at & ~(kPageSize - 1)).host + (page - (at & ~(kPageSize - 1))))) {
          bad_page = page;
          break;
        }
        if (first) expect = it->second.host + (at & (kPageSize - 1));
      }
      const size_t faults_before = w.faults.size();
      void* got = w.vm.translate(at, len, a);
      if (bad_page == UINT64_MAX) {
        RC_ASSERT(reinterpret_cast<uintptr_t>(got) == expect);  // VM-XLATE-1
        RC_ASSERT(w.faults.size() == faults_before);
      } else {
        RC_ASSERT(reinterpret_cast<uintptr_t>(got) == uintptr_t{0});  // VM-FAULT-1, VM-TLB-2: no stale or forbidden translation
        RC_ASSERT(w.faults.size() == faults_before + 1);
        RC_ASSERT(w.faults.back().va == bad_page);
      }
      break;
    }
  }
  RC_ASSERT(w.vm.mapped_pages() == w.model.size());
  RC_ASSERT(w.vm.table_pages() == w.expected_table_pages());  // VM-PT-1, VM-PT-3
}

}  // namespace

void check_sequence(const std::vector<RawOp>& ops) {
  World w;
  for (const RawOp& op : ops) step(w, op);
  // VM-MAP-3: unmapping everything restores the empty translation function and frees all tables.
  std::vector<uint64_t> pages;
  for (const auto& [va, e] : w.model) pages.push_back(va);
  for (uint64_t va : pages) RC_ASSERT(w.vm.unmap(va, kPageSize) == 0);
  w.vm.invalidate_tlb();
  for (uint64_t va : pages) RC_ASSERT(reinterpret_cast<uintptr_t>(w.vm.translate(va, 1, Access::Read)) == uintptr_t{0});
  RC_ASSERT(w.vm.table_pages() == 1u);
}

}  // namespace gpuvm_prop
