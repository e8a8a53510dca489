// proofs/gpuvm/gpuvm_encoding.h - GPUVM's rules on Z3 bit-vectors, instantiated from src/gpu/vm/vm_rules.h.
//
// The address split, PTE layout, permission check and translate decision are
// src/'s own templates (vm_rules.h) over VmZ3Domain: nothing here retypes a
// flag bit or a shift. What is the proofs' own is the state: a VM's page table
// as an array from a 36-bit virtual page number to its 64-bit PTE (the radix
// tree of PageTable flattened; gpuvm_agreement_test.cpp checks the
// two agree), and a TLB shared by the VMs, keyed by (VMID tag, page).
#pragma once

#include <z3++.h>

#include <array>
#include <string>
#include <vector>

#include "proofs/gpuvm/vm_z3_domain.h"

namespace rocref::proofs::gpuvm {

inline constexpr unsigned kVpnBits = 36;
inline constexpr unsigned kKeyBits = kVpnBits + 1;  // VMID tag (2 VMs) + page
// A host page of process x has this bit of its address equal to x (VM-ISO-1's ownership).
inline constexpr unsigned kOwnerBit = 40;

// VM-VA-1: the four table indices and the page offset of a 64-bit address (vm_rules.h).
std::array<z3::expr, 5> split_va(const VmZ3Domain& d, const z3::expr& va);

// VM-XLATE-1..3: the translate decision of vm_rules.h folded over the pages of
// [va, va + len), `ptes` an array from page address (64-bit) to PTE. Unrolled for
// at most max_extra pages past the first; `*within` says the range needs no more.
gpu::vm::Xlate<VmZ3Domain> xlate_range(const VmZ3Domain& d, const z3::expr& ptes, const z3::expr& va,
                                        const z3::expr& len, const z3::expr& need, unsigned max_extra,
                                        z3::expr* within);

// The operation codes of the sequence model.
inline constexpr int kMap = 0, kUnmap = 1, kTranslate = 2, kInvalidateAll = 3;

// One operation: VMID (1 bit), code (2 bits), page (36 bits), host frame (36 bits),
// flags (3 bits: R, W, X) for a map, access (2 bits: read, write, read-write, execute).
struct SeqOp {
  z3::expr vm, op, vpn, frame, flags, access;
};
SeqOp fresh_op(z3::context& c, const std::string& suffix);
z3::expr access_need(const VmZ3Domain& d, const z3::expr& access2);  // Access bits 1/2/3/4
z3::expr map_flags(const VmZ3Domain& d, const z3::expr& flags3);     // kPte* bits

// Two VMs' page tables and the TLB they share (valid bits, cached PTEs).
struct SeqState {
  z3::expr pt0, pt1, tv, te;
  const z3::expr& pt(unsigned vm) const { return vm ? pt1 : pt0; }
};

struct SeqConfig {
  bool kfd_invalidates = true;  // VM-TLB-2: the KFD invalidates the page after an unmap
  bool tlb_tagged = true;       // VM-ISO-1: TLB entries carry the VMID
  bool own_frames_only = true;  // VM-ISO-1: the KFD maps only the process's own buffers
};

SeqState empty_state(z3::context& c);
SeqState fresh_state(z3::context& c, const std::string& suffix);

// The effect of one operation, and what a translate returns (the PTE it used, and the fault).
struct SeqStep {
  SeqState next;
  z3::expr entry;   // the page table's PTE for (vm, vpn)
  z3::expr result;  // the PTE a translate uses (from the TLB or the walk)
  z3::expr fault;   // vm_rules page_fault of that PTE for the access
};
SeqStep seq_step(const VmZ3Domain& d, const SeqConfig& cfg, const SeqState& s, const SeqOp& op);

z3::expr tlb_key(const VmZ3Domain& d, const SeqConfig& cfg, const z3::expr& vm, const z3::expr& vpn);
z3::expr pte_valid(const VmZ3Domain& d, const z3::expr& pte);
z3::expr pte_owner(const VmZ3Domain& d, const z3::expr& pte);  // 1-bit: the owner bit of its host page

}  // namespace rocref::proofs::gpuvm
