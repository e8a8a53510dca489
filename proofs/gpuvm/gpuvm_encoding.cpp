// proofs/gpuvm/gpuvm_encoding.cpp - the sequence model's state and steps, over src/'s GPUVM rules.
#include "proofs/gpuvm/gpuvm_encoding.h"

namespace rocref::proofs::gpuvm {

namespace vm = rocref::gpu::vm;

std::array<z3::expr, 5> split_va(const VmZ3Domain& d, const z3::expr& va) {
  return {vm::table_index(d, va, 0), vm::table_index(d, va, 1), vm::table_index(d, va, 2),
          vm::table_index(d, va, 3), vm::page_offset(d, va)};
}

vm::Xlate<VmZ3Domain> xlate_range(const VmZ3Domain& d, const z3::expr& ptes, const z3::expr& va,
                                   const z3::expr& len, const z3::expr& need, unsigned max_extra, z3::expr* within) {
  // The same fold as GpuVm::resolve: pages in order; a page past extra_pages is not visited.
  const z3::expr more = vm::extra_pages(d, va, len);
  *within = z3::ule(more, d.u64(max_extra));
  vm::Xlate<VmZ3Domain> x = vm::xlate_start(d, va);
  for (unsigned i = 0; i <= max_extra; ++i) {
    const z3::expr page = vm::page_base(d, va) + d.u64(uint64_t{i} << vm::kPageShift);
    const vm::Xlate<VmZ3Domain> y = vm::xlate_page(d, x, va, page, z3::select(ptes, page), need);
    const z3::expr visit = z3::ule(d.u64(i), more);
    x = vm::Xlate<VmZ3Domain>{z3::ite(visit, y.fault, x.fault), z3::ite(visit, y.fault_page, x.fault_page),
                              z3::ite(visit, y.host, x.host)};
  }
  return x;
}

SeqOp fresh_op(z3::context& c, const std::string& n) {
  return SeqOp{c.bv_const(("vm" + n).c_str(), 1),       c.bv_const(("op" + n).c_str(), 2),
               c.bv_const(("vpn" + n).c_str(), kVpnBits), c.bv_const(("frame" + n).c_str(), kVpnBits),
               c.bv_const(("flags" + n).c_str(), 3),     c.bv_const(("access" + n).c_str(), 2)};
}

z3::expr access_need(const VmZ3Domain& d, const z3::expr& a) {
  return z3::ite(a == 0, d.u64(1), z3::ite(a == 1, d.u64(2), z3::ite(a == 2, d.u64(3), d.u64(4))));
}

z3::expr map_flags(const VmZ3Domain& d, const z3::expr& f) {
  auto bit = [&](unsigned i, uint64_t pte_bit) { return z3::ite(f.extract(i, i) == 1, d.u64(pte_bit), d.u64(0)); };
  return bit(0, vm::kPteReadable) | bit(1, vm::kPteWriteable) | bit(2, vm::kPteExecutable);
}

namespace {
z3::sort pt_sort(z3::context& c) { return c.array_sort(c.bv_sort(kVpnBits), c.bv_sort(64)); }
z3::sort tv_sort(z3::context& c) { return c.array_sort(c.bv_sort(kKeyBits), c.bool_sort()); }
z3::sort te_sort(z3::context& c) { return c.array_sort(c.bv_sort(kKeyBits), c.bv_sort(64)); }
}  // namespace

SeqState empty_state(z3::context& c) {
  const z3::expr no_pte = z3::const_array(c.bv_sort(kVpnBits), c.bv_val(0, 64));
  return SeqState{no_pte, no_pte, z3::const_array(c.bv_sort(kKeyBits), c.bool_val(false)),
                  z3::const_array(c.bv_sort(kKeyBits), c.bv_val(0, 64))};
}

SeqState fresh_state(z3::context& c, const std::string& n) {
  return SeqState{c.constant(("pt0" + n).c_str(), pt_sort(c)), c.constant(("pt1" + n).c_str(), pt_sort(c)),
                  c.constant(("tv" + n).c_str(), tv_sort(c)), c.constant(("te" + n).c_str(), te_sort(c))};
}

z3::expr tlb_key(const VmZ3Domain& d, const SeqConfig& cfg, const z3::expr& vm, const z3::expr& vpn) {
  return z3::concat(cfg.tlb_tagged ? vm : d.ctx->bv_val(0, 1), vpn);  // the mutant forgets the VMID tag
}

z3::expr pte_valid(const VmZ3Domain& d, const z3::expr& pte) {
  // vm_rules' permission check with no access needed fails only for an invalid PTE.
  return vm::page_fault(d, pte, d.u64(0)) == d.u64(vm::kXlateOk);
}

z3::expr pte_owner(const VmZ3Domain& d, const z3::expr& pte) {
  return vm::pte_host(d, pte).extract(kOwnerBit, kOwnerBit);
}

SeqStep seq_step(const VmZ3Domain& d, const SeqConfig& cfg, const SeqState& s, const SeqOp& o) {
  z3::context& c = *d.ctx;
  const z3::expr entry = z3::ite(o.vm == 0, z3::select(s.pt0, o.vpn), z3::select(s.pt1, o.vpn));
  const z3::expr valid = pte_valid(d, entry);
  const z3::expr key = tlb_key(d, cfg, o.vm, o.vpn);
  const z3::expr cached = z3::select(s.tv, key);
  const z3::expr result = z3::ite(cached, z3::select(s.te, key), entry);
  const z3::expr fault = vm::page_fault(d, result, access_need(d, o.access));
  // map: one page, refused when mapped (VM-MAP-2) or, with the KFD's rule, when the frame is another process's.
  const z3::expr host = d.shl(z3::zext(o.frame, 64 - kVpnBits), vm::kPageShift);
  const z3::expr pte = vm::make_pte(d, host, map_flags(d, o.flags) | d.u64(vm::kPteValid));
  z3::expr may_map = !valid;
  if (cfg.own_frames_only) may_map = may_map && host.extract(kOwnerBit, kOwnerBit) == o.vm;
  SeqState n = s;
  for (unsigned v = 0; v < 2; ++v) {
    const z3::expr& pt = s.pt(v);
    const z3::expr mine = o.vm == static_cast<int>(v);
    const z3::expr mapped = z3::ite(may_map, z3::store(pt, o.vpn, pte), pt);
    const z3::expr unmapped = z3::ite(valid, z3::store(pt, o.vpn, c.bv_val(0, 64)), pt);
    const z3::expr next = z3::ite(mine && o.op == kMap, mapped, z3::ite(mine && o.op == kUnmap, unmapped, pt));
    (v ? n.pt1 : n.pt0) = next;
  }
  const z3::expr fill = o.op == kTranslate && !cached && valid;
  const z3::expr tv_unmap = cfg.kfd_invalidates ? z3::ite(valid, z3::store(s.tv, key, c.bool_val(false)), s.tv) : s.tv;
  const z3::expr no_tlb = z3::const_array(c.bv_sort(kKeyBits), c.bool_val(false));
  n.tv = z3::ite(o.op == kUnmap, tv_unmap,
                 z3::ite(fill, z3::store(s.tv, key, c.bool_val(true)), z3::ite(o.op == kInvalidateAll, no_tlb, s.tv)));
  n.te = z3::ite(fill, z3::store(s.te, key, entry), s.te);
  return SeqStep{n, entry, result, fault};
}

}  // namespace rocref::proofs::gpuvm
