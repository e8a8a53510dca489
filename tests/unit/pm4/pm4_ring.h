// tests/unit/pm4/pm4_ring.h - a PM4 compute queue over a ring in host memory (FlatMemory), for the ring tests.
#pragma once

#include <array>
#include <memory>
#include <string>
#include <vector>

#include "gpu/pm4/pm4_packets.h"
#include "gpu/pm4/pm4_queue.h"

namespace rocref::gpu::pm4 {

inline uint32_t lo(const void* p) { return uint32_t(reinterpret_cast<uintptr_t>(p)); }
inline uint32_t hi(const void* p) { return uint32_t(uint64_t(reinterpret_cast<uintptr_t>(p)) >> 32); }

inline std::vector<uint32_t> write_data(const uint32_t* dst, uint32_t value) {
  return {make_header(kItWriteData, 5), kDstSelMemory << 8, lo(dst), hi(dst), value};
}
inline std::vector<uint32_t> release_mem(const uint64_t* dst, uint64_t value, uint32_t int_ctx) {
  return {make_header(kItReleaseMem, 8), 0x7u << 8, (2u << 29) | (2u << 24), lo(dst), hi(dst), uint32_t(value),
          uint32_t(value >> 32),         int_ctx};
}

struct Ring {
  explicit Ring(uint64_t bytes = 64) : bytes(bytes) {
    Pm4QueueBinding b;
    b.ring_va = reinterpret_cast<uintptr_t>(ring.data());
    b.ring_bytes = bytes;
    b.rptr_va = reinterpret_cast<uintptr_t>(&rptr);
    b.doorbell = &doorbell;
    b.memory = &memory;
    b.on_interrupt = [this](uint32_t c) { interrupts.push_back(c); };
    b.on_error = [this](const std::string& w) { errors.push_back(w); };
    queue = std::make_unique<Pm4Queue>(std::move(b));
  }
  void put(const std::vector<uint32_t>& dws) {
    for (uint32_t d : dws) ring[(wptr++) % (bytes / 4)] = d;
  }
  void submit(const std::vector<uint32_t>& dws) {
    put(dws);
    doorbell = wptr;
  }
  uint64_t drain() {
    uint64_t n = 0;
    while (queue->step() == Pm4QueueAction::Executed) ++n;
    return n;
  }
  uint64_t bytes;
  alignas(256) std::array<uint32_t, 1024> ring{};
  alignas(8) uint32_t rptr = 0;
  alignas(8) uint64_t doorbell = 0;
  uint64_t wptr = 0;
  FlatMemory memory;
  std::vector<uint32_t> interrupts;
  std::vector<std::string> errors;
  std::unique_ptr<Pm4Queue> queue;
};

}  // namespace rocref::gpu::pm4
