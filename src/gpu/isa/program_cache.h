// gpu/isa/program_cache.h - each code object decoded once: pre-decoded instructions cached by code address.
//
// A Program holds the decoded instruction at every instruction start reached so
// far (decoded lazily, a straight run at a time). Code can be unloaded and other
// code loaded at the same address, so a cached program is reused for a dispatch
// only when every word it decoded still reads the same (ISA-DEC-2).
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
  // Whether every decoded instruction's words are unchanged in memory.
  bool unchanged(MemoryAccess& memory) const;
  size_t decoded() const { return count_; }
  // Held by a dispatch while it runs: decoding mutates the program.
  std::mutex& mutex() { return mutex_; }

 private:
  uint64_t entry_;
  std::vector<Inst> slots_;  // by dword index from entry_; format Invalid with dwords 0 = not decoded
  size_t count_ = 0;
  bool decoded_with_mutant_ = false;
  std::mutex mutex_;
};

class ProgramCache {
 public:
  // The program for code at `entry`, reused when unchanged.
  std::shared_ptr<Program> get(uint64_t entry, MemoryAccess& memory);
  static ProgramCache& global();

 private:
  std::mutex mutex_;
  std::unordered_map<uint64_t, std::shared_ptr<Program>> programs_;
};

}  // namespace rocref::gpu::isa
