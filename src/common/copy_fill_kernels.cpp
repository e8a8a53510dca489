// common/copy_fill_kernels.cpp - the copy and fill kernel bodies (see copy_fill_kernels.h).
#include "common/copy_fill_kernels.h"

#include <algorithm>
#include <cstring>

#include "common/kernel_abi.h"

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

void copy_body(const void* kernarg) {
  const auto a = args_of<CopyArgs>(kernarg);
  const uint64_t stride = grid_size() * kChunkBytes;
  for (uint64_t begin = global_id() * kChunkBytes; begin < a.size; begin += stride) {
    std::memmove(reinterpret_cast<uint8_t*>(a.dst) + begin, reinterpret_cast<const uint8_t*>(a.src) + begin,
                 std::min<uint64_t>(kChunkBytes, a.size - begin));
  }
}

void fill_body(const void* kernarg) {
  const auto a = args_of<FillArgs>(kernarg);
  const uint64_t stride = grid_size() * kChunkBytes;
  auto* bytes = reinterpret_cast<uint8_t*>(a.dst);
  for (uint64_t begin = global_id() * kChunkBytes; begin < a.size; begin += stride) {
    const uint64_t end = std::min<uint64_t>(begin + kChunkBytes, a.size);
    if (a.pattern_bytes == 4 && a.dst % 4 == 0 && end % 4 == 0) {  // whole aligned words (begin is a chunk's)
      std::fill_n(reinterpret_cast<uint32_t*>(bytes + begin), (end - begin) / 4, a.pattern);
      continue;
    }
    for (uint64_t i = begin; i < end; ++i) bytes[i] = static_cast<uint8_t>(a.pattern >> (8 * (i % a.pattern_bytes)));
  }
}

}  // namespace

uint64_t copy_kernel_id() {
  static const uint64_t id = kernel_abi::register_kernel(kCopyName, copy_body);
  return id;
}

uint64_t fill_kernel_id() {
  static const uint64_t id = kernel_abi::register_kernel(kFillName, fill_body);
  return id;
}

}  // namespace rocref::copy_fill
