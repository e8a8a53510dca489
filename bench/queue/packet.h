// bench/queue/packet.h - the element every implementation moves: a real 64-byte dispatch packet.
#pragma once

#include <hsa/hsa.h>

#include <cstdint>

#include "common/aql_packet.h"

namespace rocref::bench {

using Packet = hsa_kernel_dispatch_packet_t;
static_assert(sizeof(Packet) == 64);

inline constexpr uint32_t kRingSize = 1024;

// A valid one-work-item dispatch; the producer index rides in
// private_segment_size and the per-producer sequence in kernel_object, so the
// consumer can check per-producer FIFO order without touching anything else.
inline Packet make_packet(uint32_t producer) noexcept {
  Packet p{};
  p.header = aql::make_header(HSA_PACKET_TYPE_KERNEL_DISPATCH, false, HSA_FENCE_SCOPE_SYSTEM,
                              HSA_FENCE_SCOPE_SYSTEM);
  p.setup = 1;
  p.workgroup_size_x = p.workgroup_size_y = p.workgroup_size_z = 1;
  p.grid_size_x = p.grid_size_y = p.grid_size_z = 1;
  p.private_segment_size = producer;
  return p;
}

}  // namespace rocref::bench
