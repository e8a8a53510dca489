// tests/fuzz/common/sandbox_memory.h - a GPU address space the fuzzer lays out: a window of pages
// at a fixed GPU VA, each unmapped, read-only or read-write, over one heap buffer.
//
// The engine harnesses (AQL, SDMA, PM4) bind their engine to this MemoryAccess. Any address
// the input names resolves inside the window or faults, as GPUVM answers an unmapped or
// read-only page. The backing store is one heap allocation of exactly the window's size, so
// an engine that reads or writes past what it translated lands in ASan's redzone and is
// reported: the harness finds engines that touch memory they did not ask for.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <vector>

#include "gpu/memory_access.h"

namespace rocref::fuzz {

class SandboxMemory final : public gpu::MemoryAccess {
 public:
  static constexpr uint64_t kPage = 4096;
  static constexpr uint64_t kBase = uint64_t{0x7f0000000000};  // a canonical user VA, as ROCR's

  enum class Perm : uint8_t { None = 0, Read = 1, ReadWrite = 3 };

  explicit SandboxMemory(size_t pages) : pages_(pages), perm_(pages, Perm::ReadWrite) {
    bytes_ = std::make_unique<uint8_t[]>(pages * kPage);
    std::memset(bytes_.get(), 0, pages * kPage);
  }

  void* translate(uint64_t va, size_t size, gpu::Access access) noexcept override {
    ++translations_;
    if (size == 0 || va < kBase || va - kBase > pages_ * kPage || size > pages_ * kPage - (va - kBase)) {
      ++faults_;
      return nullptr;
    }
    const uint64_t first = (va - kBase) / kPage, last = (va - kBase + size - 1) / kPage;
    const bool write = (static_cast<uint8_t>(access) & static_cast<uint8_t>(gpu::Access::Write)) != 0;
    for (uint64_t p = first; p <= last; ++p) {
      if (perm_[p] == Perm::None || (write && perm_[p] != Perm::ReadWrite)) {
        ++faults_;
        return nullptr;
      }
    }
    return bytes_.get() + (va - kBase);
  }

  void set_perm(size_t page, Perm perm) {
    if (page < pages_) perm_[page] = perm;
  }
  uint8_t* host(uint64_t offset) { return bytes_.get() + offset; }
  static uint64_t va(uint64_t offset) { return kBase + offset; }
  size_t size() const { return pages_ * kPage; }
  uint64_t faults() const { return faults_; }
  uint64_t translations() const { return translations_; }

 private:
  size_t pages_;
  std::vector<Perm> perm_;
  std::unique_ptr<uint8_t[]> bytes_;
  uint64_t faults_ = 0, translations_ = 0;
};

// Reads a 32-bit "address" the input chose and turns it into a GPU VA that is mostly inside
// the window (so the engines get past their checks), sometimes at its edges, sometimes wild.
inline uint64_t pick_address(uint32_t raw, uint64_t window_bytes) {
  switch (raw >> 29) {
    case 0: return 0;                                                     // null
    case 1: return SandboxMemory::kBase + window_bytes - (raw & 0xff);    // end of the window
    case 2: return uint64_t(raw) << 32 | raw;                             // wild, often non-canonical
    case 3: return SandboxMemory::kBase - 8 + (raw & 0xf);                // just below the window
    default: return SandboxMemory::kBase + (raw & 0x1fffffff) % (window_bytes + 64);  // inside (or just past)
  }
}

}  // namespace rocref::fuzz
