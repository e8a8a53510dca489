// tests/unit/sdma/sdma_ring.h - a test SDMA queue: ring, pointers, doorbell and packet builders.
#pragma once

#include <cstdint>
#include <cstring>
#include <functional>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "gpu/sdma/sdma_engine.h"
#include "gpu/sdma/sdma_packets.h"

namespace rocref::gpu::sdma::test {

inline uint32_t lo(const void* p) { return uint32_t(reinterpret_cast<uintptr_t>(p)); }
inline uint32_t hi(const void* p) { return uint32_t(uint64_t(reinterpret_cast<uintptr_t>(p)) >> 32); }
inline uint32_t hdr(uint32_t op, uint32_t sub = 0, uint32_t extra = 0) { return op | (sub << 8) | extra; }

// Flat memory that faults on listed pages, as GPUVM would on unmapped ones.
class FaultingMemory final : public MemoryAccess {
 public:
  void* translate(uint64_t va, size_t size, Access a) noexcept override {
    for (uint64_t bad : bad_) {
      if (va < bad + 4096 && bad < va + size) return nullptr;
    }
    return flat_.translate(va, size, a);
  }
  void forbid(const void* page) { bad_.insert(reinterpret_cast<uintptr_t>(page) & ~uint64_t{4095}); }

 private:
  FlatMemory flat_;
  std::set<uint64_t> bad_;
};

struct TestQueue {
  // `choose`: the adversarial mode's choices (SdmaBinding::choose); null: none.
  explicit TestQueue(uint64_t ring_bytes = 4096, bool use_doorbell = true,
                     std::function<uint32_t(uint32_t, const char*)> choose = nullptr)
      : ring(ring_bytes / 4, 0) {
    SdmaBinding b;
    b.ring_base = reinterpret_cast<uintptr_t>(ring.data());
    b.ring_size = ring_bytes;
    b.rptr_va = reinterpret_cast<uintptr_t>(&rptr);
    b.wptr_va = reinterpret_cast<uintptr_t>(&wptr);
    b.doorbell = use_doorbell ? &doorbell : nullptr;
    b.memory = &memory;
    b.on_trap = [this](uint32_t ctx) { traps.push_back(ctx); };
    b.on_error = [this](SdmaError e, uint64_t off, const std::string& what) {
      errors.push_back(e);
      error_offset = off;
      error_text = what;
    };
    b.clock = [] { return uint64_t{0x1122334455667788}; };
    b.choose = std::move(choose);
    engine = std::make_unique<SdmaEngine>(std::move(b));
  }
  // Writes dwords at the write pointer (wrapping) without ringing the doorbell.
  void put(const std::vector<uint32_t>& dws) {
    for (uint32_t d : dws) {
      ring[(wptr / 4) % ring.size()] = d;
      wptr += 4;
    }
  }
  void ring_doorbell() { doorbell = wptr; }
  void submit(const std::vector<uint32_t>& dws) {
    put(dws);
    ring_doorbell();
  }

  std::vector<uint32_t> ring;
  alignas(8) uint64_t rptr = 0;
  alignas(8) uint64_t wptr = 0;
  alignas(8) uint64_t doorbell = 0;
  FaultingMemory memory;
  std::vector<uint32_t> traps;
  std::vector<SdmaError> errors;
  uint64_t error_offset = 0;
  std::string error_text;
  std::unique_ptr<SdmaEngine> engine;
};

inline std::vector<uint32_t> copy_linear(const void* dst, const void* src, uint32_t bytes) {
  return {hdr(kOpCopy, kSubCopyLinear), bytes - 1, 0, lo(src), hi(src), lo(dst), hi(dst)};
}
inline std::vector<uint32_t> fence(const void* dst, uint32_t value) {
  return {hdr(kOpFence), lo(dst), hi(dst), value};
}
inline std::vector<uint32_t> write_linear(const void* dst, const std::vector<uint32_t>& data) {
  std::vector<uint32_t> p{hdr(kOpWrite, kSubWriteLinear), lo(dst), hi(dst), uint32_t(data.size() - 1)};
  p.insert(p.end(), data.begin(), data.end());
  return p;
}
inline std::vector<uint32_t> poll_mem(const void* addr, uint32_t ref, uint32_t mask, uint32_t func = 3) {
  return {hdr(kOpPollRegmem, 0, (func << 28) | (1u << 31)), lo(addr), hi(addr), ref, mask, (0xfffu << 16) | 10};
}

}  // namespace rocref::gpu::sdma::test
