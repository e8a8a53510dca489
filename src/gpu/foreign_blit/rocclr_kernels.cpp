// gpu/foreign_blit/rocclr_kernels.cpp - the ROCclr blit kernels' fingerprints.
#include "gpu/foreign_blit/rocclr_kernels.h"

namespace rocref::gpu::foreign_blit {
namespace {

// Registers the kernels' code receives (gfx9 user SGPRs): the dispatch packet and the kernarg pointers.
constexpr uint32_t kDispatchPtr = 4, kKernargPtr = 6;
// s_waitcnt lgkmcnt(0) with the other counters at their maximum, as the compiler emits it.
constexpr uint32_t kWaitLgkm0 = 0xBF8CC07Fu;
// SOPC "s_cmp_<op> ssrc0, ssrc1"; an inline integer constant n in 0..64 is the operand 128 + n.
constexpr uint32_t kSopcCmpLgU32 = 0x07, kSopcCmpEqU64 = 0x12;
constexpr uint32_t sopc(uint32_t op, uint32_t ssrc0, uint32_t ssrc1) {
  return 0xBF000000u | (op << 16) | (ssrc1 << 8) | ssrc0;
}
constexpr uint32_t inline_int(uint32_t n) { return 128 + n; }

void load(std::vector<CodeFact>& out, uint16_t at, uint32_t op, uint32_t sdata, uint32_t sbase, uint32_t offset) {
  out.push_back({at, smem_load_dw0(op, sdata, sbase)});
  out.push_back({static_cast<uint16_t>(at + 1), offset});
}

// Both copies open alike: the work-group size from the dispatch packet, the global offset
// (0x30) and the size (0x20), then, past the id < size test, the four addresses and origins.
void copy_loads(std::vector<CodeFact>& f) {
  load(f, 0, kSmemLoadDword, 9, kDispatchPtr, 0x4);
  load(f, 2, kSmemLoadDwordx2, 4, kKernargPtr, 0x30);
  load(f, 4, kSmemLoadDwordx4, 0, kKernargPtr, 0x20);
  f.push_back({6, kWaitLgkm0});
  load(f, 17, kSmemLoadDwordx8, 8, kKernargPtr, 0x0);
}

}  // namespace

RocclrFingerprint rocclr_fingerprint(BlitKernel k) {
  RocclrFingerprint fp{0, {}};
  auto& f = fp.facts;
  switch (k) {
    case BlitKernel::RocclrCopyBuffer:
      fp.kernarg_size = 104;
      copy_loads(f);
      load(f, 19, kSmemLoadDword, 16, kKernargPtr, 0x28);  // remain
      f.push_back({27, sopc(kSopcCmpLgU32, 16, inline_int(kCopyBytewise))});
      break;
    case BlitKernel::RocclrCopyBufferAligned:
      fp.kernarg_size = 104;
      copy_loads(f);
      load(f, 19, kSmemLoadDword, 0, kKernargPtr, 0x28);  // alignment
      f.push_back({28, sopc(kSopcCmpLgU32, 0, inline_int(16))});
      break;
    case BlitKernel::RocclrFillBufferAligned:
      fp.kernarg_size = 120;
      load(f, 0, kSmemLoadDword, 2, kDispatchPtr, 0x4);
      load(f, 2, kSmemLoadDwordx2, 0, kKernargPtr, 0x40);   // global offset
      load(f, 4, kSmemLoadDwordx4, 16, kKernargPtr, 0x30);  // offset, size
      f.push_back({6, kWaitLgkm0});
      load(f, 17, kSmemLoadDwordx8, 8, kKernargPtr, 0x0);   // the four buffers
      load(f, 19, kSmemLoadDwordx4, 0, kKernargPtr, 0x20);  // pattern
      load(f, 21, kSmemLoadDword, 4, kKernargPtr, 0x28);    // pattern_size
      f.push_back({23, kWaitLgkm0});
      f.push_back({24, sopc(kSopcCmpEqU64, 14, inline_int(0))});  // bufULong == 0: the widest store first
      break;
    case BlitKernel::CopyAligned:
    case BlitKernel::CopyMisaligned:
    case BlitKernel::Fill:
      break;
  }
  return fp;
}

std::optional<BlitKernel> recognise_rocclr(uint32_t kernarg_size, const uint32_t* code, size_t dwords) noexcept {
  if (code == nullptr) return std::nullopt;
  for (BlitKernel k : kRocclrKernels) {
    const RocclrFingerprint fp = rocclr_fingerprint(k);
    if (fp.kernarg_size != kernarg_size) continue;
    bool same = true;
    // BLIT-REC-3: every fact; the two copies differ only in how they load and test their mode argument.
    for (const CodeFact& fact : fp.facts) same = same && fact.index < dwords && code[fact.index] == fact.value;
    if (same) return k;
  }
  return std::nullopt;
}

}  // namespace rocref::gpu::foreign_blit
