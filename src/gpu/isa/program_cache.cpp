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
    : entry_(entry),
      chunks_(std::make_unique<std::atomic<Slot*>[]>(kMaxSlots / kChunkSlots)),
      decoded_with_mutant_(isa_mutant_active(IsaMutant::Vop2Src1AsSgpr)) {}

const Inst* Program::at(uint64_t pc, MemoryAccess& memory) {
  if (pc < entry_ || pc % 4 != 0) return nullptr;
  const uint64_t index = (pc - entry_) / 4;
  if (index >= kMaxSlots) return nullptr;
  if (Slot* c = chunk(index); c != nullptr) {
    Slot& slot = c[index % kChunkSlots];
    if (slot.checked.load(std::memory_order_acquire) == epoch_) return &slot.inst;
  }
  return at_slow(pc, index, memory);
}

const Inst* Program::at_slow(uint64_t pc, uint64_t index, MemoryAccess& memory) {
  std::lock_guard<std::mutex> lock(decode_);
  Slot* c = chunk(index);
  if (c == nullptr) {
    owned_.push_back(std::make_unique<Slot[]>(kChunkSlots));
    c = owned_.back().get();
    chunks_[index / kChunkSlots].store(c, std::memory_order_release);
  }
  Slot& slot = c[index % kChunkSlots];
  const uint32_t checked = slot.checked.load(std::memory_order_relaxed);
  if (checked == epoch_) return &slot.inst;  // another worker got here first
  if (checked != 0) {
    const Inst& cached = slot.inst;
    const auto* p = static_cast<const uint32_t*>(memory.translate(pc, 4, Access::Read));
    if (p == nullptr) return nullptr;
    bool same = p[0] == cached.word0;
    if (same && cached.dwords > 1) {
      const auto* q = static_cast<const uint32_t*>(memory.translate(pc + 4, 4, Access::Read));
      same = q != nullptr && q[0] == cached.word1;
    }
    if (same) {
      slot.checked.store(epoch_, std::memory_order_release);
      return &slot.inst;
    }
    count_.fetch_sub(1, std::memory_order_relaxed);  // changed code: decode it again below
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
  in.word0 = words[0];
  if (in.dwords > 1) in.word1 = words[1];
  slot.inst = in;
  slot.checked.store(epoch_, std::memory_order_release);
  count_.fetch_add(1, std::memory_order_relaxed);
  return &slot.inst;
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
