// gpu/foreign_blit/rocr_kernels.cpp - the blit kernels' prologue fingerprints.
#include "gpu/foreign_blit/rocr_kernels.h"

namespace rocref::gpu::foreign_blit {
namespace {

void load(std::vector<uint32_t>& out, uint32_t op, uint32_t sdata, uint32_t offset) {
  out.push_back(smem_load_dw0(op, sdata));
  out.push_back(offset);
}

// SOPP s_waitcnt with lgkmcnt (bits 8-11) zero; the other counters may take any value.
bool is_waitcnt_lgkm0(uint32_t dw) { return (dw >> 16) == 0xBF8Cu && ((dw >> 8) & 0xfu) == 0; }

}  // namespace

const char* blit_kernel_name(BlitKernel k) noexcept {
  switch (k) {
    case BlitKernel::CopyAligned: return "CopyAligned";
    case BlitKernel::CopyMisaligned: return "CopyMisaligned";
    case BlitKernel::Fill: return "Fill";
    case BlitKernel::RocclrCopyBuffer: return "__amd_rocclr_copyBuffer";
    case BlitKernel::RocclrCopyBufferAligned: return "__amd_rocclr_copyBufferAligned";
    case BlitKernel::RocclrFillBufferAligned: return "__amd_rocclr_fillBufferAligned";
  }
  return "?";
}

std::vector<uint32_t> prologue(BlitKernel k) {
  std::vector<uint32_t> p;
  switch (k) {
    case BlitKernel::CopyAligned:  // s[4:7]..s[20:23] <- 0x0..0x40, s24 <- 0x50
      for (uint32_t i = 0; i < 5; ++i) load(p, kSmemLoadDwordx4, 4 + 4 * i, 0x10 * i);
      load(p, kSmemLoadDword, 24, 0x50);
      break;
    case BlitKernel::CopyMisaligned:  // s[4:7]..s[12:15] <- 0x0..0x20, s16 <- 0x30
      for (uint32_t i = 0; i < 3; ++i) load(p, kSmemLoadDwordx4, 4 + 4 * i, 0x10 * i);
      load(p, kSmemLoadDword, 16, 0x30);
      break;
    case BlitKernel::Fill:  // s[4:7], s[8:11] <- 0x0, 0x10
      for (uint32_t i = 0; i < 2; ++i) load(p, kSmemLoadDwordx4, 4 + 4 * i, 0x10 * i);
      break;
    case BlitKernel::RocclrCopyBuffer:
    case BlitKernel::RocclrCopyBufferAligned:
    case BlitKernel::RocclrFillBufferAligned:
      break;
  }
  return p;
}

std::optional<BlitKernel> recognise(const uint32_t* code, size_t dwords) noexcept {
  if (code == nullptr) return std::nullopt;
  for (BlitKernel k : {BlitKernel::CopyAligned, BlitKernel::CopyMisaligned, BlitKernel::Fill}) {
    const std::vector<uint32_t> p = prologue(k);
    if (dwords < p.size() + 1) continue;
    bool same = true;
    for (size_t i = 0; i < p.size() && same; ++i) same = code[i] == p[i];
    // BLIT-REC-1: the whole load sequence, then the wait for it; a longer kernel's prefix
    // (Fill's two loads start CopyAligned too) never matches because the next dword differs.
    if (same && is_waitcnt_lgkm0(code[p.size()])) return k;
  }
  return std::nullopt;
}

}  // namespace rocref::gpu::foreign_blit
