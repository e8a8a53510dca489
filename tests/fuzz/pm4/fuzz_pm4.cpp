// tests/fuzz/pm4/fuzz_pm4.cpp - libFuzzer harness for the PM4 executor (gpu/pm4, spec/pm4.md).
//
// The input lays out a GPU window (page permissions) and writes PM4 packets into it: the
// opcodes ROCR emits (NOP, WRITE_DATA, INDIRECT_BUFFER chains, RELEASE_MEM, ACQUIRE_MEM) with
// fuzzer-chosen counts, selectors and addresses, plus raw dwords and type-2 fillers. Then it
// runs the IB directly (execute_ib) and through the AQL PM4-IB vendor packet
// (run_vendor_packet). Any input must end in ok or an error, never a host fault or UB.
#include <fuzzer/FuzzedDataProvider.h>

#include <cstdint>
#include <cstring>
#include <vector>

#include "common/sandbox_memory.h"
#include "gpu/pm4/pm4_executor.h"
#include "gpu/pm4/pm4_packets.h"
#include "gpu/pm4/vendor_packet.h"

namespace {

using namespace rocref::gpu::pm4;
using rocref::fuzz::pick_address;
using rocref::fuzz::SandboxMemory;

constexpr size_t kPages = 4;
constexpr uint64_t kWindow = kPages * SandboxMemory::kPage;

void packet(FuzzedDataProvider& in, std::vector<uint32_t>& ib) {
  auto u32 = [&in] { return in.ConsumeIntegral<uint32_t>(); };
  auto addr = [&](uint32_t mask_lo) {
    const uint64_t a = pick_address(u32(), kWindow);
    ib.push_back(uint32_t(a) & mask_lo);
    ib.push_back(uint32_t(a >> 32));
  };
  // A count that is usually right and sometimes anything (PM4-PKT-1: length from the header).
  auto hdr = [&](uint32_t op, uint32_t dwords) {
    ib.push_back(in.ConsumeIntegralInRange<int>(0, 7) == 0 ? (u32() & 0x3fff0000u) | (3u << 30) | (op << 8)
                                                            : make_header(op, dwords));
  };
  switch (in.ConsumeIntegralInRange<int>(0, 7)) {
    case 0: {
      const uint32_t n = in.ConsumeIntegralInRange<uint32_t>(2, 8);
      hdr(kItNop, n);
      for (uint32_t i = 1; i < n; ++i) ib.push_back(u32());
      break;
    }
    case 1: {
      const uint32_t data = in.ConsumeIntegralInRange<uint32_t>(0, 8);
      hdr(kItWriteData, 4 + data);
      ib.push_back(in.ConsumeBool() ? kDstSelMemory << 8 : u32());
      addr(0xffffffffu);
      for (uint32_t i = 0; i < data; ++i) ib.push_back(u32());
      break;
    }
    case 2: {  // a chained IB somewhere in the window
      hdr(kItIndirectBuffer, 4);
      addr(0xfffffffcu);
      ib.push_back(in.ConsumeIntegralInRange<uint32_t>(0, 64) | (in.ConsumeBool() ? 1u << 23 : 0));
      break;
    }
    case 3:
      hdr(kItReleaseMem, 8);
      ib.push_back(u32());
      ib.push_back(u32());
      addr(0xffffffffu);
      ib.push_back(u32());
      ib.push_back(u32());
      ib.push_back(u32());
      break;
    case 4:
      hdr(kItAcquireMem, 7);
      for (int i = 0; i < 6; ++i) ib.push_back(u32());
      break;
    case 5: ib.push_back(0x80000000u); break;  // type-2 filler
    default: {
      const size_t n = in.ConsumeIntegralInRange<size_t>(1, 8);
      for (size_t i = 0; i < n; ++i) ib.push_back(u32());
      break;
    }
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  FuzzedDataProvider in(data, size);
  SandboxMemory memory(kPages);
  for (size_t page = 0; page < kPages; ++page) {
    const uint8_t perm = in.ConsumeIntegralInRange<uint8_t>(0, 7);
    if (perm == 1) memory.set_perm(page, SandboxMemory::Perm::None);
    if (perm == 2) memory.set_perm(page, SandboxMemory::Perm::Read);
  }
  // Up to four IBs at fuzzer-chosen dword offsets; the first is the one run.
  uint64_t first_offset = 0;
  uint32_t first_size = 0;
  for (int k = 0; k < 4 && in.remaining_bytes() > 0; ++k) {
    std::vector<uint32_t> ib;
    const int packets = in.ConsumeIntegralInRange<int>(1, 12);
    for (int i = 0; i < packets && in.remaining_bytes() > 0; ++i) packet(in, ib);
    const uint64_t offset = (in.ConsumeIntegral<uint16_t>() % kWindow) & ~uint64_t{3};
    const size_t room = (kWindow - offset) / 4;
    const size_t n = std::min(room, ib.size());
    if (n > 0) std::memcpy(memory.host(offset), ib.data(), n * 4);
    if (k == 0) {
      first_offset = offset;
      first_size = in.ConsumeIntegralInRange<int>(0, 15) == 0 ? in.ConsumeIntegral<uint32_t>() : uint32_t(n);
    }
  }
  Pm4Context ctx{&memory, [](uint32_t) {}, [] { return uint64_t{42}; }};
  (void)execute_ib(SandboxMemory::va(first_offset), first_size, ctx);

  // The same IB through ROCR's AQL vendor packet (PM4-AQL-1).
  AqlPm4IbPacket v{};
  v.header = 0;
  v.ven_hdr = in.ConsumeBool() ? kAmdAqlFormatPm4Ib : in.ConsumeIntegral<uint16_t>();
  const uint64_t base = SandboxMemory::va(first_offset);
  v.ib_jump_cmd[0] = in.ConsumeBool() ? make_header(kItIndirectBuffer, 4) : in.ConsumeIntegral<uint32_t>();
  v.ib_jump_cmd[1] = uint32_t(base);
  v.ib_jump_cmd[2] = uint32_t(base >> 32);
  v.ib_jump_cmd[3] = (first_size & 0xfffffu) | (in.ConsumeBool() ? 1u << 23 : in.ConsumeIntegral<uint32_t>());
  v.dw_cnt_remain = in.ConsumeBool() ? 0xA : in.ConsumeIntegral<uint32_t>();
  // The packet processor asks both predicates first; the executor must refuse what they refuse.
  (void)is_pm4_ib_packet(&v);
  (void)pm4_ib_jump_is_valid(&v);
  (void)run_vendor_packet(&v, ctx);
  return 0;
}
