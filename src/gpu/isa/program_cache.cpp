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
  if (index < slots_.size() && slots_[index].dwords != 0) return &slots_[index];
  // Decode from pc: read up to 3 words (the longest gfx900 instruction here) within what translates.
  uint32_t words[3] = {};
  size_t available = 0;
  for (; available < 3; ++available) {
    const void* p = memory.translate(pc + available * 4, 4, Access::Read);
    if (p == nullptr) break;
    std::memcpy(&words[available], p, 4);
  }
  if (available == 0) return nullptr;
  Inst in = decode(words, available);
  if (in.dwords == 0) in.dwords = 1;
  if (slots_.size() <= index) slots_.resize(index + 1, Inst{Format::Invalid, 0});
  slots_[index] = in;
  slots_[index].word0 = words[0];
  if (in.dwords > 1) slots_[index].word1 = words[1];
  ++count_;
  return &slots_[index];
}

bool Program::unchanged(MemoryAccess& memory) const {
  for (size_t i = 0; i < slots_.size(); ++i) {
    const Inst& in = slots_[i];
    if (in.dwords == 0) continue;
    const auto* p = static_cast<const uint32_t*>(memory.translate(entry_ + i * 4, in.dwords > 1 ? 8 : 4, Access::Read));
    if (p == nullptr || p[0] != in.word0 || (in.dwords > 1 && p[1] != in.word1)) return false;
  }
  return true;
}

std::shared_ptr<Program> ProgramCache::get(uint64_t entry, MemoryAccess& memory) {
  std::lock_guard<std::mutex> lock(mutex_);
  auto& slot = programs_[entry];
  if (slot == nullptr || slot->decoded_with_mutant() != isa_mutant_active(IsaMutant::Vop2Src1AsSgpr) ||
      !slot->unchanged(memory)) slot = std::make_shared<Program>(entry);
  return slot;
}

ProgramCache& ProgramCache::global() {
  static ProgramCache cache;
  return cache;
}

}  // namespace rocref::gpu::isa
