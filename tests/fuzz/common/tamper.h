// tests/fuzz/common/tamper.h - a racing producer, made deterministic: a MemoryAccess wrapper that
// rewrites chosen bytes of the window right after the Nth translation.
//
// An engine that reads a ring slot twice (once to size a packet, once to copy it) sees two
// different packets when the producer rewrites the slot in between; on hardware that is a race
// with the CPU. Rewriting at a translation boundary reproduces it without threads, so libFuzzer
// can find it and replay it exactly.
#pragma once

#include <cstdint>
#include <cstring>
#include <vector>

#include "common/sandbox_memory.h"

namespace rocref::fuzz {

class TamperingMemory final : public gpu::MemoryAccess {
 public:
  struct Write {
    uint64_t after = 0;   // after this many translations
    uint64_t offset = 0;  // window offset
    uint32_t value = 0;
  };
  explicit TamperingMemory(SandboxMemory& inner) : inner_(inner) {}
  void add(Write w) { writes_.push_back(w); }

  void* translate(uint64_t va, size_t size, gpu::Access access) noexcept override {
    void* p = inner_.translate(va, size, access);
    ++count_;
    for (const Write& w : writes_) {
      if (w.after == count_ && w.offset + 4 <= inner_.size()) std::memcpy(inner_.host(w.offset), &w.value, 4);
    }
    return p;
  }

 private:
  SandboxMemory& inner_;
  std::vector<Write> writes_;
  uint64_t count_ = 0;
};

}  // namespace rocref::fuzz
