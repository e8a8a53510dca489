// gpu/sdma/sdma_engine.cpp - fetch, length check and execution of SDMA packets (spec/sdma.md).
#include "gpu/sdma/sdma_engine.h"

#include <algorithm>
#include <chrono>
#include <cstddef>
#include <cstdio>
#include <cstring>
#include <vector>

#include "common/model_clock.h"
#include "common/trace.h"
#include "gpu/sdma/sdma_mutant.h"
#include "gpu/sdma/sdma_packets.h"

namespace rocref::gpu::sdma {

const char* sdma_error_name(SdmaError e) noexcept {
  switch (e) {
    case SdmaError::None: return "none";
    case SdmaError::BadBinding: return "bad binding";
    case SdmaError::BadWritePointer: return "bad write pointer";
    case SdmaError::UnknownPacket: return "unknown packet";
    case SdmaError::MalformedPacket: return "malformed packet";
    case SdmaError::Misaligned: return "misaligned address";
    case SdmaError::MemoryFault: return "memory fault";
    case SdmaError::UnsupportedPoll: return "unsupported register poll";
    case SdmaError::UnsupportedAtomic: return "unsupported atomic";
  }
  return "?";
}

namespace {
bool power_of_two(uint64_t v) { return v != 0 && (v & (v - 1)) == 0; }
}  // namespace

SdmaEngine::SdmaEngine(SdmaBinding binding) : b_(std::move(binding)) {
  // SDMA-RING-1: a binding the hardware could not run is an error from the start.
  if (b_.memory == nullptr || !power_of_two(b_.ring_size) || b_.ring_size < 16 || (b_.ring_base & 3) != 0 ||
      (b_.rptr_va & 7) != 0 || (b_.doorbell == nullptr && (b_.wptr_va == 0 || (b_.wptr_va & 7) != 0))) {
    fail(SdmaError::BadBinding, 0, 0, "SDMA-RING-1: invalid ring binding");
    return;
  }
  if (b_.rptr_va != 0) {
    if (auto* r = b_.memory->as<uint64_t>(b_.rptr_va, Access::Read)) rptr_ = __atomic_load_n(r, __ATOMIC_ACQUIRE);
  }
  delivered_ = rptr_;
}

bool SdmaEngine::resume_at(uint64_t rptr) {
  if (!preemptible()) return false;
  rptr_ = rptr;
  delivered_ = std::max(delivered_, rptr);
  return true;
}

// SDMA-ADV-1: a new doorbell value may reach the engine up to 3 steps late; values stored
// meanwhile coalesce. The engine never acts on a value the producer did not store.
uint64_t SdmaEngine::delivered_wptr() {
  const uint64_t live = load_wptr();
  if (live == delivered_) {
    late_ = 0;
    return delivered_;
  }
  if (late_ < 3 && b_.choose(2, "sdma doorbell late") == 0) {
    ++late_;
    return delivered_;
  }
  late_ = 0;
  delivered_ = live;
  return delivered_;
}

// SDMA-ADV-2: raised in TRAP order; `all` when the engine goes idle or stops (none is lost).
void SdmaEngine::raise_due_traps(bool all) {
  if (all && sdma_mutant_active(SdmaMutant::LateTrapDroppedAtIdle)) {
    late_traps_.clear();  // the planted bug: the held interrupts are forgotten
    return;
  }
  size_t n = 0;
  while (n < late_traps_.size() && (all || late_traps_[n].steps == 0)) ++n;
  for (size_t i = n; i < late_traps_.size(); ++i) {
    if (late_traps_[i].steps != 0) --late_traps_[i].steps;
  }
  const std::vector<LateTrap> due(late_traps_.begin(), late_traps_.begin() + static_cast<ptrdiff_t>(n));
  late_traps_.erase(late_traps_.begin(), late_traps_.begin() + static_cast<ptrdiff_t>(n));
  for (const LateTrap& t : due) {
    ROCREF_TRACE_EVENT(trace::Layer::Sdma, "trap raised late", "int_ctx=" + std::to_string(t.int_ctx));
    if (b_.on_trap) b_.on_trap(t.int_ctx);
  }
}

uint64_t SdmaEngine::load_wptr() const {
  if (b_.doorbell != nullptr) return __atomic_load_n(b_.doorbell, __ATOMIC_ACQUIRE);
  auto* w = b_.memory->as<uint64_t>(b_.wptr_va, Access::Read);
  return w ? __atomic_load_n(w, __ATOMIC_ACQUIRE) : rptr_;
}

bool SdmaEngine::has_work() const {
  if (!late_traps_.empty()) return true;
  return !in_error() && load_wptr() != rptr_;
}

SdmaStep SdmaEngine::fail(SdmaError e, uint64_t offset, uint32_t op, const std::string& what) {
  SdmaError expected = SdmaError::None;
  if (error_.compare_exchange_strong(expected, e, std::memory_order_acq_rel)) {
    ROCREF_TRACE_EVENT(trace::Layer::Sdma, "queue error", what);
    if (b_.on_error) b_.on_error(e, offset, what);
  }
  return SdmaStep{SdmaAction::Error, op, offset};
}

SdmaStep SdmaEngine::step() {
  if (b_.choose) {
    // SDMA-ADV-2: an interrupt is raised late, never lost: before the engine idles or stops.
    const bool stopping = in_error() || (load_wptr() == rptr_ && late_ == 0);
    if (!late_traps_.empty()) raise_due_traps(stopping);
  }
  if (in_error()) return SdmaStep{SdmaAction::None, 0, rptr_};
  const uint64_t wptr = b_.choose ? delivered_wptr() : load_wptr();
  if (wptr == rptr_) return SdmaStep{owes() ? SdmaAction::Waiting : SdmaAction::None, 0, rptr_};
  // SDMA-RING-2: the write pointer is a monotonic, dword-aligned byte offset at most a ring ahead.
  if ((wptr & 3) != 0 || wptr < rptr_ || wptr - rptr_ > b_.ring_size) {
    return fail(SdmaError::BadWritePointer, rptr_, 0,
                "SDMA-RING-2: write pointer " + std::to_string(wptr) + " with read pointer " + std::to_string(rptr_));
  }
  auto* ring = static_cast<const uint32_t*>(b_.memory->translate(b_.ring_base, b_.ring_size, Access::Read));
  if (ring == nullptr) return fail(SdmaError::MemoryFault, rptr_, 0, "SDMA-ERR-4: ring not mapped");

  const uint64_t ring_dw = b_.ring_size / 4;
  const uint64_t avail = (wptr - rptr_) / 4;
  const uint64_t first = (rptr_ / 4) & (ring_dw - 1);
  auto dw_at = [&](uint64_t i) { return __atomic_load_n(&ring[(first + i) & (ring_dw - 1)], __ATOMIC_RELAXED); };

  // SDMA-PKT-4: every ring dword is read once, into `pkt`, and decoded from there: a producer
  // rewriting the slot meanwhile cannot make the length and the packet disagree.
  std::vector<uint32_t> pkt;
  auto once_at = [&](uint64_t i) {
    while (pkt.size() <= i) pkt.push_back(dw_at(pkt.size()));
    return pkt[i];
  };
  const uint32_t header = once_at(0);
  sdma_header_read_hook();
  const uint32_t op = op_of(header);
  // SDMA-PKT-1: the length is known before anything is consumed; a count field not yet
  // written means the packet is incomplete, so wait.
  if (op == kOpWrite && avail < kWriteLinearHeaderDw) return SdmaStep{SdmaAction::None, op, rptr_};
  std::optional<uint64_t> len = packet_dwords(header, once_at);
  if (!len) {
    return fail(SdmaError::UnknownPacket, rptr_, op,
                "SDMA-ERR-1: unknown packet op " + std::to_string(op) + " sub-op " + std::to_string(sub_op_of(header)));
  }
  if (sdma_mutant_active(SdmaMutant::FixedLengthWriteLinear) && op == kOpWrite) len = 5;
  if (*len > ring_dw) return fail(SdmaError::MalformedPacket, rptr_, op, "SDMA-ERR-2: packet longer than the ring");
  if (*len > avail) return SdmaStep{SdmaAction::None, op, rptr_};  // SDMA-PKT-2: wait for the rest

  if (*len > 0) once_at(*len - 1);  // the rest of the packet, each dword read once
  pkt.resize(*len);
  if (sdma_mutant_active(SdmaMutant::PacketReadTwice)) {
    // The planted bug (the old fetch): the header is read again after the length was taken
    // and the decode follows the new one; zeros stand for the bytes it read past the packet.
    pkt[0] = dw_at(0);
    if (const auto again = packet_dwords(pkt[0], [&](uint64_t i) { return i < pkt.size() ? pkt[i] : 0u; })) {
      if (*again > pkt.size()) pkt.resize(*again, 0);
    }
  }

  SdmaError err = SdmaError::None;
  std::string what;
  bool waiting = false;
  const bool ok = execute(pkt.data(), *len, err, what, waiting);
  if (!ok) return fail(err, rptr_, op, what);
  if (waiting) return SdmaStep{SdmaAction::Waiting, op, rptr_};

  const uint64_t at = rptr_;
  rptr_ += *len * 4;
  ++stats_.packets;
  // SDMA-RING-3: rptr is published (release) after the packet's effects.
  if (b_.rptr_va != 0) {
    if (auto* r = b_.memory->as<uint64_t>(b_.rptr_va, Access::Write)) __atomic_store_n(r, rptr_, __ATOMIC_RELEASE);
  }
  return SdmaStep{SdmaAction::Executed, op, at};
}

uint64_t SdmaEngine::drain(uint64_t max_steps) {
  uint64_t n = 0;
  for (uint64_t i = 0; i < max_steps; ++i) {
    const SdmaStep s = step();
    if (s.action != SdmaAction::Executed) break;
    ++n;
  }
  return n;
}

bool SdmaEngine::execute(const uint32_t* dw, uint64_t ndw, SdmaError& err, std::string& what, bool& waiting) {
  MemoryAccess& mem = *b_.memory;
  auto fault = [&](const char* clause, uint64_t va) {
    err = SdmaError::MemoryFault;
    what = std::string(clause) + ": address 0x" + [&] { char s[20]; std::snprintf(s, sizeof s, "%llx", (unsigned long long)va); return std::string(s); }() + " not mapped";
    return false;
  };
  auto misaligned = [&](const char* clause, uint64_t va) {
    err = SdmaError::Misaligned;
    what = std::string(clause) + ": misaligned address " + std::to_string(va);
    return false;
  };
  const uint32_t header = dw[0];
  switch (op_of(header)) {
    case kOpNop:
    case kOpGcr:  // caches are not modeled: nothing to write back or invalidate
      return true;

    case kOpCopy: {
      if (sub_op_of(header) == kSubCopyLinear) {  // SDMA-COPY-1
        uint64_t bytes = copy_linear_bytes(dw[1]);
        if (sdma_mutant_active(SdmaMutant::CopyCountIsBytes)) bytes -= 1;
        const uint64_t src = addr64(dw[3], dw[4]), dst = addr64(dw[5], dw[6]);
        if (bytes == 0) return true;
        void* s = mem.translate(src, bytes, Access::Read);
        if (!s) return fault("SDMA-COPY-1", src);
        void* d = mem.translate(dst, bytes, Access::Write);
        if (!d) return fault("SDMA-COPY-1", dst);
        std::memmove(d, s, bytes);
        stats_.bytes_moved += bytes;
        return true;
      }
      // SDMA-COPY-2: COPY_LINEAR_RECT; every pitch and extent field holds its value - 1.
      const uint32_t elog = rect_element_log2(header);
      if (elog > 4) {
        err = SdmaError::MalformedPacket;
        what = "SDMA-COPY-2: element size 2^" + std::to_string(elog);
        return false;
      }
      const uint64_t esz = uint64_t{1} << elog;
      const uint64_t src = addr64(dw[1], dw[2]), dst = addr64(dw[6], dw[7]);
      const uint64_t sx = bits(dw[3], 0, 14), sy = bits(dw[3], 16, 14), sz = bits(dw[4], 0, 11);
      const uint64_t spitch = uint64_t(bits(dw[4], 13, 19)) + 1, sslice = uint64_t(bits(dw[5], 0, 28)) + 1;
      const uint64_t dx = bits(dw[8], 0, 14), dy = bits(dw[8], 16, 14), dz = bits(dw[9], 0, 11);
      const uint64_t dpitch = uint64_t(bits(dw[9], 13, 19)) + 1, dslice = uint64_t(bits(dw[10], 0, 28)) + 1;
      const uint64_t rx = uint64_t(bits(dw[11], 0, 14)) + 1, ry = uint64_t(bits(dw[11], 16, 14)) + 1;
      const uint64_t rz = uint64_t(bits(dw[12], 0, 11)) + 1;
      const uint64_t row = rx * esz;
      for (uint64_t z = 0; z < rz; ++z) {
        for (uint64_t y = 0; y < ry; ++y) {
          const uint64_t s_va = src + (sx + (sy + y) * spitch + (sz + z) * sslice) * esz;
          const uint64_t d_va = dst + (dx + (dy + y) * dpitch + (dz + z) * dslice) * esz;
          void* s = mem.translate(s_va, row, Access::Read);
          if (!s) return fault("SDMA-COPY-2", s_va);
          void* d = mem.translate(d_va, row, Access::Write);
          if (!d) return fault("SDMA-COPY-2", d_va);
          std::memmove(d, s, row);
          stats_.bytes_moved += row;
        }
      }
      return true;
    }

    case kOpWrite: {  // SDMA-WRITE-1
      const uint64_t dst = addr64(dw[1], dw[2]);
      const uint64_t n = ndw - kWriteLinearHeaderDw + (sdma_mutant_active(SdmaMutant::WritePastPacket) ? 1 : 0);
      if (dst & 3) return misaligned("SDMA-WRITE-1", dst);
      auto* d = static_cast<uint32_t*>(mem.translate(dst, n * 4, Access::Write));
      if (!d) return fault("SDMA-WRITE-1", dst);
      for (uint64_t i = 0; i < n; ++i) __atomic_store_n(&d[i], dw[kWriteLinearHeaderDw + i], __ATOMIC_RELAXED);
      stats_.bytes_moved += n * 4;
      return true;
    }

    case kOpFence: {  // SDMA-FENCE-1: release: every earlier packet's writes are visible first
      const uint64_t dst = addr64(dw[1], dw[2]);
      if (dst & 3) return misaligned("SDMA-FENCE-1", dst);
      auto* d = mem.as<uint32_t>(dst, Access::Write);
      if (!d) return fault("SDMA-FENCE-1", dst);
      __atomic_store_n(d, dw[3], __ATOMIC_RELEASE);
      return true;
    }

    case kOpTrap: {  // SDMA-TRAP-1
      ++stats_.traps;
      ROCREF_TRACE_EVENT(trace::Layer::Sdma, "trap", "int_ctx=" + std::to_string(trap_int_ctx(dw[1])));
      // SDMA-ADV-2: the interrupt may reach the host after later packets' effects (1 to 3 steps).
      if (b_.choose && b_.choose(2, "sdma trap late") == 0) {
        late_traps_.push_back(LateTrap{trap_int_ctx(dw[1]), 1 + b_.choose(3, "sdma trap delay")});
        return true;
      }
      if (!late_traps_.empty()) {  // interrupts keep their order: this one waits behind the late ones
        late_traps_.push_back(LateTrap{trap_int_ctx(dw[1]), 0});
        return true;
      }
      if (b_.on_trap) b_.on_trap(trap_int_ctx(dw[1]));
      return true;
    }

    case kOpPollRegmem: {
      if (!poll_mem(header)) {
        // SDMA-POLL-2: the HDP-flush form (ROCR's hdp_flush_cmd, or the hdp_flush bit) completes
        // at once: the model has no host data path cache. Other register polls are not modeled.
        if (poll_hdp_flush(header) || (dw[0] == kHdpFlushDw0 && dw[2] == kHdpFlushDw2)) return true;
        err = SdmaError::UnsupportedPoll;
        what = "SDMA-POLL-3: register poll without the HDP-flush form";
        return false;
      }
      const uint32_t func = poll_func(header);
      if (func == 7) {
        err = SdmaError::MalformedPacket;
        what = "SDMA-POLL-1: reserved compare function 7";
        return false;
      }
      const uint64_t va = addr64(dw[1], dw[2]);
      if (va & 3) return misaligned("SDMA-POLL-1", va);
      auto* p = mem.as<uint32_t>(va, Access::Read);
      if (!p) return fault("SDMA-POLL-1", va);
      const uint32_t v = __atomic_load_n(p, __ATOMIC_ACQUIRE) & dw[4];
      // SDMA-POLL-1: stay on the packet until the condition holds (the retry count only paces it).
      if (!poll_compare(func, v, dw[3]) && !sdma_mutant_active(SdmaMutant::PollNeverWaits)) waiting = true;
      return true;
    }

    case kOpAtomic: {
      const uint32_t operation = atomic_operation(header);
      if (operation != kAtomicAdd64) {  // SDMA-ATOM-2
        err = SdmaError::UnsupportedAtomic;
        what = "SDMA-ATOM-2: atomic operation " + std::to_string(operation);
        return false;
      }
      const uint64_t va = addr64(dw[1], dw[2]);
      if (va & 7) return misaligned("SDMA-ATOM-1", va);
      auto* p = mem.as<uint64_t>(va, Access::ReadWrite);
      if (!p) return fault("SDMA-ATOM-1", va);
      __atomic_fetch_add(p, addr64(dw[3], dw[4]), __ATOMIC_SEQ_CST);  // SDMA-ATOM-1
      return true;
    }

    case kOpConstFill: {  // SDMA-FILL-1
      const uint32_t fs = const_fill_size(header);
      if (fs != 0 && fs != 2) {
        err = SdmaError::MalformedPacket;
        what = "SDMA-FILL-1: fill size " + std::to_string(fs);
        return false;
      }
      const uint64_t dst = addr64(dw[1], dw[2]);
      const uint64_t bytes = const_fill_bytes(dw[4], fs);
      if (fs == 2 && (dst & 3)) return misaligned("SDMA-FILL-1", dst);
      void* d = mem.translate(dst, bytes, Access::Write);
      if (!d) return fault("SDMA-FILL-1", dst);
      if (fs == 2) {
        auto* w = static_cast<uint32_t*>(d);
        for (uint64_t i = 0; i < bytes / 4; ++i) w[i] = dw[3];
      } else {
        std::memset(d, int(dw[3] & 0xff), bytes);
      }
      stats_.bytes_moved += bytes;
      return true;
    }

    case kOpTimestamp: {  // SDMA-TS-1
      const uint64_t va = addr64(dw[1], dw[2]);
      if (va & 7) return misaligned("SDMA-TS-1", va);
      auto* p = mem.as<uint64_t>(va, Access::Write);
      if (!p) return fault("SDMA-TS-1", va);
      // The GPU's global timestamp is its 100 MHz reference counter, the command processor's
      // start_ts / end_ts domain, which ROCR translates for SDMA copies too (HSA-PROF-2).
      const uint64_t now = b_.clock ? b_.clock() : gpu_clock_ticks();
      __atomic_store_n(p, now, __ATOMIC_RELEASE);
      return true;
    }
  }
  err = SdmaError::UnknownPacket;  // packet_dwords() admitted it, so this is unreachable
  what = "SDMA-ERR-1: no executor";
  return false;
}

}  // namespace rocref::gpu::sdma
