// gpu/isa/wave_state.h - the architectural state of one wave64: SGPRs, VGPRs, VCC, EXEC, SCC, M0, PC.
//
// SGPRs and the special scalar registers live in one array indexed by operand
// code (s0-s101, FLAT_SCRATCH 102-103, XNACK_MASK 104-105, VCC 106-107,
// TTMP 108-123, M0 124, EXEC 126-127), so a scalar operand is one load.
// VGPRs are row-major: v[r * 64 + lane]. Inline constants follow the Vega ISA
// reference, section 3.6.2 (ISA-EXEC-2).
#pragma once

#include <cstdint>
#include <vector>

#include "gpu/isa/instruction.h"

namespace rocref::gpu::isa {

inline constexpr unsigned kWaveLanes = 64;
// Aperture bases as the KFD model reports them (kfd_misc.cpp, kfd_init_apertures_v9):
// LDS at 1 << 48, scratch at 2 << 48; SH_MEM_BASES holds their bits 63:48.
inline constexpr uint64_t kSharedApertureBase = uint64_t{1} << 48;
inline constexpr uint64_t kPrivateApertureBase = uint64_t{2} << 48;
inline constexpr uint64_t kApertureSize = uint64_t{1} << 32;

// Rows past the wave's VGPR allocation that SDWA and DPP use for their prepared
// operands (the selected bytes, the permuted lanes) and the SDWA result before its
// dst_sel placement; no instruction can name them (vgpr_ok refuses them).
inline constexpr unsigned kHiddenRows = 4;

enum class WaveState : uint8_t { Running, AtBarrier, Done };

struct Wave {
  alignas(64) uint32_t s[128] = {};
  bool scc = false;
  WaveState state = WaveState::Running;
  uint32_t mode = 0;          // HW_REG_MODE as s_setreg left it
  uint32_t wave_id = 0;       // index within the work-group
  uint64_t pc = 0;
  uint32_t nvgpr = 0;
  std::vector<uint32_t> v;    // (nvgpr + kHiddenRows) * 64
  uint64_t instructions = 0;  // executed by this wave

  uint64_t exec() const { return uint64_t{s[kExecLo]} | uint64_t{s[kExecHi]} << 32; }
  uint64_t vcc() const { return uint64_t{s[kVccLo]} | uint64_t{s[kVccHi]} << 32; }
  void set_exec(uint64_t e) { s[kExecLo] = static_cast<uint32_t>(e); s[kExecHi] = static_cast<uint32_t>(e >> 32); }
  void set_vcc(uint64_t e) { s[kVccLo] = static_cast<uint32_t>(e); s[kVccHi] = static_cast<uint32_t>(e >> 32); }
  uint32_t* vrow(unsigned r) { return v.data() + size_t{r} * kWaveLanes; }
  const uint32_t* vrow(unsigned r) const { return v.data() + size_t{r} * kWaveLanes; }
  bool vgpr_ok(unsigned r, unsigned count = 1) const { return r + count <= nvgpr; }
};

inline uint32_t bit_reverse32(uint32_t v) {
  v = ((v >> 1) & 0x55555555u) | ((v & 0x55555555u) << 1);
  v = ((v >> 2) & 0x33333333u) | ((v & 0x33333333u) << 2);
  v = ((v >> 4) & 0x0f0f0f0fu) | ((v & 0x0f0f0f0fu) << 4);
  v = ((v >> 8) & 0x00ff00ffu) | ((v & 0x00ff00ffu) << 8);
  return (v >> 16) | (v << 16);
}

// Inline constant of a 32-bit operand (integers -16..64, the float constants as f32 bits).
inline uint32_t inline_constant32(uint16_t code) {
  if (code >= 128 && code <= 192) return code - 128u;
  if (code >= 193 && code <= 208) return static_cast<uint32_t>(-(static_cast<int32_t>(code) - 192));
  switch (code) {
    case 240: return 0x3f000000u;  // 0.5
    case 241: return 0xbf000000u;
    case 242: return 0x3f800000u;  // 1.0
    case 243: return 0xbf800000u;
    case 244: return 0x40000000u;  // 2.0
    case 245: return 0xc0000000u;
    case 246: return 0x40800000u;  // 4.0
    case 247: return 0xc0800000u;
    case 248: return 0x3e22f983u;  // 1 / (2 pi)
    default: return 0;
  }
}

// Inline constant of a 64-bit operand (integers sign-extended, floats as f64 bits).
inline uint64_t inline_constant64(uint16_t code) {
  if (code >= 128 && code <= 208) return static_cast<uint64_t>(static_cast<int64_t>(static_cast<int32_t>(inline_constant32(code))));
  switch (code) {
    case 240: return 0x3fe0000000000000ull;
    case 241: return 0xbfe0000000000000ull;
    case 242: return 0x3ff0000000000000ull;
    case 243: return 0xbff0000000000000ull;
    case 244: return 0x4000000000000000ull;
    case 245: return 0xc000000000000000ull;
    case 246: return 0x4010000000000000ull;
    case 247: return 0xc010000000000000ull;
    case 248: return 0x3fc45f306dc9c882ull;
    default: return 0;
  }
}

// A scalar-or-constant 32-bit operand (not a VGPR).
inline uint32_t scalar_read32(const Wave& w, uint16_t code, uint32_t literal) {
  if (code < 128) return w.s[code];
  switch (code) {
    case kLiteral: return literal;
    case kScc: return w.scc ? 1u : 0u;
    case kVccz: return w.vcc() == 0 ? 1u : 0u;
    case kExecz: return w.exec() == 0 ? 1u : 0u;
    case kSharedBase: return static_cast<uint32_t>(kSharedApertureBase >> 32);
    case kSharedLimit: return static_cast<uint32_t>((kSharedApertureBase + kApertureSize - 1) >> 32);
    case kPrivateBase: return static_cast<uint32_t>(kPrivateApertureBase >> 32);
    case kPrivateLimit: return static_cast<uint32_t>((kPrivateApertureBase + kApertureSize - 1) >> 32);
    default: return inline_constant32(code);
  }
}

// A 64-bit scalar operand: an SGPR pair, a constant, or a literal (the high half for f64 operands).
inline uint64_t scalar_read64(const Wave& w, uint16_t code, uint32_t literal, bool fp64 = false) {
  if (code < 127) return uint64_t{w.s[code]} | uint64_t{w.s[code + 1]} << 32;
  switch (code) {
    case kLiteral: return fp64 ? uint64_t{literal} << 32 : uint64_t{literal};
    case kScc: return w.scc ? 1u : 0u;
    case kVccz: return w.vcc() == 0 ? 1u : 0u;
    case kExecz: return w.exec() == 0 ? 1u : 0u;
    case kSharedBase: return kSharedApertureBase;
    case kSharedLimit: return kSharedApertureBase + kApertureSize - 1;
    case kPrivateBase: return kPrivateApertureBase;
    case kPrivateLimit: return kPrivateApertureBase + kApertureSize - 1;
    default: return inline_constant64(code);
  }
}

inline void scalar_write32(Wave& w, uint16_t code, uint32_t value) {
  if (code < 128) w.s[code] = value;  // writes to constants are ignored, as the hardware does
}
inline void scalar_write64(Wave& w, uint16_t code, uint64_t value) {
  if (code < 127) {
    w.s[code] = static_cast<uint32_t>(value);
    w.s[code + 1] = static_cast<uint32_t>(value >> 32);
  }
}

}  // namespace rocref::gpu::isa
