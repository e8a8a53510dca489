// proofs/gpuvm/gpuvm_proofs.cpp - the GPUVM proofs: bijections, TLB coherence, restore, isolation, freeing.
#include "proofs/gpuvm/gpuvm_proofs.h"

#include <chrono>
#include <functional>
#include <sstream>

#include "proofs/gpuvm/gpuvm_encoding.h"

namespace rocref::proofs::gpuvm {
namespace {

using Shown = std::vector<std::pair<std::string, z3::expr>>;

// Proved when !claim is unsatisfiable; a satisfying assignment is the counterexample.
Verdict check(z3::context& c, const z3::expr& claim, const std::string& clause, unsigned timeout_ms,
              const Shown& show = {}, Outcome holds = Outcome::Proved, uint32_t depth = 0) {
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
      std::ostringstream out;
      const z3::model m = s.get_model();
      for (const auto& [name, e] : show) out << name << " = " << m.eval(e, true) << "\n";
      v.trace = out.str();
      break;
    }
    default:
      v.outcome = Outcome::Unknown;
      v.note = s.reason_unknown();
  }
  v.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return v;
}

// VM-VA-1: split then compose is the identity, and distinct pages never share indices.
Verdict va_split(bool mutant, unsigned timeout) {
  z3::context c;
  const z3::expr a = c.bv_const("va1", 48), b = c.bv_const("va2", 48);
  const unsigned shift = mutant ? 11 : 12;
  const auto sa = split_va(a, shift), sb = split_va(b, shift);
  z3::expr same_indices = sa[0] == sb[0] && sa[1] == sb[1] && sa[2] == sb[2] && sa[3] == sb[3];
  z3::expr claim = z3::implies(same_indices, a.extract(47, 12) == b.extract(47, 12));
  if (!mutant) claim = claim && compose_va(split_va(a)) == a;
  return check(c, claim, "VM-VA-1", timeout, {{"va1", a}, {"va2", b}});
}

// VM-PTE-1: every page-aligned 48-bit host address and flag set survives encode/decode.
Verdict pte_roundtrip(bool mutant, unsigned timeout) {
  z3::context c;
  const z3::expr host = c.bv_const("host", 64), flags = c.bv_const("flags", 64);
  const unsigned hi = mutant ? 46 : 47;
  const z3::expr pre = host.extract(11, 0) == 0 && host.extract(63, 48) == 0 && pte_flags(c, flags) == flags;
  const z3::expr pte = pte_encode(c, host, flags, hi);
  const z3::expr claim = z3::implies(pre, pte_address(c, pte, hi) == host && pte_flags(c, pte) == flags);
  return check(c, claim, "VM-PTE-1", timeout, {{"host", host}, {"flags", flags}});
}

// The state of one VM for the sequence proofs: page table and TLB (valid flags, cached entries).
struct VmState {
  z3::expr pt, tv, te;
};

constexpr int kMap = 0, kUnmap = 1, kTranslate = 2, kInvalidateAll = 3;

// One operation on the state; *ok says a translate returned the page table's entry (VM-TLB-2).
VmState vm_step(z3::context& c, const VmState& s, const z3::expr& op, const z3::expr& v, const z3::expr& f,
                bool no_invalidate, z3::expr* ok) {
  const z3::expr e = z3::select(s.pt, v);
  const z3::expr valid = entry_valid(e);
  const z3::expr cached = z3::select(s.tv, v);
  const z3::expr result = z3::ite(cached, z3::select(s.te, v), e);
  *ok = z3::implies(op == kTranslate, result == e);
  const z3::expr pt_map = z3::ite(valid, s.pt, z3::store(s.pt, v, make_entry(c, f)));  // VM-MAP-2: no overwrite
  const z3::expr pt_unmap = z3::ite(valid, z3::store(s.pt, v, c.bv_val(0, kEntryBits)), s.pt);
  const z3::expr tv_unmap = no_invalidate ? s.tv : z3::ite(valid, z3::store(s.tv, v, c.bool_val(false)), s.tv);
  const z3::expr fill = !cached && valid;
  const z3::expr tv_fill = z3::ite(fill, z3::store(s.tv, v, c.bool_val(true)), s.tv);
  const z3::expr te_fill = z3::ite(fill, z3::store(s.te, v, e), s.te);
  const z3::expr no_tlb = z3::const_array(c.bv_sort(kVpnBits), c.bool_val(false));
  return VmState{
      z3::ite(op == kMap, pt_map, z3::ite(op == kUnmap, pt_unmap, s.pt)),
      z3::ite(op == kUnmap, tv_unmap, z3::ite(op == kTranslate, tv_fill, z3::ite(op == kInvalidateAll, no_tlb, s.tv))),
      z3::ite(op == kTranslate, te_fill, s.te)};
}

