// gpu/sdma/sdma_packets.h - SDMA v4/v5 packet opcodes, sizes and field decoders (as ROCR writes them).
//
// Field positions follow ROCR 5.2.3's core/inc/sdma_registers.h and the amdgpu
// sdma_v4_0 packet definitions; only the packets ROCR emits are decoded. The
// packet length is a function of the header (and, for NOP and WRITE_LINEAR, of
// one count field): the engine must know it before it consumes anything
// (SDMA-PKT-1), or a variable-length packet would be mis-parsed.
#pragma once

#include <cstdint>
#include <optional>

namespace rocref::gpu::sdma {

// Opcodes (header bits 0-7) and sub-opcodes (bits 8-15).
inline constexpr uint32_t kOpNop = 0;
inline constexpr uint32_t kOpCopy = 1;
inline constexpr uint32_t kOpWrite = 2;
inline constexpr uint32_t kOpFence = 5;
inline constexpr uint32_t kOpTrap = 6;
inline constexpr uint32_t kOpPollRegmem = 8;
inline constexpr uint32_t kOpAtomic = 10;
inline constexpr uint32_t kOpConstFill = 11;
inline constexpr uint32_t kOpTimestamp = 13;
inline constexpr uint32_t kOpGcr = 17;

inline constexpr uint32_t kSubCopyLinear = 0;
inline constexpr uint32_t kSubCopyLinearRect = 4;
inline constexpr uint32_t kSubWriteLinear = 0;
inline constexpr uint32_t kSubTimestampGetGlobal = 2;
inline constexpr uint32_t kSubUserGcr = 1;
inline constexpr uint32_t kAtomicAdd64 = 47;

// Fixed sizes in dwords (FACTS: NOP 1, COPY_LINEAR 7, RECT 13, FENCE 4, TRAP 2,
// POLL_REGMEM 6, ATOMIC 8, CONST_FILL 5, TIMESTAMP 3, GCR 5).
inline constexpr uint32_t kCopyLinearDw = 7;
inline constexpr uint32_t kCopyLinearRectDw = 13;
inline constexpr uint32_t kWriteLinearHeaderDw = 4;  // + count + 1 data dwords
inline constexpr uint32_t kFenceDw = 4;
inline constexpr uint32_t kTrapDw = 2;
inline constexpr uint32_t kPollRegmemDw = 6;
inline constexpr uint32_t kAtomicDw = 8;
inline constexpr uint32_t kConstFillDw = 5;
inline constexpr uint32_t kTimestampDw = 3;
inline constexpr uint32_t kGcrDw = 5;

constexpr uint32_t op_of(uint32_t header) { return header & 0xffu; }
constexpr uint32_t sub_op_of(uint32_t header) { return (header >> 8) & 0xffu; }
constexpr uint32_t bits(uint32_t v, unsigned lo, unsigned width) {
  return (v >> lo) & ((width >= 32) ? 0xffffffffu : ((1u << width) - 1u));
}
constexpr uint64_t addr64(uint32_t lo, uint32_t hi) { return (uint64_t(hi) << 32) | lo; }

// NOP: count of extra dwords in bits 16-29 (sdma_v4_0 SDMA_PKT_NOP_HEADER_count).
constexpr uint32_t nop_extra_dw(uint32_t header) { return bits(header, 16, 14); }
// WRITE_LINEAR: dword 3 bits 0-19 hold (number of data dwords - 1).
constexpr uint32_t write_linear_data_dw(uint32_t dw3) { return bits(dw3, 0, 20) + 1; }
// COPY_LINEAR: dword 1 bits 0-21 hold (bytes - 1) on gfx9 and later.
constexpr uint64_t copy_linear_bytes(uint32_t dw1) { return uint64_t(bits(dw1, 0, 22)) + 1; }
// CONST_FILL header: fillsize bits 30-31 (0 byte, 2 dword). Dword 4 bits 0-21: byte count - 1;
// with dword fills the low two bits are ignored (ROCR writes (dwords - 1) * 4).
constexpr uint32_t const_fill_size(uint32_t header) { return bits(header, 30, 2); }
constexpr uint64_t const_fill_bytes(uint32_t dw4, uint32_t fillsize) {
  const uint64_t count = bits(dw4, 0, 22);
  return fillsize == 2 ? (count & ~uint64_t{3}) + 4 : count + 1;
}
// POLL_REGMEM header: hdp_flush bit 26, func bits 28-30, mem_poll bit 31; dword 5 interval/retry.
constexpr bool poll_hdp_flush(uint32_t header) { return bits(header, 26, 1) != 0; }
constexpr uint32_t poll_func(uint32_t header) { return bits(header, 28, 3); }
constexpr bool poll_mem(uint32_t header) { return bits(header, 31, 1) != 0; }
// ATOMIC header: loop bit 16, operation bits 25-31.
constexpr uint32_t atomic_operation(uint32_t header) { return bits(header, 25, 7); }
// TRAP dword 1: int_ctx bits 0-27, the event id ROCR waits on.
constexpr uint32_t trap_int_ctx(uint32_t dw1) { return bits(dw1, 0, 28); }
// COPY_LINEAR_RECT header: element size log2 in bits 29-31.
constexpr uint32_t rect_element_log2(uint32_t header) { return bits(header, 29, 3); }

// POLL_REGMEM compare functions (SDMA-POLL-1).
constexpr bool poll_compare(uint32_t func, uint32_t value, uint32_t reference) {
  switch (func) {
    case 0: return true;
    case 1: return value < reference;
    case 2: return value <= reference;
    case 3: return value == reference;
    case 4: return value != reference;
    case 5: return value >= reference;
    case 6: return value > reference;
    default: return false;
  }
}

// ROCR's HDP flush command (hdp_flush_cmd): a register poll the model answers at once.
inline constexpr uint32_t kHdpFlushDw0 = 0x8;
inline constexpr uint32_t kHdpFlushDw2 = 0x80000000u;

// Length in dwords of the packet whose header is `header`; `dw_at(i)` reads dword i of it
// (called only for i that the length depends on: NOP none, WRITE_LINEAR 3).
// nullopt: unknown opcode or sub-opcode (SDMA-ERR-1).
template <typename DwordAt>
std::optional<uint64_t> packet_dwords(uint32_t header, DwordAt dw_at) {
  const uint32_t op = op_of(header);
  const uint32_t sub = sub_op_of(header);
  switch (op) {
    case kOpNop: return uint64_t{1} + nop_extra_dw(header);
    case kOpCopy:
      if (sub == kSubCopyLinear) return kCopyLinearDw;
      if (sub == kSubCopyLinearRect) return kCopyLinearRectDw;
      return std::nullopt;
    case kOpWrite:
      if (sub != kSubWriteLinear) return std::nullopt;
      return uint64_t{kWriteLinearHeaderDw} + write_linear_data_dw(dw_at(3));
    case kOpFence: return kFenceDw;
    case kOpTrap: return kTrapDw;
    case kOpPollRegmem: return kPollRegmemDw;
    case kOpAtomic: return kAtomicDw;
    case kOpConstFill: return kConstFillDw;
    case kOpTimestamp: return sub == kSubTimestampGetGlobal ? std::optional<uint64_t>(kTimestampDw) : std::nullopt;
    case kOpGcr: return sub == kSubUserGcr ? std::optional<uint64_t>(kGcrDw) : std::nullopt;
    default: return std::nullopt;
  }
}

}  // namespace rocref::gpu::sdma
