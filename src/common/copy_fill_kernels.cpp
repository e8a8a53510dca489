// common/copy_fill_kernels.cpp - the copy and fill kernel bodies (see copy_fill_kernels.h).
#include "common/copy_fill_kernels.h"

#include <algorithm>
#include <cstring>

#include "common/kernel_abi.h"
#include "common/mutant.h"

namespace rocref::copy_fill {
namespace {

uint64_t global_id() {
  const kernel_abi::WorkItemContext& c = kernel_abi::current();
  return uint64_t{c.work_group_id.x} * c.work_group_size.x + c.work_item_id.x;
}

uint64_t grid_size() {
  const kernel_abi::WorkItemContext& c = kernel_abi::current();
  return uint64_t{c.grid_groups.x} * c.work_group_size.x;
}

template <class Args>
Args args_of(const void* kernarg) {
  Args a;
  std::memcpy(&a, kernarg, sizeof a);  // the kernarg segment need not be aligned for Args
  return a;
}

// VM-XLATE-4: the host pointer of a GPU range, through the dispatch's translation.
void* gpu_range(uint64_t va, uint64_t size, bool write) {
  if (mutant_active(Mutant::BlitKernelRawAddresses)) return reinterpret_cast<void*>(static_cast<uintptr_t>(va));
  return kernel_abi::device_pointer(va, size, write);
}

// The bytes from va to the end of its GPU page: a piece no longer than that is translated once.
uint64_t to_page_end(uint64_t va) { return kPageBytes - (va & (kPageBytes - 1)); }

// A GPU page fault (recorded by the dispatch's translation) stops the work-item: the rest of its
// range is not touched, as a faulting wave stops.
void copy_body(const void* kernarg) {
  const auto a = args_of<CopyArgs>(kernarg);
  const uint64_t stride = grid_size() * kChunkBytes;
  for (uint64_t begin = global_id() * kChunkBytes; begin < a.size; begin += stride) {
    const uint64_t end = std::min<uint64_t>(begin + kChunkBytes, a.size);
    for (uint64_t at = begin; at < end;) {
      const uint64_t n = std::min({end - at, to_page_end(a.src + at), to_page_end(a.dst + at)});
      const void* from = gpu_range(a.src + at, n, false);
      void* to = from != nullptr ? gpu_range(a.dst + at, n, true) : nullptr;
      if (to == nullptr) return;
      std::memmove(to, from, n);
      at += n;
    }
  }
}

void fill_body(const void* kernarg) {
  const auto a = args_of<FillArgs>(kernarg);
  if (a.pattern_bytes == 0) return;
  const uint64_t stride = grid_size() * kChunkBytes;
  for (uint64_t begin = global_id() * kChunkBytes; begin < a.size; begin += stride) {
    const uint64_t end = std::min<uint64_t>(begin + kChunkBytes, a.size);
    for (uint64_t at = begin; at < end;) {
      const uint64_t n = std::min(end - at, to_page_end(a.dst + at));
      auto* bytes = static_cast<uint8_t*>(gpu_range(a.dst + at, n, true));
      if (bytes == nullptr) return;
      // Whole aligned words, with the pattern's phase at `at` (a chunk's and a page's start keep it).
      if (a.pattern_bytes == 4 && (a.dst + at) % 4 == 0 && at % 4 == 0 && n % 4 == 0) {
        std::fill_n(reinterpret_cast<uint32_t*>(bytes), n / 4, a.pattern);
      } else {
        for (uint64_t i = 0; i < n; ++i)
          bytes[i] = static_cast<uint8_t>(a.pattern >> (8 * ((at + i) % a.pattern_bytes)));
      }
      at += n;
    }
  }
}

}  // namespace

uint64_t copy_kernel_id() {
  static const uint64_t id =
      kernel_abi::register_fixed_kernel(kernel_abi::kFixedKernelIdBase + 1, kCopyName, copy_body);
  return id;
}

uint64_t fill_kernel_id() {
  static const uint64_t id =
      kernel_abi::register_fixed_kernel(kernel_abi::kFixedKernelIdBase + 2, kFillName, fill_body);
  return id;
}

}  // namespace rocref::copy_fill
