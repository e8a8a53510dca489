// gpu/isa/program_cache.h - each code object decoded once: pre-decoded instructions cached by code address.
//
// A Program holds the decoded instruction at every instruction start reached so
// far (decoded lazily, one instruction at a time). Code can be unloaded and other
// code loaded at the same address, so in each dispatch an instruction's words are
// compared with memory the first time a wave reaches it, and decoded again if they
// changed (ISA-DEC-2). Only words a wave reaches are read: nothing past the code is
// fetched, so no spurious page fault is reported.
#pragma once

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
  void begin_dispatch() { ++epoch_; }
  size_t decoded() const { return count_; }
  // Held by a dispatch while it runs: decoding mutates the program.
  std::mutex& mutex() { return mutex_; }

 private:
  uint64_t entry_;
  std::vector<Inst> slots_;  // by dword index from entry_; format Invalid with dwords 0 = not decoded
  std::vector<uint32_t> checked_;  // per slot: the epoch in which its words were last compared
  uint32_t epoch_ = 1;
  size_t count_ = 0;
  bool decoded_with_mutant_ = false;
  std::mutex mutex_;
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
