// gpu/foreign_blit/foreign_kernel.cpp - recognise a foreign kernel; emulate ROCR's blit kernels, hand on ROCclr's.
#include "gpu/foreign_blit/foreign_kernel.h"

#include <algorithm>
#include <array>
#include <cstdio>
#include <cstring>

#include "gpu/foreign_blit/blit_move.h"
#include "gpu/foreign_blit/rocclr_emulation.h"
#include "gpu/foreign_blit/rocclr_kernels.h"

namespace rocref::gpu::foreign_blit {
namespace {

// Bytes 8 and 16 of a kernel descriptor: kernarg_size (code object v3 and later; ROCR's
// amd_kernel_code_t has other fields there) and kernel_code_entry_byte_offset (both).
constexpr uint64_t kKernargSizeField = 8, kEntryOffsetField = 16, kDescriptorHead = 24;
constexpr size_t kCodeWindowDwords = std::max(kFingerprintDwords, kRocclrFingerprintDwords);

std::string hex(uint64_t v) { return hex_address(v); }

template <typename Args>
std::optional<ForeignResult> read_args(MemoryAccess& mem, BlitKernel k, uint64_t va, Args* out) {
  const void* p = mem.translate(va, sizeof(Args), Access::Read);
  if (p == nullptr) return blit_fault(k, "BLIT-FAULT-1: kernarg segment", va);
  std::memcpy(out, p, sizeof(Args));
  return std::nullopt;
}

// BLIT-COPY-1: the phases tile [start, end) in order, and dst follows src by one fixed offset.
bool phases_consistent(const uint64_t* src, const uint64_t* dst, size_t n) {
  for (size_t i = 0; i < n; ++i) {
    if (dst[i] - src[i] != dst[0] - src[0]) return false;
    if (i > 0 && src[i] < src[i - 1]) return false;
  }
  return true;
}

}  // namespace

ForeignResult recognise_foreign_kernel(const hsa_kernel_dispatch_packet_t& packet, MemoryAccess& mem) {
  ForeignResult r;
  const uint64_t ko = packet.kernel_object;
  const auto* head = ko == 0 ? nullptr : static_cast<const uint8_t*>(mem.translate(ko, kDescriptorHead, Access::Read));
  if (head == nullptr) {
    r.what = "BLIT-REC-2: kernel object " + hex(ko) + " not mapped";
    return r;
  }
  int64_t entry_offset = 0;
  uint32_t kernarg_size = 0;
  std::memcpy(&entry_offset, head + kEntryOffsetField, sizeof entry_offset);
  std::memcpy(&kernarg_size, head + kKernargSizeField, sizeof kernarg_size);
  const uint64_t entry = ko + uint64_t(entry_offset);
  const auto* bytes = static_cast<const uint8_t*>(mem.translate(entry, kCodeWindowDwords * 4, Access::Read));
  if (bytes == nullptr) {
    r.what = "BLIT-REC-2: code of kernel object " + hex(ko) + " at " + hex(entry) + " not mapped";
    return r;
  }
  // The entry may sit at any byte (a descriptor is user data): a misaligned window is copied
  // first (the translation above covered all of it), never read as misaligned dwords.
  std::array<uint32_t, kCodeWindowDwords> window;
  const uint32_t* code = reinterpret_cast<const uint32_t*>(bytes);
  if (reinterpret_cast<uintptr_t>(bytes) % alignof(uint32_t) != 0) {
    std::memcpy(window.data(), bytes, sizeof window);
    code = window.data();
  }
  r.kernel = recognise(code, kCodeWindowDwords);
  if (!r.kernel) r.kernel = recognise_rocclr(kernarg_size, code, kCodeWindowDwords);
  if (!r.kernel) {
    char first[64];
    std::snprintf(first, sizeof first, "%08x %08x %08x %08x", code[0], code[1], code[2], code[3]);
    r.what = "BLIT-REC-2: kernel object " + hex(ko) + " (code " + first +
             ") is neither a rocref kernel nor a ROCR or ROCclr blit kernel";
    return r;
  }
  r.outcome = ForeignOutcome::Completed;
  return r;
}

ForeignResult run_foreign_kernel(const hsa_kernel_dispatch_packet_t& packet, MemoryAccess& mem) {
  const ForeignResult r = recognise_foreign_kernel(packet, mem);
  if (r.outcome != ForeignOutcome::Completed) return r;
  const BlitKernel k = *r.kernel;
  const uint64_t ka = reinterpret_cast<uintptr_t>(packet.kernarg_address);
  switch (k) {
    case BlitKernel::CopyAligned: {
      CopyAlignedArgs a;
      if (auto f = read_args(mem, k, ka, &a)) return *f;
      const uint64_t src[] = {a.phase1_src_start, a.phase2_src_start, a.phase3_src_start, a.phase4_src_start,
                              a.phase4_src_end};
      const uint64_t dst[] = {a.phase1_dst_start, a.phase2_dst_start, a.phase3_dst_start, a.phase4_dst_start,
                              a.phase4_dst_end};
      if (a.num_workitems == 0 || !phases_consistent(src, dst, 5)) {
        return blit_error(k, "BLIT-ARG-1: CopyAligned kernargs are inconsistent");
      }
      return move_range(mem, k, a.phase1_src_start, a.phase1_dst_start, a.phase4_src_end - a.phase1_src_start);
    }
    case BlitKernel::CopyMisaligned: {
      CopyMisalignedArgs a;
      if (auto f = read_args(mem, k, ka, &a)) return *f;
      const uint64_t src[] = {a.phase1_src_start, a.phase2_src_start, a.phase2_src_end};
      const uint64_t dst[] = {a.phase1_dst_start, a.phase2_dst_start, a.phase2_dst_end};
      if (a.num_workitems == 0 || !phases_consistent(src, dst, 3)) {
        return blit_error(k, "BLIT-ARG-1: CopyMisaligned kernargs are inconsistent");
      }
      return move_range(mem, k, a.phase1_src_start, a.phase1_dst_start, a.phase2_src_end - a.phase1_src_start);
    }
    case BlitKernel::Fill: {
      FillArgs a;
      if (auto f = read_args(mem, k, ka, &a)) return *f;
      const uint64_t start = a.phase1_dst_start, end = a.phase2_dst_end;
      // BLIT-FILL-1: the kernel fills dword-aligned regions only.
      if (a.num_workitems == 0 || a.phase2_dst_start < start || end < a.phase2_dst_start || (start & 3) ||
          ((end - start) & 3)) {
        return blit_error(k, "BLIT-ARG-1: Fill kernargs are inconsistent or not dword-aligned");
      }
      const uint64_t bytes = end - start;
      if (bytes != 0) {
        auto* d = static_cast<uint32_t*>(mem.translate(start, bytes, Access::Write));
        if (d == nullptr) return blit_fault(k, "BLIT-FAULT-1: destination", start);
        for (uint64_t i = 0; i < bytes / 4; ++i) d[i] = a.value;
      }
      return blit_completed(k, bytes);
    }
    case BlitKernel::RocclrCopyBuffer:
    case BlitKernel::RocclrCopyBufferAligned:
    case BlitKernel::RocclrFillBufferAligned:
      return run_rocclr_kernel(k, packet, mem);
  }
  ForeignResult unknown;  // a BlitKernel value out of range: never run
  unknown.what = "BLIT-REC-2: kernel object " + hex(packet.kernel_object) + " recognised as no known kernel";
  return unknown;
}

}  // namespace rocref::gpu::foreign_blit
