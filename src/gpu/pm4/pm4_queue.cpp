// gpu/pm4/pm4_queue.cpp - fetch (each dword once), length check and execution of a PM4 ring's packets.
#include "gpu/pm4/pm4_queue.h"

#include <vector>

#include "gpu/isa/compute_registers.h"
#include "gpu/pm4/pm4_executor.h"
#include "gpu/pm4/pm4_packets.h"

namespace rocref::gpu::pm4 {
namespace {
bool power_of_two(uint64_t v) { return v != 0 && (v & (v - 1)) == 0; }
constexpr uint32_t kType2Filler = 0x80000000u;
}  // namespace

Pm4Queue::Pm4Queue(Pm4QueueBinding binding) : b_(std::move(binding)), sh_(std::make_unique<isa::ShRegisters>()) {
  // PM4-Q-1: a ring the CP could not run is an error from the start.
  if (b_.memory == nullptr || b_.doorbell == nullptr || !power_of_two(b_.ring_bytes) || b_.ring_bytes < 16 ||
      (b_.ring_va & 255) != 0 || (b_.rptr_va & 3) != 0) {
    fail("PM4-Q-1: invalid ring binding");
  }
}

void Pm4Queue::set_ring(uint64_t ring_va, uint64_t ring_bytes) {
  b_.ring_va = ring_va;
  b_.ring_bytes = ring_bytes;
  if (!power_of_two(ring_bytes) || ring_bytes < 16 || (ring_va & 255) != 0) fail("PM4-Q-1: invalid ring binding");
}

Pm4Queue::~Pm4Queue() = default;

Pm4QueueAction Pm4Queue::fail(const std::string& what) {
  if (!error_.exchange(true, std::memory_order_acq_rel) && b_.on_error) b_.on_error(what);
  return Pm4QueueAction::Error;
}

bool Pm4Queue::has_work() const {
  return !in_error() && __atomic_load_n(b_.doorbell, __ATOMIC_ACQUIRE) != consumed_;
}

Pm4QueueAction Pm4Queue::step() {
  if (in_error()) return Pm4QueueAction::None;
  if (!frames_.empty()) return step_ib();
  if (!held_.empty()) return run_ring_packet(std::move(held_));
  const uint64_t wptr = __atomic_load_n(b_.doorbell, __ATOMIC_ACQUIRE);
  if (wptr == consumed_) return Pm4QueueAction::None;
  const uint64_t ring_dw = b_.ring_bytes / 4;
  // PM4-Q-2: the write pointer counts dwords, never goes back and is at most a ring ahead.
  if (wptr < consumed_ || wptr - consumed_ > ring_dw) {
    return fail("PM4-Q-2: write pointer " + std::to_string(wptr) + " with " + std::to_string(consumed_) +
                " dwords consumed");
  }
  const auto* ring = static_cast<const uint32_t*>(b_.memory->translate(b_.ring_va, b_.ring_bytes, Access::Read));
  if (ring == nullptr) return fail("PM4-Q-1: ring not mapped");
  const uint64_t avail = wptr - consumed_;
  const uint64_t first = consumed_ & (ring_dw - 1);
  auto dw_at = [&](uint64_t i) { return __atomic_load_n(&ring[(first + i) & (ring_dw - 1)], __ATOMIC_RELAXED); };

  // PM4-Q-3: the header is read once; the length and the packet come from that read.
  const uint32_t header = dw_at(0);
  uint32_t n = 1;
  if (header != kType2Filler) {
    if (type_of(header) != 3) return fail("PM4-PKT-3: type-" + std::to_string(type_of(header)) + " packet in the ring");
    n = packet_dwords(header);
  }
  if (n > ring_dw) return fail("PM4-PKT-1: packet of " + std::to_string(n) + " dwords is longer than the ring");
  if (n > avail) return Pm4QueueAction::None;  // the rest is not published yet: wait
  std::vector<uint32_t> pkt(n);
  pkt[0] = header;
  for (uint32_t i = 1; i < n; ++i) pkt[i] = dw_at(i);
  return run_ring_packet(std::move(pkt));
}

Pm4QueueAction Pm4Queue::run_ring_packet(std::vector<uint32_t> pkt) {
  ring_packet_dwords_ = static_cast<uint32_t>(pkt.size());
  if (pkt[0] == kType2Filler) return complete_ring_packet();
  if (opcode_of(pkt[0]) == kItIndirectBuffer) {
    if (!enter_ib(pkt.data(), ring_packet_dwords_)) return Pm4QueueAction::Error;
    return Pm4QueueAction::Executed;
  }
  const Pm4Context ctx{b_.memory, b_.on_interrupt, b_.clock, sh_.get(), b_.l2};
  Pm4Result r;
  if (!run_packet(pkt.data(), ring_packet_dwords_, ctx, 0, r)) return fail(r.what);
  if (r.waiting) {  // PM4-WAIT-2: the packet stays, read once, and is polled again
    held_ = std::move(pkt);
    return Pm4QueueAction::Waiting;
  }
  return complete_ring_packet();
}

bool Pm4Queue::enter_ib(const uint32_t* p, uint32_t n) {
  // PM4-IB-1..2 as in an AQL PM4-IB: a valid 4-dword packet, bounded nesting, a mapped IB.
  std::string error;
  const uint64_t va = n == 4 ? ib_base(p[1], p[2]) : 0;
  const uint32_t size_dw = n == 4 ? ib_size_dw(p[3]) : 0;
  const uint32_t* ib = nullptr;
  if (n != 4 || !ib_valid(p[3])) {
    error = "PM4-IB-1: INDIRECT_BUFFER not 4 dwords or not valid";
  } else if (frames_.size() > static_cast<size_t>(kMaxIbDepth)) {
    error = "PM4-IB-2: indirect buffers nested deeper than " + std::to_string(kMaxIbDepth);
  } else if ((ib = static_cast<const uint32_t*>(b_.memory->translate(va, size_t(size_dw) * 4, Access::Read))) ==
                 nullptr &&
             size_dw != 0) {
    error = "PM4-IB-1: IB at " + std::to_string(va) + " not mapped";
  }
  if (!error.empty()) {
    fail(error);
    return false;
  }
  frames_.push_back(IbFrame{std::vector<uint32_t>(ib, ib + size_dw), 0});
  return true;
}

Pm4QueueAction Pm4Queue::step_ib() {
  IbFrame& top = frames_.back();
  const uint32_t size = static_cast<uint32_t>(top.dw.size());
  if (top.at >= size) {  // this IB ended: back to the one that entered it, or to the ring
    frames_.pop_back();
    return frames_.empty() ? complete_ring_packet() : Pm4QueueAction::Executed;
  }
  const uint32_t* p = top.dw.data() + top.at;
  if (p[0] == kType2Filler) {
    ++top.at;
    return Pm4QueueAction::Executed;
  }
  if (type_of(p[0]) != 3) return fail("PM4-PKT-3: type-" + std::to_string(type_of(p[0])) + " packet in an IB");
  const uint32_t n = packet_dwords(p[0]);
  if (n > size - top.at) return fail("PM4-PKT-1: packet of " + std::to_string(n) + " dwords runs past the IB end");
  if (opcode_of(p[0]) == kItIndirectBuffer) {
    const std::vector<uint32_t> packet(p, p + n);  // push_back may move `top`
    top.at += n;
    return enter_ib(packet.data(), n) ? Pm4QueueAction::Executed : Pm4QueueAction::Error;
  }
  const Pm4Context ctx{b_.memory, b_.on_interrupt, b_.clock, sh_.get(), b_.l2};
  Pm4Result r;
  if (!run_packet(p, n, ctx, static_cast<int>(frames_.size()) - 1, r)) return fail(r.what);
  if (r.waiting) return Pm4QueueAction::Waiting;  // PM4-WAIT-2: polled again at the next step
  top.at += n;
  return Pm4QueueAction::Executed;
}

Pm4QueueAction Pm4Queue::complete_ring_packet() {
  held_.clear();
  consumed_ += ring_packet_dwords_;
  ring_packet_dwords_ = 0;
  const uint64_t ring_dw = b_.ring_bytes / 4;
  // PM4-Q-2: the read pointer report follows the packet's effects (release).
  auto* rptr = b_.memory->as<uint32_t>(b_.rptr_va, Access::Write);
  if (rptr == nullptr) return fail("PM4-Q-1: read pointer not mapped");
  __atomic_store_n(rptr, static_cast<uint32_t>(consumed_ & (ring_dw - 1)), __ATOMIC_RELEASE);
  return Pm4QueueAction::Executed;
}

}  // namespace rocref::gpu::pm4
