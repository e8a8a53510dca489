// tests/property/gpuvm/gpuvm_ops.cpp - the model, the decoder and the step-by-step comparison.
#include "gpuvm_ops.h"

#include <rapidcheck.h>

#include <cerrno>
#include <cstdio>
#include <map>
#include <set>
#include <string>

#include "gpu/vm/gpu_vm.h"

namespace gpuvm_prop {

Reached g_reached;

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

std::string hex(uint64_t v) {
  char text[24];
  std::snprintf(text, sizeof text, "0x%llx", static_cast<unsigned long long>(v));
  return text;
}

std::string flags_text(uint64_t f) {
  std::string s;
  s += (f & kPteReadable) ? "R" : "-";
  s += (f & kPteWriteable) ? "W" : "-";
  s += (f & kPteExecutable) ? "X" : "-";
  if (f & kPteSystem) s += " S";
  return s;
}

struct World {
  std::map<uint64_t, Entry> model;  // GPU page -> (host page, flags): the flat model
  // Host pages above 2^47, so a PTE that loses bit 47 shows; separate buffers get a gap unless
  // the op asks for a backing right after the previous buffer's (host-contiguous neighbours).
  uint64_t next_host = 0x8000'1000'0000;
  std::map<uint64_t, int> buffer;  // GPU page -> the map call that mapped it
  int maps = 0;
  uint64_t last_end = 0;       // first page after the last mapped buffer
  uint64_t last_boundary = 0;  // start of the last buffer mapped right after another one (0: none yet)
  std::vector<VmFault> faults;
  std::vector<std::string> log;  // the operations so far, for the counterexample
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

