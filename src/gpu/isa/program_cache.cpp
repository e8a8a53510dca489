// gpu/isa/program_cache.cpp - lazily decoded programs, cached by entry address and checked against memory.
#include "gpu/isa/program_cache.h"

#include <cstring>
#include <mutex>
#include <unordered_map>

#include "gpu/isa/decoder.h"
#include "gpu/isa/isa_mutant.h"

namespace rocref::gpu::isa {

namespace {
constexpr size_t kMaxSlots = size_t{1} << 22;  // 16 MiB of code from one entry: more is not a kernel
}

Program::Program(uint64_t entry)
    : entry_(entry), decoded_with_mutant_(isa_mutant_active(IsaMutant::Vop2Src1AsSgpr)) {}

const Inst* Program::at(uint64_t pc, MemoryAccess& memory) {
  if (pc < entry_ || pc % 4 != 0) return nullptr;
  const uint64_t index = (pc - entry_) / 4;
  if (index >= kMaxSlots) return nullptr;
  if (index < slots_.size() && slots_[index].dwords != 0) {
    if (checked_[index] == epoch_) return &slots_[index];
    const Inst& cached = slots_[index];
    const auto* p = static_cast<const uint32_t*>(memory.translate(pc, 4, Access::Read));
    if (p == nullptr) return nullptr;
    bool same = p[0] == cached.word0;
    if (same && cached.dwords > 1) {
      const auto* q = static_cast<const uint32_t*>(memory.translate(pc + 4, 4, Access::Read));
      same = q != nullptr && q[0] == cached.word1;
    }
    if (same) {
      checked_[index] = epoch_;
      return &slots_[index];
    }
    --count_;  // changed code: decode it again below
  }
  // Decode from pc, reading a second word only when the first says the instruction has one:
  // the hardware fetches no further, and a translation past the code would be a spurious fault.
  uint32_t words[2] = {};
  const void* first = memory.translate(pc, 4, Access::Read);
  if (first == nullptr) return nullptr;
  std::memcpy(&words[0], first, 4);
  Inst in = decode(words, 1);
  if (in.format == Format::Invalid && in.dwords == 2) {
    const void* second = memory.translate(pc + 4, 4, Access::Read);
    if (second != nullptr) {
      std::memcpy(&words[1], second, 4);
      in = decode(words, 2);
    } else {
      in.dwords = 1;  // the code ends here: executing it is an illegal instruction, not a fault
    }
  }
  if (slots_.size() <= index) {
    slots_.resize(index + 1, Inst{Format::Invalid, 0});
    checked_.resize(index + 1, 0);
  }
  slots_[index] = in;
  checked_[index] = epoch_;
  slots_[index].word0 = words[0];
  if (in.dwords > 1) slots_[index].word1 = words[1];
  ++count_;
  return &slots_[index];
}

std::shared_ptr<Program> ProgramCache::get(uint64_t entry, MemoryAccess& memory) {
  std::lock_guard<std::mutex> lock(mutex_);
  auto& slot = programs_[entry];
  (void)memory;
  if (slot == nullptr || slot->decoded_with_mutant() != isa_mutant_active(IsaMutant::Vop2Src1AsSgpr)) slot = std::make_shared<Program>(entry);
  return slot;
}

ProgramCache& ProgramCache::global() {
  static ProgramCache cache;
  return cache;
}

}  // namespace rocref::gpu::isa
