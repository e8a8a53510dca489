// gpu/isa/texel_format.h - buffer and image element formats: raw texel bytes <-> four 32-bit components.
//
// DATA_FORMAT says how many channels of how many bits a texel has, NUM_FORMAT how
// each channel converts to the 32-bit value a shader sees (Vega ISA 8.1.7, 8.2.5):
// UNORM/SNORM/USCALED/SSCALED/FLOAT give f32 bits, UINT/SINT integers. Missing
// channels read (0, 0, 0, 1); DST_SEL then routes channels to X, Y, Z, W (ISA-IMG-2).
// Only the channel-aligned formats are known; packed ones (10_11_11, 2_10_10_10, ...)
// are not, and an instruction using them is an unimplemented-instruction error.
#pragma once

#include <cstdint>

namespace rocref::gpu::isa {

struct TexelFormat {
  uint8_t bytes = 0;     // per texel
  uint8_t channels = 0;  // 1..4
  uint8_t bits = 0;      // per channel (8, 16 or 32)
  uint8_t num_format = 0;
  bool integer() const { return num_format == 4 || num_format == 5; }  // UINT, SINT
};

// false: a data/num format pair the model does not convert.
bool texel_format(uint32_t data_format, uint32_t num_format, TexelFormat* out);

// Raw bytes -> channels (X, Y, Z, W), missing ones 0, 0, 0, 1.
void unpack_texel(const TexelFormat& f, const uint8_t* bytes, uint32_t out[4]);
// Channels -> raw bytes (UNORM/SNORM clamp and round to nearest even; UINT/SINT keep the low bits).
void pack_texel(const TexelFormat& f, const uint32_t in[4], uint8_t* bytes);
// DST_SEL: result component c is sel[c] (SQ_SEL_0/1/X/Y/Z/W) applied to the channels.
void apply_dst_sel(const TexelFormat& f, const uint32_t channels[4], const uint32_t sel[4], uint32_t out[4]);

}  // namespace rocref::gpu::isa
