// proofs/gpuvm/gpuvm_trace.cpp - decode a BMC model into operations and replay them concretely.
#include "proofs/gpuvm/gpuvm_trace.h"

#include <cstdio>
#include <map>
#include <sstream>
#include <utility>

namespace rocref::proofs::gpuvm {

namespace vm = rocref::gpu::vm;

namespace {

// src/'s concrete domain with the proof's mutants instead of the compiled-in switches.
struct ReplayDomain : vm::VmConcreteDomain {
  std::bitset<static_cast<size_t>(VmMutant::kCount)> mutants;
  bool mutant(VmMutant m) const { return mutants.test(static_cast<size_t>(m)); }
};

uint64_t value(const z3::model& m, const z3::expr& e) {
  const z3::expr v = m.eval(e, true);
  uint64_t out = 0;
  v.is_numeral_u64(out);
  return out;
}

std::string hex(uint64_t v, int width = 0) {
  char text[32];
  std::snprintf(text, sizeof text, "0x%0*llx", width, static_cast<unsigned long long>(v));
  return text;
}

const char* op_name(unsigned op) {
  switch (op) {
    case kMap: return "map";
    case kUnmap: return "unmap";
    case kTranslate: return "translate";
    default: return "invalidate TLB";
  }
}

const char* access_name(unsigned a) {
  static const char* names[] = {"read", "write", "read-write", "execute"};
  return names[a & 3];
}

const char* fault_name(uint64_t f) {
  switch (f) {
    case vm::kXlateOk: return "no fault";
    case vm::kXlateNotPresent: return "fault: not present";
    case vm::kXlateNotReadable: return "fault: not readable";
    case vm::kXlateReadOnly: return "fault: read-only";
    case vm::kXlateNoExecute: return "fault: no-execute";
    default: return "fault: not contiguous";
  }
}

uint64_t flags_of(unsigned f3) {
  return ((f3 & 1) ? vm::kPteReadable : 0) | ((f3 & 2) ? vm::kPteWriteable : 0) | ((f3 & 4) ? vm::kPteExecutable : 0);
}

using PageMap = std::map<uint64_t, uint64_t>;  // page number -> PTE

// Coalesces pages with consecutive hosts and equal flags into ranges.
std::string ranges_text(const ReplayDomain& d, const PageMap& pt) {
  if (pt.empty()) return "    (nothing mapped)\n";
  std::ostringstream out;
  auto it = pt.begin();
  while (it != pt.end()) {
    const uint64_t first = it->first, host = vm::pte_host(d, it->second), flags = vm::pte_flag_bits(d, it->second);
    uint64_t n = 1;
    auto next = std::next(it);
    while (next != pt.end() && next->first == first + n &&
           vm::pte_host(d, next->second) == host + (n << vm::kPageShift) && vm::pte_flag_bits(d, next->second) == flags) {
      ++n;
      ++next;
    }
    out << "    va [" << hex(first << vm::kPageShift, 12) << ", " << hex((first + n) << vm::kPageShift, 12) << ") -> host "
        << hex(host, 12) << " (" << n << (n == 1 ? " page" : " pages") << "), PTE flags " << flags_text(it->second)
        << ", owner VM" << ((host >> kOwnerBit) & 1) << "\n";
    it = next;
  }
  return out.str();
}

}  // namespace

std::string flags_text(uint64_t pte) {
  std::string s;
  auto add = [&](uint64_t bit, const char* name) {
    if (pte & bit) s += s.empty() ? name : std::string(" ") + name;
  };
  add(vm::kPteValid, "V");
  add(vm::kPteSystem, "S");
  add(vm::kPteReadable, "R");
  add(vm::kPteWriteable, "W");
  add(vm::kPteExecutable, "X");
  return s.empty() ? "-" : s;
}

std::vector<ConcreteOp> decode_ops(const z3::model& m, const std::vector<SeqOp>& ops) {
  std::vector<ConcreteOp> out;
  for (const SeqOp& o : ops) {
    out.push_back(ConcreteOp{static_cast<unsigned>(value(m, o.vm)), static_cast<unsigned>(value(m, o.op)),
                             value(m, o.vpn), value(m, o.frame), static_cast<unsigned>(value(m, o.flags)),
                             static_cast<unsigned>(value(m, o.access))});
  }
  return out;
}

Replay replay(const std::vector<ConcreteOp>& ops, const SeqConfig& cfg, SeqClaim claim,
              std::bitset<static_cast<size_t>(VmMutant::kCount)> mutants) {
  ReplayDomain d;
  d.mutants = mutants;
  PageMap pt[2];
  std::map<std::pair<unsigned, uint64_t>, uint64_t> tlb;  // (VMID tag, page) -> PTE
  std::ostringstream out;
  Replay r;
  for (size_t k = 0; k < ops.size() && r.failed_step < 0; ++k) {
    const ConcreteOp& o = ops[k];
    const unsigned x = o.vm & 1;
    const auto key = std::make_pair(cfg.tlb_tagged ? x : 0u, o.vpn);
    const auto found = pt[x].find(o.vpn);
    const uint64_t entry = found == pt[x].end() ? 0 : found->second;
    const bool valid = vm::page_fault(d, entry, uint64_t{0}) == vm::kXlateOk;
    out << "  " << (k + 1) << ". VM" << x << " " << op_name(o.op);
    if (o.op != kInvalidateAll) out << " va " << hex(o.vpn << vm::kPageShift, 12);
    std::string failure;
    switch (o.op) {
      case kMap: {
        const uint64_t host = o.frame << vm::kPageShift;
        const bool may = !valid && (!cfg.own_frames_only || ((host >> kOwnerBit) & 1) == x);
        const uint64_t pte = vm::make_pte(d, host, flags_of(o.flags) | vm::kPteValid);
        out << " -> host " << hex(host, 12) << " (owner VM" << ((host >> kOwnerBit) & 1) << ") flags "
            << flags_text(pte) << (may ? "" : ": refused (mapped, or another process's page)");
        if (may) pt[x][o.vpn] = pte;
        break;
      }
      case kUnmap:
        out << (valid ? "" : ": refused (not mapped)");
        if (valid) {
          pt[x].erase(o.vpn);
          if (cfg.kfd_invalidates) {
            tlb.erase(key);
            out << ", then the KFD invalidates the TLB entry";
          } else {
            out << ", TLB left as it was";
          }
        }
        break;
      case kTranslate: {
        const auto hit = tlb.find(key);
        const bool cached = hit != tlb.end();
        const uint64_t used = cached ? hit->second : entry;
        const uint64_t fault = vm::page_fault(d, used, uint64_t{o.access == 3 ? 4u : o.access + 1u});
        out << " " << access_name(o.access) << ": " << (cached ? "TLB hit" : "page walk") << ", PTE " << hex(used)
            << " (" << flags_text(used) << "), " << fault_name(fault);
        if (fault == vm::kXlateOk) out << ", host " << hex(vm::pte_host(d, used), 12);
        if (!cached && valid) tlb[key] = entry;
        if (claim == SeqClaim::TlbCoherent && used != entry)
          failure = "VM-TLB-2 fails: the TLB served PTE " + hex(used) + " while the page table holds " + hex(entry);
        if (claim == SeqClaim::OwnFramesOnly && fault == vm::kXlateOk && ((vm::pte_host(d, used) >> kOwnerBit) & 1) != x)
          failure = "VM-ISO-1 fails: VM" + std::to_string(x) + " reached host page " + hex(vm::pte_host(d, used), 12) +
                    " of VM" + std::to_string(x ^ 1);
        break;
      }
      default:
        tlb.clear();
        break;
    }
    out << "\n";
    if (!failure.empty()) {
      out << "     ^ " << failure << "\n";
      r.failed_step = static_cast<int>(k);
    }
  }
  if (r.failed_step < 0) out << "  encoding mismatch: the concrete replay of these steps does not fail\n";
  out << "  page tables " << (r.failed_step < 0 ? "after the last step" : "at the failure") << ":\n";
  for (unsigned x = 0; x < 2; ++x) out << "  VM" << x << ":\n" << ranges_text(d, pt[x]);
  out << "  TLB" << (cfg.tlb_tagged ? " (tagged by VMID)" : " (not tagged: one entry per page for both VMs)") << ":\n";
  if (tlb.empty()) out << "    (empty)\n";
  for (const auto& [k, pte] : tlb)
    out << "    " << (cfg.tlb_tagged ? "VM" + std::to_string(k.first) + " " : std::string()) << "va "
        << hex(k.second << vm::kPageShift, 12) << " -> PTE " << hex(pte) << " (" << flags_text(pte) << ")\n";
  r.text = out.str();
  return r;
}

}  // namespace rocref::proofs::gpuvm