  // The operation sequence and the page table (the model's, as mapped ranges) for a failure report.
  std::string describe() const {
    std::string out = "operations:\n";
    for (size_t i = 0; i < log.size(); ++i) out += "  " + std::to_string(i + 1) + ". " + log[i] + "\n";
    out += "page table of VMID 7 before the failing check (mapped ranges, host, flags):\n";
    if (model.empty()) out += "  (nothing mapped)\n";
    for (auto it = model.begin(); it != model.end();) {
      const uint64_t va = it->first, host = it->second.host, flags = it->second.flags;
      uint64_t n = 1;
      auto next = std::next(it);
      while (next != model.end() && next->first == va + n * kPageSize && next->second.host == host + n * kPageSize &&
             next->second.flags == flags) {
        ++n;
        ++next;
      }
      out += "  [" + hex(va) + ", " + hex(va + n * kPageSize) + ") -> host " + hex(host) + " " + flags_text(flags) + "\n";
      it = next;
    }
    return out;
  }
};

// RC_ASSERT with the readable state: the clause, the operations and the page table at the failure.
#define GPUVM_EXPECT(w, cond, clause)                                                              \
  do {                                                                                             \
    if (!(cond)) RC_FAIL(std::string(clause) + ": " #cond " does not hold\n" + (w).describe()); \
  } while (0)

uint64_t flags_of(uint8_t b) {
  uint64_t f = (b & 8) ? 0 : kPteReadable;  // one in two maps without READABLE (VM-PERM-1 read faults)
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

const char* access_name(Access a) {
  switch (a) {
    case Access::Read: return "read";
    case Access::Write: return "write";
    case Access::ReadWrite: return "read-write";
    default: return "execute";
  }
}

bool permits(uint64_t flags, Access a) {
  const unsigned need = static_cast<unsigned>(a);
  if ((need & 1) && !(flags & kPteReadable)) return false;
  if ((need & 2) && !(flags & kPteWriteable)) return false;
  if ((need & 4) && !(flags & kPteExecutable)) return false;
  return true;
}

// Sizes: whole pages or a partial last page (1 byte .. a page short of npages), rounded up by map/unmap.
uint64_t size_of(uint64_t npages, uint8_t b) {
  if (b & 0x10) return npages * kPageSize;
  return (npages - 1) * kPageSize + 1 + (uint64_t(b) * 97) % (kPageSize - 1);
}

void step(World& w, const RawOp& op) {
  // One op in four works next to the last buffer: a map right after it, a translation across its start.
  const bool next_to_last = (op[7] & 6) == 6 && w.last_end != 0;
  const uint64_t va_aligned =
      next_to_last ? w.last_end : kBases[op[1] % std::size(kBases)] + uint64_t(op[2] % 6) * kPageSize;
  // One map/unmap in eight starts off a page boundary: GPUVM must refuse it (VM-MAP-2, VM-MAP-4).
  uint64_t va = (op[5] & 0x0e) == 0x0e ? va_aligned + 1 + op[6] * 13 % (kPageSize - 1) : va_aligned;
  uint64_t npages = 1 + op[3] % 4;
  uint64_t size = size_of(npages, op[5]);
  switch (op[0] % 4) {
    case 0: {  // map
      bool free = va % kPageSize == 0 && va + npages * kPageSize <= kVaLimit;
      for (uint64_t p = 0; free && p < npages; ++p) free = !w.model.count(va + p * kPageSize);
      // Half the buffers are backed right after the previous one (a crossing access then translates).
      const bool adjacent_backing = op[7] & 1;
      const uint64_t host = w.next_host;
      const uint64_t flags = flags_of(op[4]);
      const int rc = w.vm.map(va, host, size, flags);
      w.log.push_back("map   va " + hex(va) + " size " + hex(size) + " -> host " + hex(host) + " " + flags_text(flags) +
                      ": " + (rc == 0 ? "ok" : "-EINVAL"));
      GPUVM_EXPECT(w, rc == (free ? 0 : -EINVAL), "VM-MAP-2");
      if (va % kPageSize) ++g_reached.unaligned_refused;  // never overlap, never misaligned; refused maps change nothing
      if (rc == 0) {
        ++w.maps;
        for (uint64_t p = 0; p < npages; ++p) {
          w.model[va + p * kPageSize] = Entry{host + p * kPageSize, flags};
          w.buffer[va + p * kPageSize] = w.maps;
        }
        w.next_host += npages * kPageSize + (adjacent_backing ? 0 : kPageSize);
        if (next_to_last) w.last_boundary = va;
        w.last_end = va + npages * kPageSize;
        if (size % kPageSize) ++g_reached.partial_page_maps;
      }
      break;
    }
    case 1: {  // unmap (often the middle of a buffer), then the KFD's TLB invalidation
      if (next_to_last) {  // the page before the last buffer's last page: its middle when it has 3 or more
        va = w.last_end - 2 * kPageSize;
        npages = 1;
        size = size_of(1, op[5]);
      }
      bool all = va % kPageSize == 0;
      for (uint64_t p = 0; all && p < npages; ++p) all = w.model.count(va + p * kPageSize) != 0;
      const int rc = w.vm.unmap(va, size);
      w.log.push_back("unmap va " + hex(va) + " size " + hex(size) + ": " + (rc == 0 ? "ok" : "-EINVAL") +
                      (rc == 0 ? ((op[5] & 1) ? ", TLB range invalidated" : ", TLB invalidated") : ""));
      GPUVM_EXPECT(w, rc == (all ? 0 : -EINVAL), "VM-MAP-4");
      if (rc == 0) {
        if (w.model.count(va - kPageSize) && w.buffer.at(va - kPageSize) == w.buffer.at(va) &&
            w.model.count(va + npages * kPageSize) && w.buffer.at(va + npages * kPageSize) == w.buffer.at(va))
          ++g_reached.middle_unmaps;  // the buffer stays mapped on both sides
        for (uint64_t p = 0; p < npages; ++p) w.model.erase(va + p * kPageSize);
        if (op[5] & 1) w.vm.invalidate_tlb_range(va, size);
        else w.vm.invalidate_tlb();
      }
      break;
    }
    default: {  // translate (twice as likely: it fills and uses the TLB)
      // Any byte of the first pages and up to three pages long: unaligned, crossing into the
      // next page(s), which may belong to another buffer (adjacent or not) or be unmapped.
      uint64_t at = va_aligned + (uint64_t(op[6]) * 61 + op[3]) % (2 * kPageSize);
      size_t len = 1 + (uint64_t(op[7]) * 53 + op[5]) % (3 * kPageSize);
      if (next_to_last && w.last_boundary != 0) {  // straddle the boundary between two separately mapped buffers
        at = w.last_boundary - 1 - op[6] % 64;
        len = 2 + op[6] % 64 + op[3] % 128;
      }
      const Access a = access_of(op[4]);
      // Expected: every page mapped, permitted and host-contiguous with the first (VM-XLATE-1..3).
      const uint64_t first_page = at & ~(kPageSize - 1);
      uint64_t expect = 0;
      uint64_t bad_page = UINT64_MAX;
      bool read_only = false;
      // A range leaving the 48-bit space faults as a whole, at its first page (VM-XLATE-2).
      if (at + len > kVaLimit) bad_page = first_page;
      for (uint64_t page = first_page; bad_page == UINT64_MAX && page <= ((at + len - 1) & ~(kPageSize - 1));
           page += kPageSize) {
        auto it = w.model.find(page);
        const bool first = page == first_page;
        if (it == w.model.end() || !permits(it->second.flags, a) ||
            (!first && it->second.host != w.model.at(first_page).host + (page - first_page))) {
          bad_page = page;
          // read_only only when the write bit is what is missing (a missing READABLE is checked first).
          const unsigned need = static_cast<unsigned>(a);
          read_only = it != w.model.end() && !((need & 1) && !(it->second.flags & kPteReadable)) && (need & 2) &&
                      !(it->second.flags & kPteWriteable);
          break;
        }
        if (first) expect = it->second.host + (at & (kPageSize - 1));
      }
      const bool crosses = first_page != ((at + len - 1) & ~(kPageSize - 1));
      bool two_buffers = false;  // the range's pages were mapped by different map calls
      if (crosses && bad_page == UINT64_MAX) two_buffers = w.buffer.at(first_page) != w.buffer.at((at + len - 1) & ~(kPageSize - 1));
      if (crosses && bad_page == UINT64_MAX && two_buffers) ++g_reached.across_buffers;
      if (crosses && bad_page != UINT64_MAX) ++g_reached.crossing_faults;
      const size_t faults_before = w.faults.size();
      void* got = w.vm.translate(at, len, a);
      w.log.push_back("translate va " + hex(at) + " len " + hex(len) + " " + access_name(a) + ": " +
                      (got ? "host " + hex(reinterpret_cast<uintptr_t>(got)) : std::string("fault")) +
                      (bad_page == UINT64_MAX ? "" : " (expected a fault at " + hex(bad_page) + ")"));
      if (bad_page == UINT64_MAX) {
        GPUVM_EXPECT(w, reinterpret_cast<uintptr_t>(got) == expect, "VM-XLATE-1");
        GPUVM_EXPECT(w, w.faults.size() == faults_before, "VM-FAULT-1");
      } else {
        // VM-XLATE-2/3, VM-PERM-1, VM-TLB-2: no stale, partial or forbidden translation.
        GPUVM_EXPECT(w, reinterpret_cast<uintptr_t>(got) == uintptr_t{0}, "VM-XLATE-2");
        GPUVM_EXPECT(w, w.faults.size() == faults_before + 1, "VM-FAULT-1");
        GPUVM_EXPECT(w, w.faults.back().va == bad_page, "VM-XLATE-2");  // the first page that does not qualify
        GPUVM_EXPECT(w, w.faults.back().read_only == read_only, "VM-PERM-1");
      }
      break;
    }
  }
  GPUVM_EXPECT(w, w.vm.mapped_pages() == w.model.size(), "VM-MAP-1");
  GPUVM_EXPECT(w, w.vm.table_pages() == w.expected_table_pages(), "VM-PT-3");  // VM-PT-1, VM-PT-2 too
  for (const auto& [page, e] : w.model)  // VM-PTE-1: every PTE decodes to the model's host page and flags
    GPUVM_EXPECT(w, w.vm.pte(page) == (e.host | e.flags | kPteValid), "VM-PTE-1");
}

}  // namespace

void check_sequence(const std::vector<RawOp>& ops) {
  World w;
  for (const RawOp& op : ops) step(w, op);
  // VM-MAP-3: unmapping everything restores the empty translation function and frees all tables.
  std::vector<uint64_t> pages;
  for (const auto& [va, e] : w.model) pages.push_back(va);
  for (uint64_t va : pages) GPUVM_EXPECT(w, w.vm.unmap(va, kPageSize) == 0, "VM-MAP-3");
  w.vm.invalidate_tlb();
  for (uint64_t va : pages)
    GPUVM_EXPECT(w, reinterpret_cast<uintptr_t>(w.vm.translate(va, 1, Access::Read)) == uintptr_t{0}, "VM-MAP-3");
  GPUVM_EXPECT(w, w.vm.table_pages() == 1u, "VM-PT-3");
}

}  // namespace gpuvm_prop
