// gpu/packet_checks.cpp - AQL packet well-formedness (see packet_checks.h).
#include "gpu/packet_checks.h"

#include "common/aql_packet.h"
#include "common/signal.h"

namespace rocref::gpu {
namespace {

PacketFault invalid(std::string what, uint64_t address = 0) {
  return PacketFault{HSA_STATUS_ERROR_INVALID_PACKET_FORMAT, std::move(what), address};
}

}  // namespace

std::optional<PacketFault> check_fence_scopes(uint16_t header) {
  constexpr uint8_t kReservedScope = 3;
  if (aql::header_acquire_scope(header) == kReservedScope) {
    return invalid("AQL-FEN-2: acquire fence scope 3 is reserved");
  }
  if (aql::header_release_scope(header) == kReservedScope) {
    return invalid("AQL-FEN-2: release fence scope 3 is reserved");
  }
  return std::nullopt;
}

std::optional<PacketFault> check_kernel_dispatch(const hsa_kernel_dispatch_packet_t& p) {
  if (p.setup < 1 || p.setup > 3) {
    return invalid("AQL-ERR-1: dispatch setup " + std::to_string(p.setup) + " (dimensions must be 1..3)");
  }
  if (p.workgroup_size_x == 0 || p.workgroup_size_y == 0 || p.workgroup_size_z == 0) {
    return invalid("AQL-ERR-1: dispatch with a zero workgroup dimension");
  }
  if (p.grid_size_x == 0 || p.grid_size_y == 0 || p.grid_size_z == 0) {
    return invalid("AQL-ERR-1: dispatch with a zero grid dimension");
  }
  const uint64_t items = uint64_t{p.workgroup_size_x} * p.workgroup_size_y * p.workgroup_size_z;
  if (items > kMaxWorkGroupItems) {
    return invalid("AQL-ERR-1: work-group of " + std::to_string(items) + " work-items (max " +
                   std::to_string(kMaxWorkGroupItems) + ")");
  }
  if (p.group_segment_size > kMaxGroupSegmentBytes) {
    return PacketFault{HSA_STATUS_ERROR_OUT_OF_RESOURCES,
                       "AQL-ERR-1: group segment of " + std::to_string(p.group_segment_size) + " bytes", 0};
  }
  if (p.kernel_object == 0) return invalid("AQL-ERR-1: null kernel object");
  return std::nullopt;
}

std::optional<PacketFault> check_vendor_packet(const hsa_amd_barrier_value_packet_t& p) {
  if (p.header.AmdFormat != HSA_AMD_PACKET_TYPE_BARRIER_VALUE) {
    return invalid("AQL-INV-2: vendor packet with unknown AMD format " + std::to_string(p.header.AmdFormat));
  }
  if (!sig::is_valid_condition(p.cond)) {
    return invalid("AQL-BAR-4: BARRIER_VALUE condition " + std::to_string(p.cond));
  }
  return std::nullopt;
}

}  // namespace rocref::gpu
