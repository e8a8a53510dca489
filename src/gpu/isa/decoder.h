// gpu/isa/decoder.h - gfx900 machine words -> Inst (one table of format rules, GFX9 field positions).
//
// Field positions from the AMD "Vega" Instruction Set Architecture reference,
// chapter 12 (microcode formats), checked against LLVM's disassembler by the
// tests (ISA-DEC-1). Decoding never fails hard: an unknown encoding is
// Format::Invalid, which the executor turns into an illegal-instruction queue
// error only if the wave reaches it.
#pragma once

#include <cstddef>
#include <cstdint>

#include "gpu/isa/instruction.h"

namespace rocref::gpu::isa {

// Decodes the instruction starting at words[0]; `available` is how many words
// may be read. An instruction whose second word is not available decodes as
// Invalid with dwords = 2 (read one more word and decode again); any other
// invalid encoding has dwords = 1.
Inst decode(const uint32_t* words, size_t available) noexcept;

}  // namespace rocref::gpu::isa
