// gpu/foreign_blit/blit_move.h - a blit kernel's whole copy: both ranges translated, then one memmove.
//
// A copy kernel's work-items together read one source range and write one
// destination range. Translating both before a byte moves makes a fault move
// nothing (BLIT-FAULT-1); overlapping ranges move as memmove does.
#pragma once

#include <cstdint>

#include "gpu/foreign_blit/blit_result.h"
#include "gpu/memory_access.h"

namespace rocref::gpu::foreign_blit {

ForeignResult move_range(MemoryAccess& memory, BlitKernel k, uint64_t src, uint64_t dst, uint64_t bytes);

}  // namespace rocref::gpu::foreign_blit
