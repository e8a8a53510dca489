// gpu/isa/agent_cache.h - the agent's write-back L2 as the ISA interpreter's memory instructions see it.
//
// Adversarial mode only (spec/adversarial-gpu.md GPU-GRAIN-*): the fast mode has no
// cache and ExecContext::map translates straight to memory. Lines of 64 bytes hold the
// coarse-grained bytes (MTYPE_NC) gfx900 code read or wrote; fine-grained pages
// (MTYPE_UC) bypass it. The host and the engines that do not go through the L2 see
// memory, so a dirty line is a write the host cannot see yet and a clean line can be
// older than a host write. Each line keeps a valid and a dirty byte mask: only bytes a
// kernel touched are ever read from or written back to memory. Lines are evicted (their
// dirty bytes written back) by seeded choices; the packet processor writes back at a
// system-scope release (GPU-GRAIN-2) and invalidates at a system-scope acquire (GPU-GRAIN-3).
// Lines are keyed by (MemoryAccess, GPU VA); an unmap drops them (GPU-GRAIN-4).
#pragma once

#include <cstdint>
#include <memory>
#include <mutex>
#include <unordered_map>
#include <vector>

#include "gpu/memory_access.h"

namespace rocref::gpu::isa {

class AgentCache {
 public:
  static constexpr uint64_t kLineBytes = 64;  // gfx9 L2 line
  static constexpr size_t kCapacity = 1024;   // lines (64 KiB): a full cache evicts a seeded line

  explicit AgentCache(uint64_t seed);
  ~AgentCache();
  AgentCache(const AgentCache&) = delete;
  AgentCache& operator=(const AgentCache&) = delete;

  // The bytes an instruction reads or writes for [va, va + size), which `memory` translated
  // to `host`: a pointer into a line for coarse-grained memory, `host` for fine-grained
  // memory or an access across two lines (its lines are written back and dropped first).
  void* access(MemoryAccess& memory, uint64_t va, void* host, size_t size, Access mode) noexcept;

  void write_back() noexcept;             // GPU-GRAIN-2: dirty bytes to memory; lines stay, clean
  void acquire_system() noexcept;         // GPU-GRAIN-3: clean bytes forgotten (re-read on next use)
  void write_back_invalidate() noexcept;  // GPU-GRAIN-5: an engine that bypasses the L2 runs next
  // GPU-GRAIN-4: [va, va + size) of `memory` is unmapped: its lines are discarded, unwritten.
  void drop(const MemoryAccess* memory, uint64_t va, uint64_t size) noexcept;

  size_t lines() const noexcept;
  size_t dirty_lines() const noexcept;

 private:
  struct Key {
    const MemoryAccess* memory;
    uint64_t line;  // GPU VA of the line
    bool operator==(const Key&) const = default;
  };
  struct KeyHash {
    size_t operator()(const Key& k) const noexcept {
      return std::hash<uint64_t>()(k.line ^ (reinterpret_cast<uintptr_t>(k.memory) * 0x9e3779b97f4a7c15ull));
    }
  };
  struct Line {
    Key key;
    uint8_t* host = nullptr;  // the memory behind the line
    uint64_t valid = 0;       // byte i holds memory's value as read (or a write)
    uint64_t dirty = 0;       // byte i was written by the agent and not written back
    alignas(8) uint8_t data[kLineBytes] = {};
  };

  uint32_t below(uint32_t n) noexcept;  // seeded choice in [0, n)
  Line& line_for(const Key& key, uint8_t* host);
  void evict(size_t index) noexcept;  // write back and forget lines_[index]
  void drop_written_back(MemoryAccess& memory, uint64_t va, size_t size) noexcept;
  static void flush(Line& l) noexcept;

  mutable std::mutex mu_;
  uint64_t state_;
  std::unordered_map<Key, size_t, KeyHash> index_;
  std::vector<std::unique_ptr<Line>> lines_;
  // Lines evicted, or dropped by an unmap on another thread, while an instruction may still hold a
  // pointer into them: freed at the stepping thread's next access, write-back or acquire.
  std::vector<std::unique_ptr<Line>> retired_;
};

}  // namespace rocref::gpu::isa
