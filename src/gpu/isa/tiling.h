// gpu/isa/tiling.h - where a texel of a gfx9 swizzled (tiled) 2D image lives (ISA-IMG-4).
//
// A T# with SW_MODE != 0 addresses its texels in blocks of 256 B, 4 KiB or 64 KiB:
// a 256-byte micro block (S "standard" or D "display" bit order per element size),
// micro blocks in Morton order inside the block, blocks in rows of PITCH / block
// width, slices of the height padded to the block height. The _X modes XOR the pipe
// and bank bits above the 256-byte pipe interleave with higher coordinate bits and
// with the slice index; how many bits depends on GB_ADDR_CONFIG. This is the layout
// ROCR's image manager asks addrlib for when it creates an opaque (tiled) image.
#pragma once

#include <cstdint>

namespace rocref::gpu::isa {

// GB_ADDR_CONFIG of the modelled Vega 10: AMDKFD_IOC_GET_TILE_CONFIG reports it to ROCR's image
// manager, and the texture unit addresses tiled images with the same value.
inline constexpr uint32_t kGbAddrConfig = 0x2a114042;

struct AddrConfig {
  unsigned pipe_interleave_log2 = 8;
  unsigned pipes_log2 = 0;
  unsigned se_log2 = 0;
  unsigned banks_log2 = 0;
};
AddrConfig decode_gb_addr_config(uint32_t gb_addr_config);

struct Tiling {
  unsigned block_log2 = 0;            // 8, 12 or 16
  unsigned elem_log2 = 0;             // log2 of the texel bytes (0..4)
  bool display = false;               // D order (else S) inside the 256-byte micro block
  bool xored = false;                 // the non-PRT _X modes
  unsigned block_w = 0, block_h = 0;  // in texels
};

// false: a SW_MODE (Z, R, PRT, VAR, reserved) or texel size the model does not address.
bool tiling_of(uint32_t sw_mode, unsigned texel_bytes, Tiling* out);

// Byte offset from the image base of texel (x, y) of `slice`; pitch in texels (rows of
// blocks hold ceil(pitch / block_w) blocks), height in texels (padded to block_h per slice).
uint64_t tiled_offset(const Tiling& t, const AddrConfig& cfg, uint32_t pitch, uint32_t height, uint32_t x, uint32_t y,
                      uint32_t slice);

}  // namespace rocref::gpu::isa