VmState initial_vm(z3::context& c) {
  return VmState{empty_table(c), z3::const_array(c.bv_sort(kVpnBits), c.bool_val(false)),
                 z3::const_array(c.bv_sort(kVpnBits), c.bv_val(0, kEntryBits))};
}

// VM-TLB-2, VM-XLATE-1: bounded model check from the empty VM; with the real rules also the
// inductive invariant "every cached entry equals the valid page-table entry", for any state.
Verdict tlb_coherence(bool mutant, unsigned depth, unsigned timeout) {
  z3::context c;
  VmState s = initial_vm(c);
  z3::expr all_ok = c.bool_val(true);
  Shown show;
  for (unsigned k = 0; k < depth; ++k) {
    const std::string n = std::to_string(k);
    const z3::expr op = c.bv_const(("op" + n).c_str(), 2), v = c.bv_const(("vpn" + n).c_str(), kVpnBits);
    const z3::expr f = c.bv_const(("frame" + n).c_str(), kVpnBits);
    z3::expr ok = c.bool_val(true);
    s = vm_step(c, s, op, v, f, mutant, &ok);
    all_ok = all_ok && ok;
    show.push_back({"step " + n + " op (0 map, 1 unmap, 2 translate, 3 invalidate)", op});
    show.push_back({"step " + n + " vpn", v});
  }
  Verdict bmc = check(c, all_ok, "VM-TLB-2", timeout, show, Outcome::Bounded, depth);
  if (mutant || bmc.outcome != Outcome::Bounded) return bmc;
  // Induction: for an arbitrary state satisfying Inv at an arbitrary page w, any step keeps it.
  const z3::expr pt = c.constant("pt", c.array_sort(c.bv_sort(kVpnBits), c.bv_sort(kEntryBits)));
  const z3::expr tv = c.constant("tv", c.array_sort(c.bv_sort(kVpnBits), c.bool_sort()));
  const z3::expr te = c.constant("te", c.array_sort(c.bv_sort(kVpnBits), c.bv_sort(kEntryBits)));
  const z3::expr w = c.bv_const("w", kVpnBits), v = c.bv_const("v", kVpnBits);
  const z3::expr op = c.bv_const("op", 2), f = c.bv_const("f", kVpnBits);
  auto inv = [&](const VmState& st, const z3::expr& page) {
    return z3::implies(z3::select(st.tv, page),
                       z3::select(st.te, page) == z3::select(st.pt, page) && entry_valid(z3::select(st.pt, page)));
  };
  const VmState s0{pt, tv, te};
  z3::expr ok = c.bool_val(true);
  const VmState s1 = vm_step(c, s0, op, v, f, false, &ok);
  const z3::expr step_claim = z3::implies(inv(s0, w), inv(s1, w)) && z3::implies(inv(s0, v), ok);
  Verdict ind = check(c, step_claim, "VM-TLB-2", timeout);
  ind.seconds += bmc.seconds;
  ind.note = "1-inductive; also bounded from the empty VM to depth " + std::to_string(depth);
  return ind.outcome == Outcome::Proved ? ind : bmc;
}

// VM-MAP-3: mapping n free pages, then unmapping them, gives back the same page table.
Verdict map_unmap_restores(bool mutant, unsigned timeout) {
  z3::context c;
  constexpr unsigned kMaxPages = 4;
  const z3::expr pt = c.constant("pt", c.array_sort(c.bv_sort(kVpnBits), c.bv_sort(kEntryBits)));
  const z3::expr v = c.bv_const("vpn", kVpnBits), f = c.bv_const("frame", kVpnBits);
  const z3::expr n = c.bv_const("npages", kVpnBits);
  z3::expr pre = z3::uge(n, c.bv_val(1, kVpnBits)) && z3::ule(n, c.bv_val(kMaxPages, kVpnBits)) &&
                 z3::ule(v, c.bv_val((uint64_t{1} << kVpnBits) - kMaxPages - 1, kVpnBits));
  z3::expr mapped = pt;
  for (unsigned i = 0; i < kMaxPages; ++i) {
    const z3::expr iv = c.bv_val(i, kVpnBits);
    const z3::expr in = z3::ult(iv, n);
    pre = pre && z3::implies(in, z3::select(pt, v + iv) == c.bv_val(0, kEntryBits));  // free pages hold 0
    mapped = z3::ite(in, z3::store(mapped, v + iv, make_entry(c, f + iv)), mapped);
  }
  const z3::expr limit = mutant ? n - 1 : n;
  z3::expr unmapped = mapped;
  for (unsigned i = 0; i < kMaxPages; ++i)
    unmapped = z3::ite(z3::ult(c.bv_val(i, kVpnBits), limit),
                       z3::store(unmapped, v + c.bv_val(i, kVpnBits), c.bv_val(0, kEntryBits)), unmapped);
  return check(c, z3::implies(pre, unmapped == pt), "VM-MAP-3", timeout, {{"vpn", v}, {"npages", n}});
}

