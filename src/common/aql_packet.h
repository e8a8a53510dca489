// common/aql_packet.h - AQL packet header fields, per hsa.h and the HSA PRM 1.2.
//
// Header u16: type bits 0-7, barrier bit 8, acquire fence scope bits 9-10,
// release fence scope bits 11-12. The first 32 bits of a packet (header +
// setup) are published with one release store (AQL-PUB-1).
#pragma once

#include <hsa/hsa.h>
#include <hsa/hsa_ext_amd.h>

#include <cstddef>
#include <cstdint>

namespace rocref::aql {

inline constexpr size_t kPacketBytes = 64;

static_assert(sizeof(hsa_kernel_dispatch_packet_t) == kPacketBytes);
static_assert(sizeof(hsa_agent_dispatch_packet_t) == kPacketBytes);
static_assert(sizeof(hsa_barrier_and_packet_t) == kPacketBytes);
static_assert(sizeof(hsa_barrier_or_packet_t) == kPacketBytes);
static_assert(sizeof(hsa_amd_barrier_value_packet_t) == kPacketBytes);
static_assert(offsetof(hsa_kernel_dispatch_packet_t, setup) == 2);
static_assert(offsetof(hsa_kernel_dispatch_packet_t, workgroup_size_x) == 4);
static_assert(offsetof(hsa_kernel_dispatch_packet_t, grid_size_x) == 12);
static_assert(offsetof(hsa_kernel_dispatch_packet_t, private_segment_size) == 24);
static_assert(offsetof(hsa_kernel_dispatch_packet_t, group_segment_size) == 28);
static_assert(offsetof(hsa_kernel_dispatch_packet_t, kernel_object) == 32);
static_assert(offsetof(hsa_kernel_dispatch_packet_t, kernarg_address) == 40);
static_assert(offsetof(hsa_kernel_dispatch_packet_t, completion_signal) == 56);
static_assert(offsetof(hsa_agent_dispatch_packet_t, type) == 2);
static_assert(offsetof(hsa_agent_dispatch_packet_t, return_address) == 8);
static_assert(offsetof(hsa_agent_dispatch_packet_t, arg) == 16);
static_assert(offsetof(hsa_agent_dispatch_packet_t, completion_signal) == 56);
static_assert(offsetof(hsa_barrier_and_packet_t, dep_signal) == 8);
static_assert(offsetof(hsa_barrier_and_packet_t, completion_signal) == 56);
static_assert(offsetof(hsa_barrier_or_packet_t, dep_signal) == 8);

inline constexpr uint16_t kTypeMask = (1u << HSA_PACKET_HEADER_WIDTH_TYPE) - 1;
inline constexpr uint16_t kScopeMask = (1u << HSA_PACKET_HEADER_WIDTH_ACQUIRE_FENCE_SCOPE) - 1;
inline constexpr uint8_t kBarrierDependencies = 5;

constexpr uint16_t make_header(hsa_packet_type_t type, bool barrier,
                               hsa_fence_scope_t acquire, hsa_fence_scope_t release) noexcept {
  return static_cast<uint16_t>((type << HSA_PACKET_HEADER_TYPE) |
                               ((barrier ? 1u : 0u) << HSA_PACKET_HEADER_BARRIER) |
                               (acquire << HSA_PACKET_HEADER_SCACQUIRE_FENCE_SCOPE) |
                               (release << HSA_PACKET_HEADER_SCRELEASE_FENCE_SCOPE));
}

constexpr uint32_t make_header_setup(uint16_t header, uint16_t setup) noexcept {
  return static_cast<uint32_t>(header) | (static_cast<uint32_t>(setup) << 16);
}

constexpr uint8_t header_type(uint16_t header) noexcept { return header & kTypeMask; }
constexpr bool header_barrier(uint16_t header) noexcept {
  return (header >> HSA_PACKET_HEADER_BARRIER) & 1u;
}
constexpr uint8_t header_acquire_scope(uint16_t header) noexcept {
  return (header >> HSA_PACKET_HEADER_SCACQUIRE_FENCE_SCOPE) & kScopeMask;
}
constexpr uint8_t header_release_scope(uint16_t header) noexcept {
  return (header >> HSA_PACKET_HEADER_SCRELEASE_FENCE_SCOPE) & kScopeMask;
}

// The header every slot holds at queue creation and after the processor is done with it.
inline constexpr uint16_t kInvalidHeader = make_header(HSA_PACKET_TYPE_INVALID, false,
                                                       HSA_FENCE_SCOPE_NONE, HSA_FENCE_SCOPE_NONE);

}  // namespace rocref::aql
