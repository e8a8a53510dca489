// tests/fuzz/aql/fuzz_aql.cpp - libFuzzer harness for the AQL packet processor (gpu/, spec/aql-queue.md).
//
// The input lays out a GPU window (ring, signals, a kernel descriptor and its code record,
// kernargs, data; each page unmapped, read-only or read-write), an amd_queue_t (ring size and
// base, possibly invalid), and a program of producer actions: packets of every AQL type and of
// AMD's vendor formats (BARRIER_VALUE, PM4-IB) with fuzzer-chosen headers, fence scopes,
// dimensions, signals and addresses; write-index stores (valid, stale, far ahead); signal
// stores; rewrites of window bytes between two translations (a racing producer); steps,
// drains and inactivation. The processor must end every input with packets completed or the
// queue in error, never a host fault or UB.
#include <fuzzer/FuzzedDataProvider.h>
#include <hsa/amd_hsa_queue.h>
#include <hsa/amd_hsa_signal.h>
#include <hsa/hsa.h>
#include <hsa/hsa_ext_amd.h>

#include <cstdint>
#include <cstring>
#include <stdexcept>

#include "common/kernel_abi.h"
#include "common/sandbox_memory.h"
#include "common/tamper.h"
#include "gpu/packet_processor.h"
#include "gpu/pm4/pm4_packets.h"

