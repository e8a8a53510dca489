// gpu/foreign_blit/rocclr_emulation.cpp - ROCclr's copyBuffer(Aligned) and fillBufferAligned over MemoryAccess.
#include "gpu/foreign_blit/rocclr_emulation.h"

#include <algorithm>
#include <cstring>
#include <limits>

#include "gpu/foreign_blit/blit_move.h"
#include "gpu/foreign_blit/rocclr_kernels.h"

namespace rocref::gpu::foreign_blit {
namespace {

constexpr uint64_t kMax = std::numeric_limits<uint64_t>::max();

template <typename Args>
std::optional<ForeignResult> read_kernargs(MemoryAccess& mem, BlitKernel k, const hsa_kernel_dispatch_packet_t& p,
                                           Args* out) {
  const uint64_t va = reinterpret_cast<uintptr_t>(p.kernarg_address);
  const void* args = mem.translate(va, sizeof(Args), Access::Read);
  if (args == nullptr) return blit_fault(k, "BLIT-FAULT-1: kernarg segment", va);
  std::memcpy(out, args, sizeof(Args));
  return std::nullopt;
}

ForeignResult ids_wrap(BlitKernel k) {
  return blit_error(k, std::string("BLIT-ARG-2: ") + blit_kernel_name(k) +
                           " global offset + grid_size_x wraps past 2^64");
}

// BLIT-COPY-2: work-item id copies the dword at byte 4 * id past each origin, except the last
// (id == size - 1), which copies its `remain` bytes there; with remain == kCopyBytewise each
// work-item copies the byte at id instead. ROCclr passes size = bytes / 4 + 1, remain = bytes % 4.
ForeignResult copy_buffer(MemoryAccess& mem, const hsa_kernel_dispatch_packet_t& p) {
  constexpr BlitKernel k = BlitKernel::RocclrCopyBuffer;
  RocclrCopyBufferArgs a;
  if (auto f = read_kernargs(mem, k, p, &a)) return *f;
  const std::optional<ActiveIds> ids = active_ids(a.global_offset_x, p.grid_size_x, a.size);
  if (!ids) return ids_wrap(k);
  const uint64_t items = ids->hi - ids->lo;
  uint64_t first = ids->lo, bytes = items;
  if (a.remain != kCopyBytewise) {
    first = 4 * ids->lo;  // modulo 2^64, as the kernel's 64-bit address arithmetic
    bytes = items != 0 && ids->hi == a.size ? 4 * (items - 1) + a.remain : 4 * items;
  }
  return move_range(mem, k, a.src + a.src_origin + first, a.dst + a.dst_origin + first, bytes);
}

// BLIT-COPY-3: work-item id copies element id + origin; an element is 16 bytes when
// alignment == 16, otherwise 4.
ForeignResult copy_buffer_aligned(MemoryAccess& mem, const hsa_kernel_dispatch_packet_t& p) {
  constexpr BlitKernel k = BlitKernel::RocclrCopyBufferAligned;
  RocclrCopyBufferAlignedArgs a;
  if (auto f = read_kernargs(mem, k, p, &a)) return *f;
  const std::optional<ActiveIds> ids = active_ids(a.global_offset_x, p.grid_size_x, a.size);
  if (!ids) return ids_wrap(k);
  const uint64_t width = a.alignment == 16 ? 16 : 4;
  return move_range(mem, k, a.src + (a.src_origin + ids->lo) * width, a.dst + (a.dst_origin + ids->lo) * width,
              (ids->hi - ids->lo) * width);
}

// BLIT-FILL-2: work-item id stores the pattern's pattern_size elements at element
// offset + id * pattern_size of the widest non-null buffer (ulong, uint, ushort, else uchar).
ForeignResult fill_buffer_aligned(MemoryAccess& mem, const hsa_kernel_dispatch_packet_t& p) {
  constexpr BlitKernel k = BlitKernel::RocclrFillBufferAligned;
  RocclrFillBufferArgs a;
  if (auto f = read_kernargs(mem, k, p, &a)) return *f;
  const std::optional<ActiveIds> ids = active_ids(a.global_offset_x, p.grid_size_x, a.size);
  if (!ids) return ids_wrap(k);
  uint64_t buf = a.buf_uchar, width = 1;
  if (a.buf_ulong != 0) {
    buf = a.buf_ulong, width = 8;
  } else if (a.buf_uint != 0) {
    buf = a.buf_uint, width = 4;
  } else if (a.buf_ushort != 0) {
    buf = a.buf_ushort, width = 2;
  }
  const uint64_t items = ids->hi - ids->lo;
  if (items == 0 || a.pattern_size == 0) return blit_completed(k, 0);
  const uint64_t pattern_bytes = uint64_t{a.pattern_size} * width;  // < 2^35
  const uint64_t dst = buf + (a.offset + ids->lo * a.pattern_size) * width;
  uint64_t bytes = 0;
  if (__builtin_mul_overflow(items, pattern_bytes, &bytes)) {
    // Longer than the address space: no mapping covers it; the translation reports the fault.
    mem.translate(dst, kMax, Access::Write);
    return blit_fault(k, "BLIT-FAULT-1: destination", dst);
  }
  const void* pattern = mem.translate(a.pattern, pattern_bytes, Access::Read);
  if (pattern == nullptr) return blit_fault(k, "BLIT-FAULT-1: pattern", a.pattern);
  auto* d = static_cast<uint8_t*>(mem.translate(dst, bytes, Access::Write));
  if (d == nullptr) return blit_fault(k, "BLIT-FAULT-1: destination", dst);
  // The first copy, then doubling. A pattern inside the destination is read as it was before
  // the fill (on the GPU those loads race with the stores).
  std::memmove(d, pattern, pattern_bytes);
  for (uint64_t done = pattern_bytes; done < bytes;) {
    const uint64_t n = std::min(done, bytes - done);
    std::memcpy(d + done, d, n);
    done += n;
  }
  return blit_completed(k, bytes);
}

}  // namespace

std::optional<ActiveIds> active_ids(uint64_t global_offset, uint32_t grid_size_x, uint64_t size) noexcept {
  if (grid_size_x == 0) return ActiveIds{};
  const uint64_t last = uint64_t{grid_size_x} - 1;
  if (last > kMax - global_offset) return std::nullopt;
  if (global_offset >= size) return ActiveIds{};
  const uint64_t last_id = global_offset + last;
  return ActiveIds{global_offset, last_id < size ? last_id + 1 : size};
}

ForeignResult run_rocclr_kernel(BlitKernel k, const hsa_kernel_dispatch_packet_t& packet, MemoryAccess& memory) {
  switch (k) {
    case BlitKernel::RocclrCopyBuffer: return copy_buffer(memory, packet);
    case BlitKernel::RocclrCopyBufferAligned: return copy_buffer_aligned(memory, packet);
    case BlitKernel::RocclrFillBufferAligned: return fill_buffer_aligned(memory, packet);
    case BlitKernel::CopyAligned:
    case BlitKernel::CopyMisaligned:
    case BlitKernel::Fill:
      break;
  }
  ForeignResult r;
  r.what = std::string("BLIT-REC-3: ") + blit_kernel_name(k) + " is not a ROCclr kernel";
  return r;
}

}  // namespace rocref::gpu::foreign_blit
