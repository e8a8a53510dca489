// proofs/gpuvm/gpuvm_proofs.cpp - the GPUVM proofs: bijections, translate decision, TLB coherence,
// restore, isolation, freeing; the rules are src/gpu/vm/vm_rules.h's, instantiated over Z3.
#include "proofs/gpuvm/gpuvm_proofs.h"

#include <chrono>
#include <cstdio>
#include <functional>
#include <map>
#include <sstream>

#include "proofs/gpuvm/gpuvm_encoding.h"
#include "proofs/gpuvm/gpuvm_trace.h"

namespace rocref::proofs::gpuvm {
namespace {

namespace vm = rocref::gpu::vm;

using Shown = std::vector<std::pair<std::string, z3::expr>>;
using Explain = std::function<std::string(const z3::model&)>;

uint64_t value(const z3::model& m, const z3::expr& e) {
  uint64_t out = 0;
  m.eval(e, true).is_numeral_u64(out);
  return out;
}

std::string hex(uint64_t v, int width = 0) {
  char text[32];
  std::snprintf(text, sizeof text, "0x%0*llx", width, static_cast<unsigned long long>(v));
  return text;
}

// VM-TLB-2 / VM-ISO-1: what must hold after one step of the sequence model.
z3::expr step_ok(const VmZ3Domain& d, SeqClaim claim, const SeqOp& o, const SeqStep& st) {
  if (claim == SeqClaim::TlbCoherent) return z3::implies(o.op == kTranslate, st.result == st.entry);
  return z3::implies(o.op == kTranslate && st.fault == d.u64(vm::kXlateOk), pte_owner(d, st.result) == o.vm);
}

Verdict check(z3::context& c, const z3::expr& claim, const std::string& clause, unsigned timeout_ms,
              const Explain& explain, Outcome holds = Outcome::Proved, uint32_t depth = 0);

Verdict check(z3::context& c, const z3::expr& claim, const std::string& clause, unsigned timeout_ms,
              const Shown& show = {}, Outcome holds = Outcome::Proved, uint32_t depth = 0) {
  return check(c, claim, clause, timeout_ms, [&](const z3::model& m) {
    std::ostringstream out;
    for (const auto& [name, e] : show) out << "  " << name << " = " << m.eval(e, true) << "\n";
    return out.str();
  }, holds, depth);
}

// Proved when !claim is unsatisfiable; a satisfying assignment is the counterexample, explained.
Verdict check(z3::context& c, const z3::expr& claim, const std::string& clause, unsigned timeout_ms,
              const Explain& explain, Outcome holds, uint32_t depth) {
  const auto t0 = std::chrono::steady_clock::now();
  z3::solver s(c);
  z3::params p(c);
  p.set("timeout", timeout_ms);
  s.set(p);
  s.add(!claim);
  Verdict v;
  v.clause = clause;
  v.depth = depth;
  switch (s.check()) {
    case z3::unsat:
      v.outcome = holds;
      break;
    case z3::sat: {
      v.outcome = Outcome::Counterexample;
      v.trace = explain(s.get_model());
      break;
    }
    default:
      v.outcome = Outcome::Unknown;
      v.note = s.reason_unknown();
  }
  v.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return v;
}

// VM-VA-1: src's table_index/page_offset: compose(split(va)) is va, and distinct pages never share indices.
Verdict va_split(bool mutant, unsigned timeout) {
  z3::context c;
  const VmZ3Domain d = mutant ? z3_domain(c, {VmMutant::LevelIndexOffByOne}) : z3_domain(c);
  const z3::expr a = c.bv_const("va1", 64), b = c.bv_const("va2", 64);
  const auto sa = split_va(d, a), sb = split_va(d, b);
  const z3::expr pre = z3::ult(a, d.u64(vm::kVaLimit)) && z3::ult(b, d.u64(vm::kVaLimit));
  z3::expr same_indices = sa[0] == sb[0] && sa[1] == sb[1] && sa[2] == sb[2] && sa[3] == sb[3];
  z3::expr composed = sa[4];
  for (unsigned level = 0; level < vm::kLevels; ++level) composed = composed | d.shl(sa[level], vm::level_shift(level));
  const z3::expr claim =
      z3::implies(pre, z3::implies(same_indices, vm::page_base(d, a) == vm::page_base(d, b)) && composed == a);
  return check(c, claim, "VM-VA-1", timeout, [&](const z3::model& m) {
    return "  va1 = " + hex(value(m, a)) + ", va2 = " + hex(value(m, b)) + ": table indices " + hex(value(m, sa[0])) +
           "/" + hex(value(m, sa[1])) + "/" + hex(value(m, sa[2])) + "/" + hex(value(m, sa[3])) + " and " +
           hex(value(m, sb[0])) + "/" + hex(value(m, sb[1])) + "/" + hex(value(m, sb[2])) + "/" + hex(value(m, sb[3])) +
           "\n";
  });
}

// VM-PTE-1: src's make_pte / pte_host / pte_flag_bits round-trip every 48-bit page and flag set.
Verdict pte_roundtrip(bool mutant, unsigned timeout) {
  z3::context c;
  const VmZ3Domain d = mutant ? z3_domain(c, {VmMutant::PteAddressDropsBit47}) : z3_domain(c);
  const z3::expr host = c.bv_const("host", 64), flags = c.bv_const("flags", 64);
  const z3::expr pre = z3::ult(host, d.u64(vm::kVaLimit)) && vm::page_offset(d, host) == d.u64(0) &&
                       (flags & ~d.u64(vm::kPteFlagMask)) == d.u64(0);
  const z3::expr pte = vm::make_pte(d, host, flags);
  const z3::expr claim = z3::implies(pre, vm::pte_host(d, pte) == host && vm::pte_flag_bits(d, pte) == flags);
  return check(c, claim, "VM-PTE-1", timeout, [&](const z3::model& m) {
    const uint64_t p = value(m, pte);
    return "  host page " + hex(value(m, host)) + ", flags " + flags_text(value(m, flags)) + ": PTE " + hex(p) +
           " decodes to host " + hex(value(m, vm::pte_host(d, pte))) + "\n";
  });
}

// VM-XLATE-1..3, VM-PERM-1: src's translate decision (vm_rules.h, folded page by page as in
// GpuVm::resolve) against the clauses written out independently, for every address, length up
// to kMaxExtra + 1 pages (any alignment) and page table; PTEs arbitrary 64-bit values.
Verdict xlate_decision(bool mutant, unsigned timeout) {
  constexpr unsigned kMaxExtra = 4;
  z3::context c;
  const VmZ3Domain d = mutant ? z3_domain(c, {VmMutant::TranslateChecksFirstPageOnly}) : z3_domain(c);
  const z3::expr ptes = c.constant("ptes", c.array_sort(c.bv_sort(64), c.bv_sort(64)));
  const z3::expr va = c.bv_const("va", 64), len = c.bv_const("len", 64), access = c.bv_const("access", 2);
  const z3::expr need = access_need(d, access);
  z3::expr within = c.bool_val(true);
  const vm::Xlate<VmZ3Domain> x = xlate_range(d, ptes, va, len, need, kMaxExtra, &within);
  // The clauses: every page of the range has a valid PTE permitting the access, and is backed
  // host-contiguously with the first; the fault names the first page that is not.
  const uint64_t page_mask = ~(vm::kPageSize - 1);
  const z3::expr first = va & d.u64(page_mask);
  const z3::expr last = (va + len - d.u64(1)) & d.u64(page_mask);
  const z3::expr pre = z3::uge(len, d.u64(1)) && z3::ult(va, d.u64(vm::kVaLimit)) &&
                       z3::ule(len, d.u64(vm::kVaLimit) - va) && z3::ule(last - first, d.u64(kMaxExtra * vm::kPageSize));
  const z3::expr addr_mask = d.u64(vm::kPteAddrMask);
  const z3::expr host0 = z3::select(ptes, first) & addr_mask;
  z3::expr clean = c.bool_val(true), fault_page = first;
  std::vector<z3::expr> in_range, good;
  for (unsigned i = 0; i <= kMaxExtra; ++i) {
    const z3::expr page = first + d.u64(uint64_t{i} * vm::kPageSize);
    const z3::expr pte = z3::select(ptes, page);
    auto set = [&](uint64_t bit) { return (pte & d.u64(bit)) != d.u64(0); };
    auto wants = [&](uint64_t bit) { return (need & d.u64(bit)) != d.u64(0); };
    const z3::expr ok = set(vm::kPteValid) && z3::implies(wants(1), set(vm::kPteReadable)) &&
                        z3::implies(wants(2), set(vm::kPteWriteable)) && z3::implies(wants(4), set(vm::kPteExecutable)) &&
                        (pte & addr_mask) == host0 + d.u64(uint64_t{i} * vm::kPageSize);
    in_range.push_back(z3::ule(page, last));
    good.push_back(ok);
    clean = clean && z3::implies(in_range.back(), ok);
  }
  for (unsigned i = kMaxExtra + 1; i-- > 0;)
    fault_page = z3::ite(in_range[i] && !good[i], first + d.u64(uint64_t{i} * vm::kPageSize), fault_page);
  const z3::expr decided_clean = x.fault == d.u64(vm::kXlateOk);
  const z3::expr claim = z3::implies(
      pre, within && decided_clean == clean &&
               z3::implies(clean, vm::xlate_address(d, x, va) == host0 + (va & d.u64(vm::kPageSize - 1))) &&
               z3::implies(!clean, x.fault_page == fault_page));
  return check(c, claim, "VM-XLATE-2", timeout, [&](const z3::model& m) {
    std::ostringstream out;
    const uint64_t v = value(m, va), l = value(m, len);
    out << "  translate va " << hex(v) << " length " << l << " (" << hex(v + l - 1) << " is the last byte), "
        << (value(m, access) == 3 ? "execute" : value(m, access) == 2 ? "read-write" : value(m, access) == 1 ? "write" : "read")
        << "\n  page table of the pages it touches:\n";
    for (uint64_t p = v & page_mask; p <= ((v + l - 1) & page_mask); p += vm::kPageSize) {
      const uint64_t pte = value(m, z3::select(ptes, d.u64(p)));
      out << "    va " << hex(p, 12) << " -> PTE " << hex(pte) << " (" << flags_text(pte) << "), host "
          << hex(pte & vm::kPteAddrMask, 12) << "\n";
    }
    out << "  the rules decide " << (value(m, x.fault) == 0 ? "a translation" : "a fault")
        << " (code " << value(m, x.fault) << ", page " << hex(value(m, x.fault_page), 12) << "); the clauses say "
        << (m.eval(clean, true).is_true() ? "translation" : "fault at " + hex(value(m, fault_page), 12)) << "\n";
    return out.str();
  });
}

// select(a, k) with a built from ite/store/const-array pushed down to selects of the base arrays,
// so the induction query is over uninterpreted arrays only (the solver times out on ite-of-arrays).
using SelectMemo = std::map<std::pair<unsigned, unsigned>, z3::expr>;

z3::expr select_through(const z3::expr& a, const z3::expr& k, SelectMemo& memo) {
  const auto id = std::make_pair(Z3_get_ast_id(a.ctx(), a), Z3_get_ast_id(k.ctx(), k));
  if (auto it = memo.find(id); it != memo.end()) return it->second;
  z3::expr out = z3::select(a, k);
  if (a.is_app()) {
    switch (a.decl().decl_kind()) {
      case Z3_OP_ITE: out = z3::ite(a.arg(0), select_through(a.arg(1), k, memo), select_through(a.arg(2), k, memo)); break;
      case Z3_OP_STORE: out = z3::ite(a.arg(1) == k, a.arg(2), select_through(a.arg(0), k, memo)); break;
      case Z3_OP_CONST_ARRAY: out = a.arg(0); break;
      default: break;
    }
  }
  memo.emplace(id, out);
  return out;
}

z3::expr push_selects(const z3::expr& e, std::map<unsigned, z3::expr>& memo, SelectMemo& selects) {
  if (!e.is_app() || e.num_args() == 0) return e;
  const unsigned id = Z3_get_ast_id(e.ctx(), e);
  if (auto it = memo.find(id); it != memo.end()) return it->second;
  z3::expr_vector args(e.ctx());
  for (unsigned i = 0; i < e.num_args(); ++i) args.push_back(push_selects(e.arg(i), memo, selects));
  const z3::expr out = e.decl().decl_kind() == Z3_OP_SELECT ? select_through(args[0], args[1], selects) : e.decl()(args);
  memo.emplace(id, out);
  return out;
}

z3::expr without_array_terms(const z3::expr& e) {
  std::map<unsigned, z3::expr> memo;
  SelectMemo selects;
  return push_selects(e, memo, selects);
}

// The sequence proofs: BMC from two empty VMs over `depth` operations.
Verdict sequence_bmc(const SeqConfig& cfg, SeqClaim claim, VmZ3Domain d, unsigned depth, unsigned timeout,
                     const std::string& clause) {
  z3::context& c = *d.ctx;
  SeqState s = empty_state(c);
  z3::expr all_ok = c.bool_val(true);
  std::vector<SeqOp> ops;
  for (unsigned k = 0; k < depth; ++k) {
    ops.push_back(fresh_op(c, std::to_string(k)));
    const SeqOp& o = ops.back();
    const SeqStep st = seq_step(d, cfg, s, o);
    all_ok = all_ok && step_ok(d, claim, o, st);
    s = st.next;
  }
  return check(c, without_array_terms(all_ok), clause, timeout, [&](const z3::model& m) {
    const Replay r = replay(decode_ops(m, ops), cfg, claim, d.mutants);
    return r.text;
  }, Outcome::Bounded, depth);
}

// 1-induction of a per-page invariant: if it holds at the page w and at the page the operation
// touches before any operation, it holds at w after it and the step's claim holds. Since w is
// arbitrary this is "for all pages", so with the empty state satisfying it, every reachable state does.
Verdict sequence_induction(const SeqConfig& cfg, SeqClaim claim, const VmZ3Domain& d, unsigned timeout,
                           const std::string& clause,
                           const std::function<z3::expr(const SeqState&, unsigned, const z3::expr&)>& inv) {
  z3::context& c = *d.ctx;
  const SeqState s0 = fresh_state(c, ""), e = empty_state(c);
  const SeqOp o = fresh_op(c, "");
  const z3::expr w = c.bv_const("w", kVpnBits);
  const SeqStep st = seq_step(d, cfg, s0, o);
  auto both = [&](const SeqState& s, const z3::expr& page) { return inv(s, 0, page) && inv(s, 1, page); };
  const z3::expr claim_expr = both(e, w) && z3::implies(both(s0, w) && both(s0, o.vpn), both(st.next, w) && step_ok(d, claim, o, st));
  Verdict v = check(c, without_array_terms(claim_expr), clause, timeout);
  if (v.outcome == Outcome::Counterexample) {
    v.outcome = Outcome::Unknown;  // an induction step failing is not a reachable counterexample
    v.note = "induction step not proved";
  }
  return v;
}

// The verdict rests on the induction; BMC from the empty VMs is a cross-check within a short
// budget: a counterexample there would contradict the induction and is reported as such.
constexpr unsigned kBmcNoteMs = 20000;

Verdict with_bmc_note(Verdict ind, const Verdict& bmc) {
  ind.seconds += bmc.seconds;
  if (bmc.outcome == Outcome::Counterexample) return bmc;
  if (ind.outcome != Outcome::Proved) return ind;
  if (bmc.outcome == Outcome::Bounded) {
    ind.depth = bmc.depth;
    ind.note = "1-inductive per-page invariant; BMC from the empty VMs also clean to depth " + std::to_string(bmc.depth);
  } else {
    ind.note = "1-inductive per-page invariant; the BMC cross-check to depth " + std::to_string(bmc.depth) +
               " did not finish in " + std::to_string(kBmcNoteMs / 1000) + " s";
  }
  return ind;
}

// VM-TLB-2: a translation always uses the page table's current entry.
Verdict tlb_coherence(bool mutant, unsigned depth, unsigned timeout) {
  z3::context c;
  const VmZ3Domain d = z3_domain(c);
  SeqConfig cfg;
  cfg.kfd_invalidates = !mutant;
  if (mutant) return sequence_bmc(cfg, SeqClaim::TlbCoherent, d, depth, timeout, "VM-TLB-2");
  // Inv at (x, w): a cached entry equals the valid page-table entry of its page.
  Verdict ind = sequence_induction(cfg, SeqClaim::TlbCoherent, d, timeout, "VM-TLB-2",
                                   [&](const SeqState& s, unsigned x, const z3::expr& w) {
    const z3::expr key = tlb_key(d, cfg, c.bv_val(x, 1), w);
    const z3::expr pte = z3::select(s.pt(x), w);
    return z3::implies(z3::select(s.tv, key), z3::select(s.te, key) == pte && pte_valid(d, pte));
  });
  return with_bmc_note(ind, sequence_bmc(cfg, SeqClaim::TlbCoherent, d, depth, kBmcNoteMs, "VM-TLB-2"));
}

// VM-ISO-1: two VMs share the TLB hardware; the KFD maps into a VM only its own process's host
// pages (host address bit kOwnerBit = owner). A VM's translation never yields the other's page.
Verdict isolation(bool mutant, unsigned depth, unsigned timeout) {
  z3::context c;
  const VmZ3Domain d = z3_domain(c);
  SeqConfig cfg;
  cfg.tlb_tagged = !mutant;
  if (mutant) return sequence_bmc(cfg, SeqClaim::OwnFramesOnly, d, depth, timeout, "VM-ISO-1");
  // Inv at (x, w): VM x's valid PTE for w points into x's pages, and so does the TLB's entry for (x, w).
  Verdict ind = sequence_induction(cfg, SeqClaim::OwnFramesOnly, d, timeout, "VM-ISO-1",
                                   [&](const SeqState& s, unsigned x, const z3::expr& w) {
    const z3::expr xv = c.bv_val(x, 1);
    const z3::expr pte = z3::select(s.pt(x), w);
    const z3::expr key = tlb_key(d, cfg, xv, w);
    const z3::expr cached = z3::select(s.te, key);
    return z3::implies(pte_valid(d, pte), pte_owner(d, pte) == xv) &&
           z3::implies(z3::select(s.tv, key), pte_valid(d, cached) && pte_owner(d, cached) == xv);
  });
  return with_bmc_note(ind, sequence_bmc(cfg, SeqClaim::OwnFramesOnly, d, depth, kBmcNoteMs, "VM-ISO-1"));
}

// VM-MAP-3: mapping n free pages (src's make_pte), then unmapping them, gives back the same page table.
Verdict map_unmap_restores(bool mutant, unsigned timeout) {
  z3::context c;
  const VmZ3Domain d = z3_domain(c);
  constexpr unsigned kMaxPages = 4;
  const z3::expr pt = c.constant("pt", c.array_sort(c.bv_sort(kVpnBits), c.bv_sort(64)));
  const z3::expr v = c.bv_const("vpn", kVpnBits), f = c.bv_const("frame", kVpnBits);
  const z3::expr n = c.bv_const("npages", kVpnBits), flags = c.bv_const("flags", 3);
  z3::expr pre = z3::uge(n, c.bv_val(1, kVpnBits)) && z3::ule(n, c.bv_val(kMaxPages, kVpnBits)) &&
                 z3::ule(v, c.bv_val((uint64_t{1} << kVpnBits) - kMaxPages - 1, kVpnBits));
  z3::expr mapped = pt;
  for (unsigned i = 0; i < kMaxPages; ++i) {
    const z3::expr iv = c.bv_val(i, kVpnBits);
    const z3::expr in = z3::ult(iv, n);
    pre = pre && z3::implies(in, z3::select(pt, v + iv) == d.u64(0));  // free pages hold 0
    const z3::expr host = d.shl(z3::zext(f + iv, 64 - kVpnBits), vm::kPageShift);
    mapped = z3::ite(in, z3::store(mapped, v + iv, vm::make_pte(d, host, map_flags(d, flags) | d.u64(vm::kPteValid))), mapped);
  }
  const z3::expr limit = mutant ? n - 1 : n;  // the mutant is UnmapLeavesLastPage of PageTable::unmap
  z3::expr unmapped = mapped;
  for (unsigned i = 0; i < kMaxPages; ++i)
    unmapped = z3::ite(z3::ult(c.bv_val(i, kVpnBits), limit), z3::store(unmapped, v + c.bv_val(i, kVpnBits), d.u64(0)),
                       unmapped);
  return check(c, z3::implies(pre, unmapped == pt), "VM-MAP-3", timeout, [&](const z3::model& m) {
    return "  map " + std::to_string(value(m, n)) + " pages at va " + hex(value(m, v) << vm::kPageShift, 12) +
           " onto host " + hex(value(m, f) << vm::kPageShift, 12) + ", then unmap the same range: page va " +
           hex((value(m, v) + value(m, n) - 1) << vm::kPageShift, 12) + " is still mapped\n";
  });
}

// VM-PT-3: a last-level table page of 8 entries (bitmap V, used count, present flag):
// the page is present exactly while it holds a valid entry, and `used` counts them.
Verdict table_freeing(bool mutant, unsigned timeout) {
  z3::context c;
  struct T {
    z3::expr valid, used, present;
  };
  auto popcount = [&](const z3::expr& bits) {
    z3::expr sum = c.bv_val(0, 4);
    for (unsigned i = 0; i < 8; ++i) sum = sum + z3::zext(bits.extract(i, i), 3);
    return sum;
  };
  auto inv = [&](const T& t) { return t.present == (t.valid != 0) && t.used == popcount(t.valid); };
  auto step = [&](const T& t, const z3::expr& map, const z3::expr& i) {
    const z3::expr bit = z3::shl(c.bv_val(1, 8), z3::zext(i, 5));
    const z3::expr set = (t.valid & bit) != 0;
    const z3::expr used_unmap = t.used - 1;
    const z3::expr present_unmap = mutant ? t.present : used_unmap != 0;
    return T{z3::ite(map, z3::ite(set, t.valid, t.valid | bit), z3::ite(set, t.valid & ~bit, t.valid)),
             z3::ite(map, z3::ite(set, t.used, t.used + 1), z3::ite(set, used_unmap, t.used)),
             z3::ite(map, z3::ite(set, t.present, c.bool_val(true)), z3::ite(set, present_unmap, t.present))};
  };
  if (!mutant) {
    const T t{c.bv_const("valid", 8), c.bv_const("used", 4), c.bool_const("present")};
    const z3::expr map = c.bool_const("map"), i = c.bv_const("i", 3);
    const T init{c.bv_val(0, 8), c.bv_val(0, 4), c.bool_val(false)};
    return check(c, inv(init) && z3::implies(inv(t), inv(step(t, map, i))), "VM-PT-3", timeout);
  }
  T t{c.bv_val(0, 8), c.bv_val(0, 4), c.bool_val(false)};
  z3::expr all = c.bool_val(true);
  std::vector<std::pair<z3::expr, z3::expr>> ops;  // (map?, entry)
  std::vector<T> states;
  for (unsigned k = 0; k < 3; ++k) {
    const z3::expr map = c.bool_const(("map" + std::to_string(k)).c_str());
    const z3::expr i = c.bv_const(("entry" + std::to_string(k)).c_str(), 3);
    t = step(t, map, i);
    all = all && inv(t);
    ops.push_back({map, i});
    states.push_back(t);
  }
  return check(c, all, "VM-PT-3", timeout, [&](const z3::model& m) {
    // Each step with the last-level table page after it; stop at the first state breaking the invariant.
    std::ostringstream out;
    for (size_t k = 0; k < ops.size(); ++k) {
      const uint64_t valid = value(m, states[k].valid);
      out << "  " << (k + 1) << ". " << (m.eval(ops[k].first, true).is_true() ? "map  " : "unmap") << " entry "
          << value(m, ops[k].second) << ": table page " << (m.eval(states[k].present, true).is_true() ? "present" : "freed")
          << ", used " << value(m, states[k].used) << ", valid entries " << hex(valid) << "\n";
      if (!m.eval(inv(states[k]), true).is_true()) {
        out << "     ^ VM-PT-3 fails: the page " << (valid ? "is freed while it holds a valid entry" : "holds no valid entry but is kept")
            << "\n";
        break;
      }
    }
    return out.str();
  }, Outcome::Bounded, 3);
}

}  // namespace

std::vector<ProofResult> run_gpuvm_proofs(bool quick) {
  const unsigned timeout = quick ? 60000 : 300000;
  const unsigned depth = quick ? 5 : 8;
  std::vector<ProofResult> out;
  out.push_back({"gpuvm/VM-VA-1", "VM-VA-1", "address split and compose are inverse; distinct pages never share indices",
                 va_split(false, timeout), "last level indexed from bit 11", va_split(true, timeout)});
  out.push_back({"gpuvm/VM-PTE-1", "VM-PTE-1", "PTE encode/decode round-trips every 48-bit page and flag set",
                 pte_roundtrip(false, timeout), "PTE address field drops bit 47", pte_roundtrip(true, timeout)});
  out.push_back({"gpuvm/VM-XLATE-2", "VM-XLATE-2",
                 "translate decision = the clauses, for every range up to 5 pages (any alignment) and page table",
                 xlate_decision(false, timeout), "only the first page of a range checked", xlate_decision(true, timeout)});
  out.push_back({"gpuvm/VM-TLB-2", "VM-TLB-2", "a translation always equals the page table (no stale TLB entry)",
                 tlb_coherence(false, depth, timeout), "unmap without TLB invalidation",
                 tlb_coherence(true, depth, timeout)});
  out.push_back({"gpuvm/VM-MAP-3", "VM-MAP-3", "map then unmap of free pages restores the page table",
                 map_unmap_restores(false, timeout), "unmap clears one page too few",
                 map_unmap_restores(true, timeout)});
  out.push_back({"gpuvm/VM-ISO-1", "VM-ISO-1", "a VM never translates into another process's frames",
                 isolation(false, depth, timeout), "TLB entries not tagged with the VMID",
                 isolation(true, depth, timeout)});
  out.push_back({"gpuvm/VM-PT-3", "VM-PT-3", "a table page is present exactly while it holds a valid entry",
                 table_freeing(false, timeout), "empty table pages never freed", table_freeing(true, timeout)});
  return out;
}

}  // namespace rocref::proofs::gpuvm
