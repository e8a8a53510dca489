// proofs/gpuvm/gpuvm_agreement_test.cpp - the Z3 encoding and src/gpu/vm give the same answers on
// random concrete page-table states: translate result or fault (cause, page), PTEs after map/unmap.
//
// The decision itself is single-sourced (gpu/vm/vm_rules.h); what this checks is what is not: the
// Z3 domain's operators against C++'s, the encoding's bounded fold against GpuVm::resolve's loop,
// and the flat page-table arrays of the sequence model against PageTable's radix tree and Tlb.
#include <gtest/gtest.h>

#include <array>
#include <cerrno>
#include <cstdio>
#include <memory>
#include <random>
#include <vector>

#include "gpu/vm/gpu_vm.h"
#include "gpu/vm/vm_mutant.h"
#include "proofs/gpuvm/gpuvm_encoding.h"

namespace rocref::proofs::gpuvm {
namespace {

namespace vm = rocref::gpu::vm;
using rocref::gpu::Access;

uint64_t num(const z3::expr& e) {
  uint64_t v = 0;
  EXPECT_TRUE(e.simplify().is_numeral_u64(v)) << e.simplify();
  return v;
}

Access access_of(unsigned a) {
  static const Access all[] = {Access::Read, Access::Write, Access::ReadWrite, Access::Execute};
  return all[a & 3];
}

uint64_t random_flags(std::mt19937_64& rng) {
  uint64_t f = 0;
  if (rng() % 8) f |= vm::kPteReadable;  // mostly readable, sometimes not
  if (rng() % 2) f |= vm::kPteWriteable;
  if (rng() % 3 == 0) f |= vm::kPteExecutable;
  if (rng() % 4 == 0) f |= vm::kPteSystem;
  return f;
}

// Fills a VM with buffers of partial-page sizes over a 24-page window: adjacent buffers, gaps, and
// backings that are sometimes host-contiguous with the previous buffer's (so a crossing access succeeds).
void random_state(std::mt19937_64& rng, vm::GpuVm& v, uint64_t window) {
  uint64_t host = 0x4000'0000'0000 + (rng() % 64) * vm::kPageSize;
  for (uint64_t page = 0; page < 24;) {
    const uint64_t size = 1 + rng() % (3 * vm::kPageSize);  // 1 byte .. 3 pages, rounded up by map()
    const uint64_t pages = (size + vm::kPageSize - 1) / vm::kPageSize;
    if (rng() % 4) {
      ASSERT_EQ(v.map(window + page * vm::kPageSize, host, size, random_flags(rng)), 0);
    }
    page += pages + (rng() % 3 == 0 ? 1 : 0);
    host += pages * vm::kPageSize + (rng() % 2 ? 0 : vm::kPageSize * (1 + rng() % 4));
  }
}

// Runs `cases` random translations on random states; returns how many disagreed.
// seen[code]: how often each outcome came up; seen[6]: clean translations that crossed a page.
int translate_disagreements(std::initializer_list<VmMutant> src_bugs, std::initializer_list<VmMutant> z3_bugs,
                            int cases, uint64_t seed, std::array<int, 7>* seen = nullptr) {
  std::mt19937_64 rng(seed);
  z3::context c;  // one context for all cases: creating one costs more than a case
  int mismatches = 0;
  std::vector<std::unique_ptr<vm::ScopedVmMutant>> on;
  for (VmMutant m : src_bugs) on.push_back(std::make_unique<vm::ScopedVmMutant>(m));
  const uint64_t windows[] = {0x1000'0000, 0x7fff'fffe'8000, 0x0000'001f'f000};  // plain, top of VA, across a 2 MiB table
  for (int i = 0; i < cases; ++i) {
    vm::VmFault fault;
    int reports = 0;
    vm::GpuVm v(3, [&](const vm::VmFault& f) {
      fault = f;
      ++reports;
    });
    const uint64_t window = windows[rng() % 3];
    random_state(rng, v, window);
    const uint64_t va = window + rng() % (26 * vm::kPageSize);
    const uint64_t len = 1 + rng() % (4 * vm::kPageSize);  // touches at most 5 pages
    const unsigned a = static_cast<unsigned>(rng() % 4);
    const uintptr_t got = reinterpret_cast<uintptr_t>(v.translate(va, len, access_of(a)));

    const VmZ3Domain d = z3_domain(c, z3_bugs);
    z3::expr ptes = z3::const_array(c.bv_sort(64), c.bv_val(0, 64));
    for (uint64_t p = va & ~(vm::kPageSize - 1); p < va + len; p += vm::kPageSize) ptes = z3::store(ptes, d.u64(p), d.u64(v.pte(p)));
    z3::expr within = c.bool_val(true);
    const vm::Xlate<VmZ3Domain> x = xlate_range(d, ptes, d.u64(va), d.u64(len), access_need(d, c.bv_val(a, 2)), 4, &within);
    EXPECT_TRUE(within.simplify().is_true());
    const uint64_t code = num(x.fault);
    if (seen) {
      ++(*seen)[code];
      if (code == vm::kXlateOk && (va >> vm::kPageShift) != ((va + len - 1) >> vm::kPageShift)) ++(*seen)[6];
    }
    bool same = (code == vm::kXlateOk) == (got != 0);
    if (same && code == vm::kXlateOk) same = got == num(vm::xlate_address(d, x, d.u64(va))) && reports == 0;
    if (same && code != vm::kXlateOk) {
      same = reports == 1 && fault.va == num(x.fault_page) && fault.read_only == (code == vm::kXlateReadOnly) &&
             fault.no_execute == (code == vm::kXlateNoExecute) &&
             fault.not_present == (code == vm::kXlateNotPresent || code == vm::kXlateNotReadable ||
                                   code == vm::kXlateNotContiguous);
    }
    if (!same && ++mismatches <= 3) {
      std::printf("  disagreement: va 0x%llx len %llu access %u: src %s 0x%llx (fault page 0x%llx), Z3 code %llu page 0x%llx\n",
                  (unsigned long long)va, (unsigned long long)len, a, got ? "host" : "fault", (unsigned long long)got,
                  (unsigned long long)fault.va, (unsigned long long)code, (unsigned long long)num(x.fault_page));
    }
  }
  return mismatches;
}

TEST(GpuVmAgreement, VM_SRC_1_TranslateDecisionAgreesOnRandomStates) {
  std::array<int, 7> seen{};
  EXPECT_EQ(translate_disagreements({}, {}, 300, 1, &seen), 0);
  // The random states reach every outcome, including clean page-crossing translations.
  for (int code = 0; code < 7; ++code) EXPECT_GT(seen[code], 0) << "outcome " << code << " never came up";
}

// The planted bugs take the same branch in both: with the same switch on in src and in the domain they still agree.
TEST(GpuVmAgreement, VM_SRC_1_MutantsTakeTheSameBranchInBoth) {
  for (VmMutant m : {VmMutant::PermissionIgnored, VmMutant::TranslateChecksFirstPageOnly, VmMutant::LevelIndexOffByOne})
    EXPECT_EQ(translate_disagreements({m}, {m}, 80, 2), 0) << static_cast<int>(m);
}

// The agreement check can fail: a bug on one side only is found.
TEST(GpuVmAgreement, VM_SRC_1_OneSidedBugIsFound) {
  EXPECT_GT(translate_disagreements({VmMutant::TranslateChecksFirstPageOnly}, {}, 80, 3), 0);
  EXPECT_GT(translate_disagreements({}, {VmMutant::PermissionIgnored}, 80, 4), 0);
}

// The sequence model's flat arrays and shared tagged TLB against two GpuVms (each with its own TLB,
// the KFD invalidating after unmap): same PTE at every touched page, same translate outcome.
int sequence_disagreements(bool z3_skips_invalidation, int runs, uint64_t seed) {
  std::mt19937_64 rng(seed);
  int mismatches = 0;
  for (int run = 0; run < runs; ++run) {
    z3::context c;
    const VmZ3Domain d = z3_domain(c);
    SeqConfig cfg;
    cfg.kfd_invalidates = !z3_skips_invalidation;
    SeqState s = empty_state(c);
    vm::GpuVm vms[2] = {vm::GpuVm(0), vm::GpuVm(1)};
    for (int k = 0; k < 16; ++k) {
      // Each run opens with map, translate (fills the TLB), unmap, translate of one page, then goes random.
      static const unsigned kOpening[] = {kMap, kTranslate, kUnmap, kTranslate};
      const unsigned x = k < 4 ? 0 : static_cast<unsigned>(rng() % 2);
      const unsigned op = k < 4 ? kOpening[k] : static_cast<unsigned>(rng() % 4);
      const uint64_t vpn = 0x123450 + (k < 4 ? 0 : rng() % 4), flags3 = k < 4 ? 1 : rng() % 8, access = k < 4 ? 0 : rng() % 4;
      const uint64_t frame = (uint64_t{x} << (kOwnerBit - vm::kPageShift)) | (0x777 + rng() % 16);  // own pages only
      const SeqOp o{c.bv_val(x, 1), c.bv_val(op, 2), c.bv_val(vpn, kVpnBits), c.bv_val(frame, kVpnBits),
                    c.bv_val(flags3, 3), c.bv_val(access, 2)};
      const SeqStep st = seq_step(d, cfg, s, o);
      const uint64_t va = vpn << vm::kPageShift;
      bool same = true;
      if (op == kMap) {
        const uint64_t f = num(map_flags(d, c.bv_val(flags3, 3)));
        vms[x].map(va, frame << vm::kPageShift, vm::kPageSize, f);
      } else if (op == kUnmap) {
        if (vms[x].unmap(va, vm::kPageSize) == 0) vms[x].invalidate_tlb_range(va, vm::kPageSize);
      } else if (op == kTranslate) {
        const uintptr_t got = reinterpret_cast<uintptr_t>(vms[x].translate(va, 1, access_of(static_cast<unsigned>(access))));
        const uint64_t code = num(st.fault);
        same = (code == vm::kXlateOk) == (got != 0) && (got == 0 || got == num(vm::pte_host(d, st.result)));
      } else {
        vms[0].invalidate_tlb();
        vms[1].invalidate_tlb();
      }
      s = st.next;
      for (unsigned y = 0; y < 2; ++y)
        for (uint64_t p = 0x123450; p < 0x123454; ++p)
          same = same && num(z3::select(s.pt(y), c.bv_val(p, kVpnBits))) == vms[y].pte(p << vm::kPageShift);
      if (!same) {
        ++mismatches;
        break;
      }
    }
  }
  return mismatches;
}

TEST(GpuVmAgreement, VM_SRC_1_SequenceModelAgreesWithPageTableAndTlb) {
  EXPECT_EQ(sequence_disagreements(false, 20, 5), 0);
}

TEST(GpuVmAgreement, VM_SRC_1_SequenceModelWithoutInvalidationDisagrees) {
  EXPECT_EQ(sequence_disagreements(true, 5, 6), 5);  // every run: the stale translate
}

// The encoding's own codes for an operation's fields name src's values: access code k is
// access_of(k)'s Access bits (page_fault's `need`), map flag bit i (R, W, X) pte.h's flag.
TEST(GpuVmAgreement, VM_SRC_1_EncodingCodesAreSrcValues) {
  z3::context c;
  const VmZ3Domain d = z3_domain(c);
  for (unsigned a = 0; a < 4; ++a) {
    EXPECT_EQ(num(access_need(d, c.bv_val(a, 2))), static_cast<uint64_t>(access_of(a))) << "access code " << a;
  }
  const uint64_t pte_bit[3] = {vm::kPteReadable, vm::kPteWriteable, vm::kPteExecutable};
  for (unsigned f = 0; f < 8; ++f) {
    uint64_t want = 0;
    for (unsigned i = 0; i < 3; ++i) want |= (f >> i & 1) ? pte_bit[i] : 0;
    EXPECT_EQ(num(map_flags(d, c.bv_val(f, 3))), want) << "flags " << f;
    EXPECT_EQ(num(map_flags(d, c.bv_val(f, 3))) & ~vm::kPteFlagMask, 0u) << "flags " << f;
  }
}

}  // namespace
}  // namespace rocref::proofs::gpuvm
