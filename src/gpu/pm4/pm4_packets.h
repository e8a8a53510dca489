// gpu/pm4/pm4_packets.h - PM4 type-3 header fields and the opcodes ROCR 5.2.3 puts in its IBs.
//
// Facts from ROCR's core/inc/amd_gpu_pm4.h and amdgpu's soc15d.h: header =
// type (bits 30-31) | count = dwords - 2 (bits 16-29) | opcode (bits 8-15) |
// shader type (bit 1). A type-2 packet (0x80000000) is a one-dword filler, and so is a
// type-3 NOP whose count is 0x3FFF (amdgpu's ring padding, gfx_v9_0's ring `nop`).
#pragma once

#include <cstdint>

namespace rocref::gpu::pm4 {

inline constexpr uint32_t kItNop = 0x10;
inline constexpr uint32_t kItDispatchDirect = 0x15;
inline constexpr uint32_t kItSetShReg = 0x76;
inline constexpr uint32_t kItWriteData = 0x37;
inline constexpr uint32_t kItWaitRegMem = 0x3C;
inline constexpr uint32_t kItEventWrite = 0x46;
inline constexpr uint32_t kItIndirectBuffer = 0x3F;
inline constexpr uint32_t kItReleaseMem = 0x49;
inline constexpr uint32_t kItAcquireMem = 0x58;

constexpr uint32_t type_of(uint32_t header) { return header >> 30; }
constexpr uint32_t opcode_of(uint32_t header) { return (header >> 8) & 0xffu; }
constexpr uint32_t count_of(uint32_t header) { return (header >> 16) & 0x3fffu; }
inline constexpr uint32_t kOneDwordNopCount = 0x3fffu;
// PM4-PKT-1/2: count + 2 dwords, except the one-dword NOP (count 0x3FFF).
constexpr uint32_t dwords_of(uint32_t header) {
  return opcode_of(header) == kItNop && count_of(header) == kOneDwordNopCount ? 1 : count_of(header) + 2;
}
constexpr uint32_t make_header(uint32_t opcode, uint32_t dwords) {
  return (3u << 30) | (((dwords - 2) & 0x3fffu) << 16) | ((opcode & 0xffu) << 8);
}

// INDIRECT_BUFFER: dw1 base lo (bits 2-31), dw2 base hi (bits 0-15), dw3 size in dwords (bits 0-19), valid bit 23.
constexpr uint64_t ib_base(uint32_t dw1, uint32_t dw2) { return (uint64_t(dw2 & 0xffffu) << 32) | (dw1 & ~3u); }
constexpr uint32_t ib_size_dw(uint32_t dw3) { return dw3 & 0xfffffu; }
constexpr bool ib_valid(uint32_t dw3) { return (dw3 >> 23) & 1u; }

// RELEASE_MEM (gfx9, 8 dwords): dw2 int_sel bits 24-26, data_sel bits 29-31; dw3/4 address;
// dw5/6 data; dw7 interrupt context id.
constexpr uint32_t release_int_sel(uint32_t dw2) { return (dw2 >> 24) & 7u; }
constexpr uint32_t release_data_sel(uint32_t dw2) { return (dw2 >> 29) & 7u; }

// WRITE_DATA: dw1 dst_sel bits 8-11 (5 = memory); dw2/3 address; data follows.
constexpr uint32_t write_dst_sel(uint32_t dw1) { return (dw1 >> 8) & 0xfu; }
inline constexpr uint32_t kDstSelMemory = 5;

// WAIT_REG_MEM (MEC, 7 dwords): dw1 function bits 0-2, mem_space bits 4-5 (1 = memory),
// operation bits 6-7 (0 wait, 1 write-wait-write, 3 preemptable wait); dw2/3 poll address
// (dword aligned); dw4 reference; dw5 mask; dw6 poll interval bits 0-15.
constexpr uint32_t wait_function(uint32_t dw1) { return dw1 & 7u; }
constexpr uint32_t wait_mem_space(uint32_t dw1) { return (dw1 >> 4) & 3u; }
constexpr uint32_t wait_operation(uint32_t dw1) { return (dw1 >> 6) & 3u; }
inline constexpr uint32_t kWaitMemSpaceMemory = 1;
inline constexpr uint32_t kWaitOperationWait = 0;
inline constexpr uint32_t kWaitOperationPreemptable = 3;

// EVENT_WRITE: dw1 event_type bits 0-5, event_index bits 8-11. The partial flushes
// (event_index 4: CS/VS/PS_PARTIAL_FLUSH) are 2 dwords; other events carry an address.
constexpr uint32_t event_type_of(uint32_t dw1) { return dw1 & 0x3fu; }
constexpr uint32_t event_index_of(uint32_t dw1) { return (dw1 >> 8) & 0xfu; }
inline constexpr uint32_t kEventIndexPartialFlush = 4;
inline constexpr uint32_t kEventCsPartialFlush = 0x07;  // gfx9 VGT_EVENT_TYPE
inline constexpr uint32_t kEventVsPartialFlush = 0x0F;
inline constexpr uint32_t kEventPsPartialFlush = 0x10;

// The AQL vendor-specific packet ROCR's AqlQueue::ExecutePM4 writes on gfx9+:
// u16 header (type 0), u16 ven_hdr = AMD_AQL_FORMAT_PM4_IB, u32 ib_jump_cmd[4],
// u32 dw_cnt_remain = 0xA, u32 reserved[8], completion signal at byte 56.
inline constexpr uint16_t kAmdAqlFormatPm4Ib = 0x1;
struct AqlPm4IbPacket {
  uint16_t header;
  uint16_t ven_hdr;
  uint32_t ib_jump_cmd[4];
  uint32_t dw_cnt_remain;
  uint32_t reserved[8];
  uint64_t completion_signal;
};
static_assert(sizeof(AqlPm4IbPacket) == 64);
static_assert(__builtin_offsetof(AqlPm4IbPacket, ib_jump_cmd) == 4);
static_assert(__builtin_offsetof(AqlPm4IbPacket, completion_signal) == 56);

}  // namespace rocref::gpu::pm4
