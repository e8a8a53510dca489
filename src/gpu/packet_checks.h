// gpu/packet_checks.h - which AQL packets are well formed (AQL-ERR-1, AQL-FEN-2, AQL-INV-2).
//
// Pure checks over a copy of the packet: no memory access, no state. The
// processor turns a PacketFault into the queue's error state.
#pragma once

#include <hsa/hsa.h>
#include <hsa/hsa_ext_amd.h>

#include <cstdint>
#include <optional>
#include <string>

namespace rocref::gpu {

struct PacketFault {
  hsa_status_t status = HSA_STATUS_ERROR_INVALID_PACKET_FORMAT;
  std::string what;      // one line naming the clause and the offending field
  uint64_t address = 0;  // the address concerned (kernel object, signal, ...), 0 if none
};

// AMD's addition to hsa_status_t (hsa_ext_amd.h, an unnamed enum): a GPU page fault.
inline constexpr hsa_status_t kStatusApertureViolation =
    static_cast<hsa_status_t>(HSA_STATUS_ERROR_MEMORY_APERTURE_VIOLATION);

// A work-group larger than this is malformed (the hardware maximum, ROCR's agent limit).
inline constexpr uint32_t kMaxWorkGroupItems = 1024;
// Group segment (LDS) a work-group may use: 64 KiB on gfx9/gfx10.
inline constexpr uint32_t kMaxGroupSegmentBytes = 64 * 1024;

// AQL-FEN-2: scopes 0..2; 3 is reserved.
std::optional<PacketFault> check_fence_scopes(uint16_t header);
// AQL-ERR-1: setup dimensions 1..3 (reserved setup bits zero), no zero workgroup
// or grid size in any dimension, at most kMaxWorkGroupItems per work-group,
// group segment within kMaxGroupSegmentBytes, a non-null kernel object.
std::optional<PacketFault> check_kernel_dispatch(const hsa_kernel_dispatch_packet_t& packet);
// AQL-INV-2, AQL-BAR-4: a vendor packet must carry a format this processor knows
// (BARRIER_VALUE) and, for it, a valid condition.
std::optional<PacketFault> check_vendor_packet(const hsa_amd_barrier_value_packet_t& packet);

}  // namespace rocref::gpu
