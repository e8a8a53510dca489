// tests/fuzz/sdma/fuzz_sdma.cpp - libFuzzer harness for the SDMA engine (gpu/sdma, spec/sdma.md).
//
// The input lays out a GPU window (page permissions), an SDMA ring binding (size, base, read and
// write pointer addresses, doorbell or polled write pointer) and a program of producer actions:
// well-formed packets of every opcode with fuzzer-chosen fields and addresses, raw dwords,
// write-pointer updates (valid, stale, misaligned, far ahead), engine steps, and rewrites of ring
// bytes between two of the engine's translations (a racing producer). Whatever the input, the
// engine must fault or error, never touch memory outside what it translated (ASan), and never
// execute undefined behaviour (UBSan).
#include <fuzzer/FuzzedDataProvider.h>

#include <cstdint>
#include <vector>

#include "common/sandbox_memory.h"
#include "common/tamper.h"
#include "gpu/sdma/sdma_engine.h"
#include "gpu/sdma/sdma_mutant.h"
#include "gpu/sdma/sdma_packets.h"

namespace {

using namespace rocref::gpu::sdma;
using rocref::fuzz::pick_address;
using rocref::fuzz::SandboxMemory;
using rocref::fuzz::TamperingMemory;

constexpr size_t kPages = 8;
constexpr uint64_t kWindow = kPages * SandboxMemory::kPage;

uint32_t header_for(FuzzedDataProvider& in, uint32_t op, uint32_t sub) {
  uint32_t extra = in.ConsumeBool() ? in.ConsumeIntegral<uint32_t>() & 0xffff0000u : 0;
  return op | (sub << 8) | extra;
}

// One packet as ROCR's BlitSdma would write it, with every field from the input.
std::vector<uint32_t> packet(FuzzedDataProvider& in) {
  auto addr = [&in](std::vector<uint32_t>& p) {
    const uint64_t a = pick_address(in.ConsumeIntegral<uint32_t>(), kWindow);
    p.push_back(uint32_t(a));
    p.push_back(uint32_t(a >> 32));
  };
  auto u32 = [&in] { return in.ConsumeIntegral<uint32_t>(); };
  std::vector<uint32_t> p;
  switch (in.ConsumeIntegralInRange<int>(0, 11)) {
    case 0:
      p = {header_for(in, kOpNop, 0)};
      p.resize(1 + (nop_extra_dw(p[0]) & 0x3f));
      break;
    case 1:
      p = {header_for(in, kOpCopy, kSubCopyLinear), in.ConsumeIntegralInRange<uint32_t>(0, 2 * kWindow), 0};
      addr(p);
      addr(p);
      break;
    case 2: {
      const uint32_t n = in.ConsumeIntegralInRange<uint32_t>(0, 24);
      p = {header_for(in, kOpWrite, kSubWriteLinear)};
      addr(p);
      p.push_back(in.ConsumeBool() ? n : u32());
      for (uint32_t i = 0; i <= n; ++i) p.push_back(u32());
      break;
    }
    case 3:
      p = {header_for(in, kOpFence, 0)};
      addr(p);
      p.push_back(u32());
      break;
    case 4: p = {header_for(in, kOpTrap, 0), u32()}; break;
    case 5:
      p = {kOpPollRegmem | (u32() & 0xffff0000u)};
      addr(p);
      p.push_back(u32());
      p.push_back(u32());
      p.push_back(u32());
      break;
    case 6:
      p = {kOpAtomic | (u32() & 0xffff0000u)};
      addr(p);
      for (int i = 0; i < 5; ++i) p.push_back(u32());
      break;
    case 7:
      p = {kOpConstFill | (u32() & 0xffff0000u)};
      addr(p);
      p.push_back(u32());
      p.push_back(in.ConsumeIntegralInRange<uint32_t>(0, 2 * kWindow));
      break;
    case 8:
      p = {header_for(in, kOpTimestamp, kSubTimestampGetGlobal)};
      addr(p);
      break;
    case 9:
      p = {header_for(in, kOpGcr, kSubUserGcr), u32(), u32(), u32(), u32()};
      break;
    case 10: {
      p = {kOpCopy | (kSubCopyLinearRect << 8) | (u32() & 0xffff0000u)};
      addr(p);
      for (int i = 0; i < 4; ++i) p.push_back(u32());
      addr(p);
      for (int i = 0; i < 5; ++i) p.push_back(u32());
      break;
    }
    default: {
      const size_t n = in.ConsumeIntegralInRange<size_t>(1, 16);
      for (size_t i = 0; i < n; ++i) p.push_back(u32());
      break;
    }
  }
  return p;
}

}  // namespace