namespace {

using namespace rocref;
using fuzz::pick_address;
using fuzz::SandboxMemory;
using fuzz::TamperingMemory;

constexpr size_t kPages = 8;
constexpr uint64_t kWindow = kPages * SandboxMemory::kPage;
constexpr uint64_t kSignals = 2 * 4096;  // page 2: 64 signals of 64 bytes
constexpr uint64_t kKernel = 3 * 4096;   // page 3: descriptor, code record, kernargs
constexpr uint64_t kData = 4 * 4096;

// A kernel whose work-items touch only their group segment; it throws past a work-item budget
// so a large grid ends as HSA_STATUS_ERROR_EXCEPTION instead of running for minutes.
thread_local uint64_t g_items = 0;
void fuzz_kernel(const void*) {
  const auto& ctx = kernel_abi::current();
  if (++g_items > 4096) throw std::runtime_error("work-item budget");
  if (ctx.group_segment && ctx.group_segment_size) static_cast<uint8_t*>(ctx.group_segment)[0] = 1;
}
const uint64_t g_kernel_id = kernel_abi::register_kernel("fuzz_kernel", &fuzz_kernel);

uint64_t signal_or_wild(FuzzedDataProvider& in) {
  switch (in.ConsumeIntegralInRange<int>(0, 5)) {
    case 0: return 0;
    case 1: return pick_address(in.ConsumeIntegral<uint32_t>(), kWindow);
    default: return SandboxMemory::va(kSignals + 64 * in.ConsumeIntegralInRange<uint64_t>(0, 63));
  }
}

uint16_t header(FuzzedDataProvider& in, uint8_t type) {
  uint16_t h = type;
  if (in.ConsumeBool()) h |= 1u << HSA_PACKET_HEADER_BARRIER;
  h |= uint16_t(in.ConsumeIntegralInRange<int>(0, 3) << HSA_PACKET_HEADER_SCACQUIRE_FENCE_SCOPE);
  h |= uint16_t(in.ConsumeIntegralInRange<int>(0, 3) << HSA_PACKET_HEADER_SCRELEASE_FENCE_SCOPE);
  return h;
}

// Fills a 64-byte packet; returns its header (written last, as a producer publishes).
uint16_t make_packet(FuzzedDataProvider& in, uint8_t* p) {
  std::memset(p, 0, 64);
  switch (in.ConsumeIntegralInRange<int>(0, 6)) {
    case 0: {
      hsa_kernel_dispatch_packet_t k{};
      k.setup = uint16_t(in.ConsumeIntegralInRange<int>(0, 4));
      k.workgroup_size_x = uint16_t(in.ConsumeIntegralInRange<int>(0, 64));
      k.workgroup_size_y = uint16_t(in.ConsumeIntegralInRange<int>(0, 2));
      k.workgroup_size_z = uint16_t(in.ConsumeIntegralInRange<int>(0, 2));
      k.grid_size_x = in.ConsumeIntegralInRange<uint32_t>(0, 256);
      k.grid_size_y = in.ConsumeIntegralInRange<uint32_t>(0, 4);
      k.grid_size_z = in.ConsumeIntegralInRange<uint32_t>(0, 4);
      k.private_segment_size = in.ConsumeIntegralInRange<uint32_t>(0, 1024);
      k.group_segment_size = in.ConsumeBool() ? in.ConsumeIntegralInRange<uint32_t>(0, 4096) : in.ConsumeIntegral<uint32_t>();
      k.kernel_object = in.ConsumeIntegralInRange<int>(0, 3) ? SandboxMemory::va(kKernel)
                                                             : pick_address(in.ConsumeIntegral<uint32_t>(), kWindow);
      k.kernarg_address = reinterpret_cast<void*>(in.ConsumeBool() ? SandboxMemory::va(kKernel + 256)
                                                                   : pick_address(in.ConsumeIntegral<uint32_t>(), kWindow));
      k.completion_signal.handle = signal_or_wild(in);
      std::memcpy(p, &k, 64);
      return header(in, HSA_PACKET_TYPE_KERNEL_DISPATCH);
    }
    case 1:
    case 2: {
      hsa_barrier_and_packet_t b{};
      for (auto& d : b.dep_signal) d.handle = signal_or_wild(in);
      b.completion_signal.handle = signal_or_wild(in);
      std::memcpy(p, &b, 64);
      return header(in, in.ConsumeBool() ? HSA_PACKET_TYPE_BARRIER_AND : HSA_PACKET_TYPE_BARRIER_OR);
    }
    case 3: {
      hsa_agent_dispatch_packet_t a{};
      a.type = in.ConsumeIntegral<uint16_t>();
      a.return_address = reinterpret_cast<void*>(pick_address(in.ConsumeIntegral<uint32_t>(), kWindow));
      for (auto& arg : a.arg) arg = in.ConsumeIntegral<uint64_t>();
      a.completion_signal.handle = signal_or_wild(in);
      std::memcpy(p, &a, 64);
      return header(in, HSA_PACKET_TYPE_AGENT_DISPATCH);
    }
    case 4: {
      hsa_amd_barrier_value_packet_t v{};
      v.header.AmdFormat = in.ConsumeBool() ? HSA_AMD_PACKET_TYPE_BARRIER_VALUE : in.ConsumeIntegral<uint8_t>();
      v.signal.handle = signal_or_wild(in);
      v.value = in.ConsumeIntegral<int64_t>();
      v.mask = in.ConsumeBool() ? -1 : in.ConsumeIntegral<int64_t>();
      v.cond = hsa_signal_condition32_t(in.ConsumeIntegralInRange<uint32_t>(0, 5));
      v.completion_signal.handle = signal_or_wild(in);
      std::memcpy(p, &v, 64);
      const uint16_t h = header(in, HSA_PACKET_TYPE_VENDOR_SPECIFIC);
      std::memcpy(p, &h, 2);
      return h;
    }
    case 5: {  // ROCR's PM4-IB vendor packet: a jump to an IB in the data pages
      gpu::pm4::AqlPm4IbPacket v{};
      v.ven_hdr = gpu::pm4::kAmdAqlFormatPm4Ib;
      const uint64_t ib = in.ConsumeBool() ? SandboxMemory::va(kData) : pick_address(in.ConsumeIntegral<uint32_t>(), kWindow);
      v.ib_jump_cmd[0] = gpu::pm4::make_header(gpu::pm4::kItIndirectBuffer, 4);
      v.ib_jump_cmd[1] = uint32_t(ib);
      v.ib_jump_cmd[2] = uint32_t(ib >> 32);
      v.ib_jump_cmd[3] = in.ConsumeIntegralInRange<uint32_t>(0, 32) | (in.ConsumeBool() ? 1u << 23 : 0);
      v.dw_cnt_remain = in.ConsumeBool() ? 0xA : in.ConsumeIntegral<uint32_t>();
      v.completion_signal = signal_or_wild(in);
      std::memcpy(p, &v, 64);
      return header(in, HSA_PACKET_TYPE_VENDOR_SPECIFIC);
    }
    default: {  // raw bytes
      const auto raw = in.ConsumeBytes<uint8_t>(64);
      if (!raw.empty()) std::memcpy(p, raw.data(), raw.size());
      return in.ConsumeIntegral<uint16_t>();
    }
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  FuzzedDataProvider in(data, size);
  g_items = 0;
  SandboxMemory memory(kPages);
  TamperingMemory tamper(memory);
  for (size_t page = 0; page < kPages; ++page) {
    const uint8_t perm = in.ConsumeIntegralInRange<uint8_t>(0, 7);
    if (perm == 1) memory.set_perm(page, SandboxMemory::Perm::None);
    if (perm == 2) memory.set_perm(page, SandboxMemory::Perm::Read);
  }
  // The kernel descriptor and the code record it points at.
  kernel_abi::KernelDescriptor kd{};
  kd.group_segment_fixed_size = in.ConsumeIntegralInRange<uint32_t>(0, 256);
  kd.kernel_code_entry_byte_offset = in.ConsumeIntegralInRange<int>(0, 7) ? 64 : in.ConsumeIntegral<int64_t>();
  std::memcpy(memory.host(kKernel), &kd, sizeof kd);
  kernel_abi::KernelCode code{};
  code.id = in.ConsumeIntegralInRange<int>(0, 7) ? g_kernel_id : in.ConsumeIntegral<uint64_t>();
  std::memcpy(memory.host(kKernel + 64), &code, sizeof code);
  // Signals: user signals with values and mailboxes from the input.
  for (int i = 0; i < 64 && in.ConsumeBool(); ++i) {
    amd_signal_t s{};
    s.kind = in.ConsumeIntegralInRange<int>(0, 3) ? AMD_SIGNAL_KIND_USER : in.ConsumeIntegral<int64_t>();
    s.value = in.ConsumeIntegralInRange<int64_t>(-1, 3);
    s.event_mailbox_ptr = in.ConsumeBool() ? 0 : pick_address(in.ConsumeIntegral<uint32_t>(), kWindow);
    s.event_id = in.ConsumeIntegral<uint32_t>();
    std::memcpy(memory.host(kSignals + 64 * i), &s, sizeof s);
  }

  alignas(64) static amd_queue_t q;
  std::memset(&q, 0, sizeof q);
  q.hsa_queue.type = HSA_QUEUE_TYPE_MULTI;
  const uint32_t slots = in.ConsumeIntegralInRange<int>(0, 15) == 0 ? in.ConsumeIntegral<uint32_t>()
                                                                   : 1u << in.ConsumeIntegralInRange<int>(0, 7);
  q.hsa_queue.size = slots;
  q.hsa_queue.base_address = reinterpret_cast<void*>(
      in.ConsumeIntegralInRange<int>(0, 15) ? SandboxMemory::va(0) : pick_address(in.ConsumeIntegral<uint32_t>(), kWindow));
  const uint32_t ring_slots = slots != 0 && slots <= 128 && (slots & (slots - 1)) == 0 ? slots : 128;
  for (uint32_t i = 0; i < ring_slots; ++i) {
    const uint16_t invalid = HSA_PACKET_TYPE_INVALID;
    std::memcpy(memory.host(64 * i), &invalid, 2);
  }

  gpu::QueueBinding b;
  b.queue = &q;
  b.memory = &tamper;
  b.on_interrupt = [](uint32_t) {};
  b.on_error = [](hsa_status_t, uint64_t) {};
  const bool agent_ok = in.ConsumeBool();
  b.on_agent_dispatch = [agent_ok](const hsa_agent_dispatch_packet_t&) { return agent_ok; };
  gpu::PacketProcessor pp(std::move(b));

  uint64_t write = 0;
  for (int op = 0; op < 48 && in.remaining_bytes() > 0; ++op) {
    switch (in.ConsumeIntegralInRange<int>(0, 8)) {
      case 0:
      case 1:
      case 2: {  // a packet at the write index, header last, then the write index
        uint8_t* slot = memory.host(64 * (write % ring_slots));
        uint8_t body[64];
        const uint16_t h = make_packet(in, body);
        std::memcpy(slot + 2, body + 2, 62);
        std::memcpy(slot, &h, 2);
        ++write;
        __atomic_store_n(&q.write_dispatch_id, write, __ATOMIC_RELEASE);
        break;
      }
      case 3:  // a write index that may be stale or far ahead
        __atomic_store_n(&q.write_dispatch_id, in.ConsumeBool() ? in.ConsumeIntegral<uint64_t>() : write,
                         __ATOMIC_RELEASE);
        break;
      case 4: {  // a signal store (the host side of a dependency)
        const int64_t v = in.ConsumeIntegralInRange<int64_t>(-1, 2);
        std::memcpy(memory.host(kSignals + 64 * in.ConsumeIntegralInRange<int>(0, 63) + 8), &v, 8);
        break;
      }
      case 5: {
        TamperingMemory::Write w;  // the processor copies a slot once (AQL-PUB), so races are fair game
        w.after = in.ConsumeIntegralInRange<uint64_t>(1, 64);
        w.offset = (in.ConsumeIntegral<uint32_t>() % kWindow) & ~uint64_t{3};
        w.value = in.ConsumeIntegral<uint32_t>();
        tamper.add(w);
        break;
      }
      case 6:
        pp.step();
        break;
      case 7:
        if (in.ConsumeIntegralInRange<int>(0, 7) == 0) pp.inactivate();
        break;
      default:
        pp.drain(64);
        break;
    }
  }
  pp.drain(512);
  (void)pp.stats();
  (void)pp.last_error();
  return 0;
}
