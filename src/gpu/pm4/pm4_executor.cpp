// gpu/pm4/pm4_executor.cpp - one dispatch row per PM4 opcode (spec/pm4.md).
#include "gpu/pm4/pm4_executor.h"

#include <chrono>
#include <cstdio>
#include <cstring>
#include <vector>

#include "gpu/isa/agent_cache.h"
#include "gpu/pm4/pm4_dispatch.h"
#include "gpu/pm4/pm4_mutant.h"
#include "gpu/pm4/pm4_packets.h"

namespace rocref::gpu::pm4 {
namespace {

std::string hex(uint64_t v) {
  char s[24];
  std::snprintf(s, sizeof s, "0x%llx", static_cast<unsigned long long>(v));
  return s;
}

bool fail(Pm4Result& r, std::string what) {
  r.ok = false;
  r.what = std::move(what);
  return false;
}

uint64_t now(const Pm4Context& ctx) {
  if (ctx.clock) return ctx.clock();
  return uint64_t(std::chrono::duration_cast<std::chrono::nanoseconds>(
                      std::chrono::steady_clock::now().time_since_epoch())
                      .count());
}

bool release_mem(const uint32_t* p, uint32_t n, const Pm4Context& ctx, Pm4Result& r) {
  if (n < 8) return fail(r, "PM4-REL-1: RELEASE_MEM shorter than 8 dwords");
  const uint32_t data_sel = release_data_sel(p[2]);
  const uint32_t int_sel = release_int_sel(p[2]);
  const uint64_t va = (uint64_t(p[4]) << 32) | p[3];
  if (data_sel > 3) return fail(r, "PM4-REL-1: RELEASE_MEM data_sel " + std::to_string(data_sel) + " not modeled");
  // PM4-DISP-3: the end-of-pipe release writes the L2's dirty lines back before its data.
  if (ctx.l2 != nullptr && !pm4_mutant_active(Pm4Mutant::ReleaseSkipsL2WriteBack)) ctx.l2->write_back();
  if (data_sel != 0) {
    const size_t bytes = data_sel == 1 ? 4 : 8;
    if (va % bytes != 0) return fail(r, "PM4-REL-1: RELEASE_MEM address " + hex(va) + " misaligned");
    void* dst = ctx.memory->translate(va, bytes, Access::Write);
    if (dst == nullptr) return fail(r, "PM4-REL-1: RELEASE_MEM address " + hex(va) + " not mapped");
    if (data_sel == 1) {
      __atomic_store_n(static_cast<uint32_t*>(dst), p[5], __ATOMIC_RELEASE);
    } else {
      const uint64_t v = data_sel == 2 ? ((uint64_t(p[6]) << 32) | p[5]) : now(ctx);
      __atomic_store_n(static_cast<uint64_t*>(dst), v, __ATOMIC_RELEASE);
    }
  }
  // PM4-REL-2: the interrupt follows the write (int_sel 2 = after write confirm).
  if (int_sel != 0 && ctx.on_interrupt) ctx.on_interrupt(p[7]);
  return true;
}

bool write_data(const uint32_t* p, uint32_t n, const Pm4Context& ctx, Pm4Result& r) {
  if (n < 5) return fail(r, "PM4-WR-1: WRITE_DATA without data");
  if (write_dst_sel(p[1]) != kDstSelMemory) {
    return fail(r, "PM4-WR-1: WRITE_DATA dst_sel " + std::to_string(write_dst_sel(p[1])) + " (registers are not modeled)");
  }
  const uint64_t va = (uint64_t(p[3]) << 32) | p[2];
  const uint32_t count = n - 4;
  if (va & 3) return fail(r, "PM4-WR-1: WRITE_DATA address " + hex(va) + " misaligned");
  auto* dst = static_cast<uint32_t*>(ctx.memory->translate(va, size_t(count) * 4, Access::Write));
  if (dst == nullptr) return fail(r, "PM4-WR-1: WRITE_DATA address " + hex(va) + " not mapped");
  for (uint32_t i = 0; i < count; ++i) __atomic_store_n(&dst[i], p[4 + i], __ATOMIC_RELAXED);
  return true;
}

// PM4-WAIT-1: (memory & mask) compared with the reference by the packet's function.
bool wait_holds(uint32_t function, uint32_t value, uint32_t ref) {
  switch (function) {
    case 0: return true;
    case 1: return value < ref;
    case 2: return value <= ref;
    case 3: return value == ref;
    case 4: return value != ref;
    case 5: return value >= ref;
    default: return value > ref;  // 6; 7 is refused before
  }
}

bool wait_reg_mem(const uint32_t* p, uint32_t n, const Pm4Context& ctx, Pm4Result& r) {
  if (n != 7) return fail(r, "PM4-WAIT-1: WAIT_REG_MEM is not 7 dwords");
  const uint32_t function = wait_function(p[1]);
  const uint32_t op = wait_operation(p[1]);
  if (wait_mem_space(p[1]) != kWaitMemSpaceMemory) {
    return fail(r, "PM4-WAIT-1: WAIT_REG_MEM on a register (registers are not modeled)");
  }
  if (op != kWaitOperationWait && op != kWaitOperationPreemptable) {
    return fail(r, "PM4-WAIT-1: WAIT_REG_MEM operation " + std::to_string(op) + " not modeled");
  }
  if (function == 7) return fail(r, "PM4-WAIT-1: WAIT_REG_MEM function 7 is reserved");
  const uint64_t va = (uint64_t(p[3]) << 32) | p[2];
  if (va & 3) return fail(r, "PM4-WAIT-1: WAIT_REG_MEM address " + hex(va) + " misaligned");
  void* host = ctx.memory->translate(va, 4, Access::Read);
  if (host == nullptr) return fail(r, "PM4-WAIT-1: WAIT_REG_MEM address " + hex(va) + " not mapped");
  // The CP's poll reads through the L2, as a kernel's load does (fine-grained memory bypasses it).
  if (ctx.l2 != nullptr) host = ctx.l2->access(*ctx.memory, va, host, 4, Access::Read);
  const uint32_t mask = pm4_mutant_active(Pm4Mutant::WaitIgnoresMask) ? ~0u : p[5];
  const uint32_t value = __atomic_load_n(static_cast<const uint32_t*>(host), __ATOMIC_ACQUIRE) & mask;
  r.waiting = !wait_holds(function, value, p[4]) && !pm4_mutant_active(Pm4Mutant::WaitNeverStalls);
  return true;
}

// PM4-EVT-1: the partial flushes wait for the queue's earlier dispatches, which have all ended
// when the next packet is read (a DISPATCH_DIRECT runs to its end); other events are not modeled.
bool event_write(const uint32_t* p, uint32_t n, Pm4Result& r) {
  if (n < 2) return fail(r, "PM4-EVT-1: EVENT_WRITE without its event");
  const uint32_t type = event_type_of(p[1]);
  const bool partial_flush =
      event_index_of(p[1]) == kEventIndexPartialFlush &&
      (type == kEventCsPartialFlush || type == kEventVsPartialFlush || type == kEventPsPartialFlush);
  if ((partial_flush && n == 2) || pm4_mutant_active(Pm4Mutant::EventWriteAcceptsAnyEvent)) return true;
  return fail(r, "PM4-EVT-1: EVENT_WRITE event_type " + hex(type) + " event_index " +
                     std::to_string(event_index_of(p[1])) + " of " + std::to_string(n) + " dwords not modeled");
}

}  // namespace

uint32_t packet_dwords(uint32_t header) noexcept {
  if (pm4_mutant_active(Pm4Mutant::LongOneDwordNop)) return count_of(header) + 2;
  return dwords_of(header);
}

bool run_packet(const uint32_t* p, uint32_t n, const Pm4Context& ctx, int depth, Pm4Result& r) {
  switch (opcode_of(p[0])) {
    case kItNop: return true;
    case kItAcquireMem:  // PM4-ACQ-1: the L2's clean lines are forgotten (adversarial mode; no cache otherwise)
      if (ctx.l2 != nullptr) ctx.l2->acquire_system();
      return true;
    case kItSetShReg: return set_sh_reg(p, n, ctx, r);
    case kItDispatchDirect: return dispatch_direct(p, n, ctx, r);
    case kItReleaseMem:
      return release_mem(p, n, ctx, r);
    case kItWriteData:
      return write_data(p, n, ctx, r);
    case kItWaitRegMem: return wait_reg_mem(p, n, ctx, r);
    case kItEventWrite: return event_write(p, n, r);
    case kItIndirectBuffer: {
      if (n != 4 || !ib_valid(p[3])) return fail(r, "PM4-IB-1: INDIRECT_BUFFER not 4 dwords or not valid");
      Pm4Result inner = execute_ib(ib_base(p[1], p[2]), ib_size_dw(p[3]), ctx, depth + 1);
      r.packets += inner.packets;
      if (!inner.ok) return fail(r, std::move(inner.what));
      return true;
    }
    default:
      return fail(r, "PM4-PKT-3: unknown PM4 opcode " + hex(opcode_of(p[0])));
  }
}

Pm4Result execute_ib(uint64_t va, uint32_t size_dw, const Pm4Context& ctx, int depth) {
  Pm4Result r;
  if (ctx.memory == nullptr) {
    fail(r, "PM4-IB-1: no memory access");
    return r;
  }
  if (depth > kMaxIbDepth) {
    fail(r, "PM4-IB-2: indirect buffers nested deeper than " + std::to_string(kMaxIbDepth));
    return r;
  }
  if (va & 3) {
    fail(r, "PM4-IB-1: IB address " + hex(va) + " misaligned");
    return r;
  }
  const auto* ib = static_cast<const uint32_t*>(ctx.memory->translate(va, size_t(size_dw) * 4, Access::Read));
  if (ib == nullptr && size_dw != 0) {
    fail(r, "PM4-IB-1: IB " + hex(va) + " not mapped");
    return r;
  }
  // Copy first: the IB belongs to the host, which may reuse it once the packet completes.
  std::vector<uint32_t> dw(ib, ib + size_dw);
  uint32_t at = 0;
  while (at < size_dw) {
    const uint32_t header = dw[at];
    if (header == 0x80000000u) {  // PM4-PKT-2: type-2 filler
      ++at;
      continue;
    }
    if (type_of(header) != 3) {
      fail(r, "PM4-PKT-3: type-" + std::to_string(type_of(header)) + " packet at dword " + std::to_string(at));
      return r;
    }
    const uint32_t n = packet_dwords(header);
    // PM4-PKT-1: the whole packet lies inside the IB, or nothing of it runs.
    if (n > size_dw - at) {
      fail(r, "PM4-PKT-1: packet of " + std::to_string(n) + " dwords runs past the IB end");
      return r;
    }
    if (!run_packet(dw.data() + at, n, ctx, depth, r)) {
      r.what += " at dword " + std::to_string(at);
      return r;
    }
    if (r.waiting) {  // PM4-WAIT-2: an AQL PM4-IB runs to its end; it cannot stall its AQL queue here
      r.waiting = false;
      fail(r, "PM4-WAIT-2: WAIT_REG_MEM not satisfied in an IB that cannot stall, at dword " + std::to_string(at));
      return r;
    }
    ++r.packets;
    at += n;
  }
  return r;
}

}  // namespace rocref::gpu::pm4