#ifdef ROCREF_FUZZ_PLANTED_BUG
// fuzz_sdma_planted: the same harness over rocref_sdma_mutable with SDMA-WRITE-1's planted
// over-read switched on; scripts/fuzz --smoke requires it to fail (the harness can catch a bug).
extern "C" int LLVMFuzzerInitialize(int*, char***) {
  set_sdma_mutant(SdmaMutant::WritePastPacket, true);
  return 0;
}
#endif

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  FuzzedDataProvider in(data, size);
  SandboxMemory memory(kPages);
  TamperingMemory tamper(memory);
  // Page 0: ring (up to 4 KiB); page 1: read/write pointers; pages 2-7: data.
  const uint64_t ring_size = uint64_t{1} << in.ConsumeIntegralInRange<unsigned>(3, 12);
  const bool odd_binding = in.ConsumeIntegralInRange<int>(0, 15) == 0;
  alignas(8) uint64_t doorbell = 0;
  const bool use_doorbell = in.ConsumeBool();
  SdmaBinding b;
  b.ring_base = odd_binding ? pick_address(in.ConsumeIntegral<uint32_t>(), kWindow) : SandboxMemory::va(0);
  b.ring_size = odd_binding ? in.ConsumeIntegral<uint64_t>() : ring_size;
  b.rptr_va = odd_binding ? pick_address(in.ConsumeIntegral<uint32_t>(), kWindow) : SandboxMemory::va(4096);
  b.wptr_va = odd_binding ? pick_address(in.ConsumeIntegral<uint32_t>(), kWindow) : SandboxMemory::va(4096 + 8);
  b.doorbell = use_doorbell ? &doorbell : nullptr;
  b.memory = &tamper;
  b.on_trap = [](uint32_t) {};
  b.on_error = [](SdmaError, uint64_t, const std::string&) {};
  b.clock = [] { return uint64_t{12345}; };
  for (size_t page = 0; page < kPages; ++page) {
    const uint8_t perm = in.ConsumeIntegralInRange<uint8_t>(0, 7);
    if (perm == 1) memory.set_perm(page, SandboxMemory::Perm::None);
    if (perm == 2) memory.set_perm(page, SandboxMemory::Perm::Read);
  }
  SdmaEngine engine(std::move(b));

  uint64_t wptr = 0;  // the producer's view, in bytes
  auto publish = [&](uint64_t value) {
    if (use_doorbell) {
      __atomic_store_n(&doorbell, value, __ATOMIC_RELEASE);
    } else if (void* w = memory.translate(SandboxMemory::va(4096 + 8), 8, rocref::gpu::Access::Write)) {
      __atomic_store_n(static_cast<uint64_t*>(w), value, __ATOMIC_RELEASE);
    }
  };
  for (int op = 0; op < 64 && in.remaining_bytes() > 0; ++op) {
    switch (in.ConsumeIntegralInRange<int>(0, 5)) {
      case 0:
      case 1: {  // a packet at the write pointer, published
        for (uint32_t dw : packet(in)) {
          std::memcpy(memory.host((wptr % ring_size) & ~uint64_t{3}), &dw, 4);
          wptr += 4;
        }
        publish(wptr);
        break;
      }
      case 2: {  // a write pointer that may be stale, misaligned or far ahead
        const uint64_t bogus = in.ConsumeIntegral<uint64_t>();
        publish(in.ConsumeBool() ? bogus : wptr + (bogus & 0x1f));
        break;
      }
      case 3:
        engine.step();
        break;
      case 4: {  // a racing producer: rewrite a ring dword after the Nth translation
        // The engine copies a packet's dwords once, then decodes (SDMA-PKT-*): rewrites race it.
        TamperingMemory::Write w;
        w.after = in.ConsumeIntegralInRange<uint64_t>(1, 64);
        w.offset = (in.ConsumeIntegral<uint32_t>() % ring_size) & ~uint64_t{3};
        w.value = in.ConsumeIntegral<uint32_t>();
        tamper.add(w);
        break;
      }
      default:
        engine.drain(64);
        break;
    }
  }
  engine.drain(256);
  return 0;
}
