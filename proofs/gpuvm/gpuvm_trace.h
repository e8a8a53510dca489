// proofs/gpuvm/gpuvm_trace.h - readable GPUVM counterexamples: the operation sequence Z3 found,
// replayed on concrete page tables with src/'s rules, and the page-table state at the failure.
//
// A BMC model is a list of operations (VMID, map/unmap/translate/invalidate,
// page, frame, flags, access). replay() runs them on std::map page tables and
// a std::map TLB with the same step rules as the encoding, but through
// VmConcreteDomain, and prints each step, the step where the property fails,
// and per VMID the mapped ranges with their PTE flags and the TLB's entries. A
// model the concrete replay does not fail on is printed as "encoding mismatch".
#pragma once

#include <z3++.h>

#include <bitset>
#include <cstdint>
#include <string>
#include <vector>

#include "proofs/gpuvm/gpuvm_encoding.h"

namespace rocref::proofs::gpuvm {

struct ConcreteOp {
  unsigned vm = 0, op = 0;
  uint64_t vpn = 0, frame = 0;
  unsigned flags = 0, access = 0;
};

std::vector<ConcreteOp> decode_ops(const z3::model& m, const std::vector<SeqOp>& ops);

// Which property the replay checks after each translate.
enum class SeqClaim { TlbCoherent, OwnFramesOnly };

struct Replay {
  std::string text;   // the numbered steps, then the state at the failure
  int failed_step = -1;  // 0-based; -1 when the replay does not fail
};
Replay replay(const std::vector<ConcreteOp>& ops, const SeqConfig& cfg, SeqClaim claim,
              std::bitset<static_cast<size_t>(VmMutant::kCount)> mutants = {});

std::string flags_text(uint64_t pte);  // "V R W X S" style, from pte.h's bits

}  // namespace rocref::proofs::gpuvm
