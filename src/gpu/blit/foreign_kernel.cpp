// gpu/blit/foreign_kernel.cpp - recognise a foreign kernel's code and emulate ROCR's blit kernels.
#include "gpu/blit/foreign_kernel.h"

#include <cstdio>
#include <cstring>

namespace rocref::gpu::blit {
namespace {

constexpr uint64_t kEntryOffsetField = 16;  // kernel_code_entry_byte_offset, descriptor and amd_kernel_code_t

std::string hex(uint64_t v) {
  char s[24];
  std::snprintf(s, sizeof s, "0x%llx", static_cast<unsigned long long>(v));
  return s;
}

ForeignResult error(BlitKernel k, std::string what) {
  ForeignResult r;
  r.outcome = ForeignOutcome::Error;
  r.kernel = k;
  r.what = std::move(what);
  return r;
}

template <typename Args>
bool read_args(MemoryAccess& mem, uint64_t va, Args* out) {
  const void* p = mem.translate(va, sizeof(Args), Access::Read);
  if (p == nullptr) return false;
  std::memcpy(out, p, sizeof(Args));
  return true;
}

// BLIT-COPY-1: the phases tile [start, end) in order, and dst follows src by one fixed offset.
bool phases_consistent(const uint64_t* src, const uint64_t* dst, size_t n) {
  for (size_t i = 0; i < n; ++i) {
    if (dst[i] - src[i] != dst[0] - src[0]) return false;
    if (i > 0 && src[i] < src[i - 1]) return false;
  }
  return true;
}

ForeignResult copy(MemoryAccess& mem, BlitKernel k, uint64_t src, uint64_t dst, uint64_t bytes) {
  ForeignResult r;
  r.kernel = k;
  if (bytes != 0) {
    const void* s = mem.translate(src, bytes, Access::Read);
    if (s == nullptr) return error(k, "BLIT-COPY-1: source " + hex(src) + " not mapped");
    void* d = mem.translate(dst, bytes, Access::Write);
    if (d == nullptr) return error(k, "BLIT-COPY-1: destination " + hex(dst) + " not mapped");
    std::memmove(d, s, bytes);
  }
  r.outcome = ForeignOutcome::Completed;
  r.bytes = bytes;
  return r;
}

}  // namespace

ForeignResult recognise_foreign_kernel(const hsa_kernel_dispatch_packet_t& packet, MemoryAccess& mem) {
  ForeignResult r;
  const uint64_t ko = packet.kernel_object;
  const auto* entry_offset =
      ko == 0 ? nullptr : static_cast<const int64_t*>(mem.translate(ko + kEntryOffsetField, 8, Access::Read));
  if (entry_offset == nullptr) {
    r.what = "BLIT-REC-2: kernel object " + hex(ko) + " not mapped";
    return r;
  }
  const uint64_t entry = ko + uint64_t(*entry_offset);
  const auto* code =
      static_cast<const uint32_t*>(mem.translate(entry, kFingerprintDwords * 4, Access::Read));
  if (code == nullptr) {
    r.what = "BLIT-REC-2: code of kernel object " + hex(ko) + " at " + hex(entry) + " not mapped";
    return r;
  }
  r.kernel = recognise(code, kFingerprintDwords);
  if (!r.kernel) {
    char first[64];
    std::snprintf(first, sizeof first, "%08x %08x %08x %08x", code[0], code[1], code[2], code[3]);
    r.what = "BLIT-REC-2: kernel object " + hex(ko) + " (code " + first +
             ") is neither a rocref kernel nor a ROCR blit kernel; foreign ISA is not executed";
    return r;
  }
  r.outcome = ForeignOutcome::Completed;
  return r;
}

ForeignResult run_foreign_kernel(const hsa_kernel_dispatch_packet_t& packet, MemoryAccess& mem) {
  ForeignResult r = recognise_foreign_kernel(packet, mem);
  if (r.outcome != ForeignOutcome::Completed) return r;
  r.outcome = ForeignOutcome::NotRecognised;
  const std::optional<BlitKernel> k = r.kernel;
  const uint64_t ka = reinterpret_cast<uintptr_t>(packet.kernarg_address);
  switch (*k) {
    case BlitKernel::CopyAligned: {
      CopyAlignedArgs a;
      if (!read_args(mem, ka, &a)) return error(*k, "BLIT-ARG-1: kernarg " + hex(ka) + " not mapped");
      const uint64_t src[] = {a.phase1_src_start, a.phase2_src_start, a.phase3_src_start, a.phase4_src_start,
                              a.phase4_src_end};
      const uint64_t dst[] = {a.phase1_dst_start, a.phase2_dst_start, a.phase3_dst_start, a.phase4_dst_start,
                              a.phase4_dst_end};
      if (a.num_workitems == 0 || !phases_consistent(src, dst, 5)) {
        return error(*k, "BLIT-ARG-1: CopyAligned kernargs are inconsistent");
      }
      return copy(mem, *k, a.phase1_src_start, a.phase1_dst_start, a.phase4_src_end - a.phase1_src_start);
    }
    case BlitKernel::CopyMisaligned: {
      CopyMisalignedArgs a;
      if (!read_args(mem, ka, &a)) return error(*k, "BLIT-ARG-1: kernarg " + hex(ka) + " not mapped");
      const uint64_t src[] = {a.phase1_src_start, a.phase2_src_start, a.phase2_src_end};
      const uint64_t dst[] = {a.phase1_dst_start, a.phase2_dst_start, a.phase2_dst_end};
      if (a.num_workitems == 0 || !phases_consistent(src, dst, 3)) {
        return error(*k, "BLIT-ARG-1: CopyMisaligned kernargs are inconsistent");
      }
      return copy(mem, *k, a.phase1_src_start, a.phase1_dst_start, a.phase2_src_end - a.phase1_src_start);
    }
    case BlitKernel::Fill: {
      FillArgs a;
      if (!read_args(mem, ka, &a)) return error(*k, "BLIT-ARG-1: kernarg " + hex(ka) + " not mapped");
      const uint64_t start = a.phase1_dst_start, end = a.phase2_dst_end;
      // BLIT-FILL-1: the kernel fills dword-aligned regions only.
      if (a.num_workitems == 0 || a.phase2_dst_start < start || end < a.phase2_dst_start || (start & 3) ||
          ((end - start) & 3)) {
        return error(*k, "BLIT-ARG-1: Fill kernargs are inconsistent or not dword-aligned");
      }
      const uint64_t bytes = end - start;
      if (bytes != 0) {
        auto* d = static_cast<uint32_t*>(mem.translate(start, bytes, Access::Write));
        if (d == nullptr) return error(*k, "BLIT-FILL-1: destination " + hex(start) + " not mapped");
        for (uint64_t i = 0; i < bytes / 4; ++i) d[i] = a.value;
      }
      r.outcome = ForeignOutcome::Completed;
      r.kernel = k;
      r.bytes = bytes;
      return r;
    }
  }
  return r;
}

}  // namespace rocref::gpu::blit
