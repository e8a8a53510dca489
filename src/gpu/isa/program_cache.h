// gpu/isa/program_cache.h - each code object decoded once: pre-decoded instructions cached by code address.
//
// A Program holds the decoded instruction at every instruction start reached so
// far (decoded lazily, one instruction at a time). Code can be unloaded and other
// code loaded at the same address, so in each dispatch an instruction's words are
// compared with memory the first time a wave reaches it, and decoded again if they
// changed (ISA-DEC-2). Only words a wave reaches are read: nothing past the code is
// fetched, so no spurious page fault is reported. Several workers of one dispatch
// (work_group_pool.h) call at() at once: slots live in fixed chunks, so an instruction
// handed out stays where it is while others are decoded, and a slot is published by its
// epoch (release) after its words are written.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <unordered_map>
#include <vector>

#include "gpu/isa/instruction.h"
#include "gpu/memory_access.h"

namespace rocref::gpu::isa {

class Program {
 public:
  explicit Program(uint64_t entry);
  // Decoded under the decoder mutant (isa_mutant.h): not reused once it is switched.
  bool decoded_with_mutant() const { return decoded_with_mutant_; }
  uint64_t entry() const { return entry_; }
  // The instruction at `pc`, decoding it if needed; nullptr when the code does not translate
  // or pc lies below the entry or is not dword aligned.
  const Inst* at(uint64_t pc, MemoryAccess& memory);
  // Starts a dispatch: every instruction is checked against memory again when first reached.
  // Called with mutex() held, before the dispatch's workers start.
  void begin_dispatch() { ++epoch_; }
  size_t decoded() const { return count_.load(std::memory_order_relaxed); }
  // Held by a dispatch while it runs: one dispatch of a program at a time (the epoch is its).
  std::mutex& mutex() { return mutex_; }

 private:
  struct Slot {
    Inst inst{Format::Invalid, 0};     // dwords 0: not decoded
    std::atomic<uint32_t> checked{0};  // the epoch in which the words were last compared (0: never)
  };
  static constexpr size_t kChunkSlots = 1024;
  const Inst* at_slow(uint64_t pc, uint64_t index, MemoryAccess& memory);  // compare or decode, under decode_
  Slot* chunk(uint64_t index) const noexcept { return chunks_[index / kChunkSlots].load(std::memory_order_acquire); }

  uint64_t entry_;
  std::unique_ptr<std::atomic<Slot*>[]> chunks_;  // by dword index from entry_, kChunkSlots a chunk
  std::vector<std::unique_ptr<Slot[]>> owned_;    // the chunks, freed with the program
  uint32_t epoch_ = 1;
  std::atomic<size_t> count_{0};
  bool decoded_with_mutant_ = false;
  std::mutex mutex_;
  std::mutex decode_;  // guards decoding and owned_
};

class ProgramCache {
 public:
  // The program for code at `entry` (its instructions are re-checked per dispatch).
  std::shared_ptr<Program> get(uint64_t entry, MemoryAccess& memory);
  static ProgramCache& global();

 private:
  std::mutex mutex_;
  std::unordered_map<uint64_t, std::shared_ptr<Program>> programs_;
};

}  // namespace rocref::gpu::isa