// VM-ISO-1: two VMs share the TLB hardware; the KFD maps into a VM only its own process's
// frames (frame bit 35 = owner). A VM's translation never yields the other's frame.
Verdict isolation(bool mutant, unsigned depth, unsigned timeout) {
  z3::context c;
  const unsigned kKey = kVpnBits + 1;
  z3::expr pt[2] = {empty_table(c), empty_table(c)};
  z3::expr tv = z3::const_array(c.bv_sort(kKey), c.bool_val(false));
  z3::expr te = z3::const_array(c.bv_sort(kKey), c.bv_val(0, kEntryBits));
  z3::expr all_ok = c.bool_val(true);
  Shown show;
  for (unsigned k = 0; k < depth; ++k) {
    const std::string n = std::to_string(k);
    const z3::expr x = c.bv_const(("vm" + n).c_str(), 1);
    const z3::expr op = c.bv_const(("op" + n).c_str(), 2), v = c.bv_const(("vpn" + n).c_str(), kVpnBits);
    const z3::expr f = c.bv_const(("frame" + n).c_str(), kVpnBits);
    const z3::expr key = z3::concat(mutant ? c.bv_val(0, 1) : x, v);  // the mutant forgets the VMID tag
    const z3::expr e = z3::ite(x == 0, z3::select(pt[0], v), z3::select(pt[1], v));
    const z3::expr valid = entry_valid(e);
    const z3::expr cached = z3::select(tv, key);
    const z3::expr result = z3::ite(cached, z3::select(te, key), e);
    all_ok = all_ok && z3::implies(op == kTranslate && entry_valid(result), result.extract(35, 35) == x);
    const z3::expr own = f.extract(35, 35) == x;
    for (unsigned vm = 0; vm < 2; ++vm) {
      const z3::expr mine = x == static_cast<int>(vm);
      const z3::expr map = z3::ite(valid || !own, pt[vm], z3::store(pt[vm], v, make_entry(c, f)));
      const z3::expr unmap = z3::ite(valid, z3::store(pt[vm], v, c.bv_val(0, kEntryBits)), pt[vm]);
      pt[vm] = z3::ite(mine && op == kMap, map, z3::ite(mine && op == kUnmap, unmap, pt[vm]));
    }
    const z3::expr fill = op == kTranslate && !cached && valid;
    tv = z3::ite(op == kUnmap, z3::store(tv, key, c.bool_val(false)), z3::ite(fill, z3::store(tv, key, c.bool_val(true)), tv));
    te = z3::ite(fill, z3::store(te, key, e), te);
    show.push_back({"step " + n + " vm", x});
    show.push_back({"step " + n + " op (0 map, 1 unmap, 2 translate)", op});
    show.push_back({"step " + n + " vpn", v});
  }
  return check(c, all_ok, "VM-ISO-1", timeout, show, Outcome::Bounded, depth);
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
  Shown show;
  for (unsigned k = 0; k < 3; ++k) {
    const z3::expr map = c.bool_const(("map" + std::to_string(k)).c_str());
    const z3::expr i = c.bv_const(("entry" + std::to_string(k)).c_str(), 3);
    t = step(t, map, i);
    all = all && inv(t);
    show.push_back({"step " + std::to_string(k) + " map", map});
    show.push_back({"step " + std::to_string(k) + " entry", i});
  }
  return check(c, all, "VM-PT-3", timeout, show, Outcome::Bounded, 3);
}

}  // namespace

std::vector<ProofResult> run_gpuvm_proofs(bool quick) {
  const unsigned timeout = quick ? 60000 : 300000;
  const unsigned depth = quick ? 5 : 8;
  std::vector<ProofResult> out;
  out.push_back({"gpuvm/VM-VA-1", "VM-VA-1", "address split and compose are inverse; distinct pages never share indices",
                 va_split(false, timeout), "last level indexed from bit 11", va_split(true, timeout)});
  out.push_back({"gpuvm/VM-PTE-1", "VM-PTE-1", "PTE encode/decode round-trips every 48-bit page and flag set",
                 pte_roundtrip(false, timeout), "address mask drops bit 47", pte_roundtrip(true, timeout)});
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
