// gpu/foreign_blit/blit_move.cpp - a blit kernel's whole copy through MemoryAccess.
#include "gpu/foreign_blit/blit_move.h"

#include <cstring>

namespace rocref::gpu::foreign_blit {

ForeignResult move_range(MemoryAccess& memory, BlitKernel k, uint64_t src, uint64_t dst, uint64_t bytes) {
  if (bytes == 0) return blit_completed(k, 0);
  const void* s = memory.translate(src, bytes, Access::Read);
  if (s == nullptr) return blit_fault(k, "BLIT-FAULT-1: source", src);
  void* d = memory.translate(dst, bytes, Access::Write);
  if (d == nullptr) return blit_fault(k, "BLIT-FAULT-1: destination", dst);
  std::memmove(d, s, bytes);
  return blit_completed(k, bytes);
}

}  // namespace rocref::gpu::foreign_blit
