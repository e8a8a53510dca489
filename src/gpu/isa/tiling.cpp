// gpu/isa/tiling.cpp - gfx9 swizzle-mode addressing as a bit equation (ISA-IMG-4).
//
// Each address bit below the block size is one coordinate bit: the 256-byte micro block
// takes its bits from the S or D table, the bits above alternate y (even) and x (odd).
// The _X modes then XOR each pipe bit and each bank bit with a mirrored higher address
// bit (which may lie above the block: the Morton order continues there) and with the
// bit-reversed slice index. Facts from AMD's gfx9 address library (the equations ROCR's
// image manager relies on) and the GB_ADDR_CONFIG field layout.
#include "gpu/isa/tiling.h"

#include <algorithm>

#include "gpu/isa/isa_mutant.h"

namespace rocref::gpu::isa {
namespace {

struct Bit {
  bool y;
  uint8_t bit;  // of the texel coordinate
};
constexpr Bit X(uint8_t b) { return {false, b}; }
constexpr Bit Y(uint8_t b) { return {true, b}; }

// Micro-block address bits elem_log2..7 per element size (1, 2, 4, 8, 16 bytes); the bits
// below elem_log2 are the byte inside the texel.
constexpr Bit kStandard[5][8] = {{X(0), X(1), X(2), X(3), Y(0), Y(1), Y(2), Y(3)},
                                 {X(0), X(1), X(2), Y(0), Y(1), Y(2), X(3)},
                                 {X(0), X(1), Y(0), Y(1), Y(2), X(2)},
                                 {X(0), Y(0), Y(1), X(1), X(2)},
                                 {Y(0), Y(1), X(0), X(1)}};
constexpr Bit kDisplay[5][8] = {{X(0), X(1), X(2), Y(1), Y(0), Y(2), X(3), Y(3)},
                                {X(0), X(1), X(2), Y(0), Y(1), Y(2), X(3)},
                                {X(0), X(1), Y(0), X(2), Y(1), Y(2)},
                                {X(0), Y(0), X(1), X(2), Y(1)},
                                {X(0), Y(0), X(1), Y(1)}};
// The micro block in texels: 16x16, 16x8, 8x8, 8x4, 4x4.
constexpr unsigned kMicroWLog2[5] = {4, 4, 3, 3, 2}, kMicroHLog2[5] = {4, 3, 3, 2, 2};

uint64_t bit_of(uint64_t v, unsigned i) { return i < 64 ? (v >> i) & 1 : 0; }

// The address bits (not yet XORed), the Morton order continued past the block.
uint64_t swizzle(const Tiling& t, uint32_t x, uint32_t y) {
  const Bit* micro = (t.display ? kDisplay : kStandard)[t.elem_log2];
  uint64_t v = 0;
  for (unsigned i = t.elem_log2; i < 8; ++i) {
    const Bit b = micro[i - t.elem_log2];
    v |= bit_of(b.y ? y : x, b.bit) << i;
  }
  unsigned xi = kMicroWLog2[t.elem_log2], yi = kMicroHLog2[t.elem_log2];
  for (unsigned i = 8; i < 64; ++i) v |= (i % 2 == 0 ? bit_of(y, yi++) : bit_of(x, xi++)) << i;
  return v;
}

}  // namespace

AddrConfig decode_gb_addr_config(uint32_t g) {
  AddrConfig c;
  c.pipes_log2 = g & 7;                         // NUM_PIPES [2:0]
  c.pipe_interleave_log2 = 8 + ((g >> 3) & 7);  // PIPE_INTERLEAVE_SIZE [5:3]: 256 B << n
  c.banks_log2 = (g >> 12) & 7;                 // NUM_BANKS [14:12]
  c.se_log2 = (g >> 19) & 3;                    // NUM_SHADER_ENGINES [20:19]
  return c;
}

bool tiling_of(uint32_t sw_mode, unsigned texel_bytes, Tiling* out) {
  Tiling t;
  switch (sw_mode) {
    case 1:
    case 2: t.block_log2 = 8; break;  // SW_256B_S, SW_256B_D
    case 5:
    case 6: t.block_log2 = 12; break;  // SW_4KB_S, SW_4KB_D
    case 9:
    case 10: t.block_log2 = 16; break;  // SW_64KB_S, SW_64KB_D
    case 21:
    case 22:
      t.block_log2 = 12;
      t.xored = true;
      break;  // SW_4KB_S_X, SW_4KB_D_X
    case 25:
    case 26:
      t.block_log2 = 16;
      t.xored = true;
      break;                // SW_64KB_S_X, SW_64KB_D_X
    default: return false;  // Z, R, PRT (_T), VAR and reserved modes
  }
  t.display = sw_mode % 2 == 0;
  if (texel_bytes == 0 || texel_bytes > 16 || (texel_bytes & (texel_bytes - 1)) != 0) return false;
  while ((1u << t.elem_log2) < texel_bytes) ++t.elem_log2;
  const unsigned amp = t.block_log2 - 8;  // the block is 2^amp micro blocks: width gets the smaller half
  t.block_w = 1u << (kMicroWLog2[t.elem_log2] + amp / 2);
  t.block_h = 1u << (kMicroHLog2[t.elem_log2] + amp - amp / 2);
  *out = t;
  return true;
}

uint64_t tiled_offset(const Tiling& t, const AddrConfig& cfg, uint32_t pitch, uint32_t height, uint32_t x, uint32_t y,
                      uint32_t slice) {
  uint64_t v = swizzle(t, x, y);
  if (t.xored && t.block_log2 > cfg.pipe_interleave_log2 && !isa_mutant_active(IsaMutant::TiledNoPipeBankXor)) {
    const unsigned pil = cfg.pipe_interleave_log2;
    const unsigned pipe = std::min(t.block_log2 - pil, cfg.pipes_log2 + cfg.se_log2);
    const unsigned bank = std::min(t.block_log2 - pil - pipe, cfg.banks_log2);
    uint64_t flip = 0;
    for (unsigned i = 0; i < pipe; ++i) {
      flip |= (bit_of(v, pil + 2 * pipe - 1 - i) ^ bit_of(slice, pipe - 1 - i)) << (pil + i);
    }
    for (unsigned i = 0; i < bank; ++i) {
      flip |= (bit_of(v, pil + pipe + 2 * bank - 1 - i) ^ bit_of(slice, pipe + bank - 1 - i)) << (pil + pipe + i);
    }
    v ^= flip;
  }
  const uint64_t in_block = v & ((uint64_t{1} << t.block_log2) - 1);
  const uint64_t row_blocks = (uint64_t{pitch} + t.block_w - 1) / t.block_w;
  const uint64_t slice_rows = (uint64_t{height} + t.block_h - 1) / t.block_h;
  const uint64_t block = (uint64_t{slice} * slice_rows + y / t.block_h) * row_blocks + x / t.block_w;
  return block << t.block_log2 | in_block;
}

}  // namespace rocref::gpu::isa
