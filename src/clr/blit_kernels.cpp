// clr/blit_kernels.cpp - copy and fill kernel bodies (see blit_kernels.h).
#include "clr/blit_kernels.h"

#include <algorithm>
#include <cstring>

#include "common/kernel_abi.h"

namespace rocref::clr {
namespace {

uint64_t global_id() {
  const kernel_abi::WorkItemContext& c = kernel_abi::current();
  return uint64_t{c.work_group_id.x} * c.work_group_size.x + c.work_item_id.x;
}

void copy_body(const void* kernarg) {
  const auto& a = *static_cast<const CopyArgs*>(kernarg);
  const uint64_t begin = global_id() * kBlitChunkBytes;
  if (begin >= a.size) return;
  const uint64_t n = std::min<uint64_t>(kBlitChunkBytes, a.size - begin);
  std::memmove(static_cast<uint8_t*>(a.dst) + begin, static_cast<const uint8_t*>(a.src) + begin, n);
}

void fill_body(const void* kernarg) {
  const auto& a = *static_cast<const FillArgs*>(kernarg);
  const uint64_t begin = global_id() * kBlitChunkBytes;
  if (begin >= a.size) return;
  const uint64_t end = std::min<uint64_t>(begin + kBlitChunkBytes, a.size);
  auto* bytes = static_cast<uint8_t*>(a.dst);
  for (uint64_t i = begin; i < end; ++i) {
    bytes[i] = static_cast<uint8_t>(a.pattern >> (8 * (i % a.pattern_bytes)));
  }
}

}  // namespace

uint64_t copy_kernel_id() {
  static const uint64_t id = kernel_abi::register_kernel("__rocref_blit_copy", copy_body);
  return id;
}

uint64_t fill_kernel_id() {
  static const uint64_t id = kernel_abi::register_kernel("__rocref_blit_fill", fill_body);
  return id;
}

}  // namespace rocref::clr
