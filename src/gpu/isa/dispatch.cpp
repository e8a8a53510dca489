// gpu/isa/dispatch.cpp - the AQL front end: a dispatch packet and its AMDHSA descriptor as a Launch.
#include "gpu/isa/dispatch.h"

#include <algorithm>

#include "gpu/isa/kernel_descriptor.h"

namespace rocref::gpu::isa {
namespace {

PacketFault code_fault(const DescriptorRead& r, uint64_t ko) {
  if (r.fault) {
    return PacketFault{static_cast<hsa_status_t>(HSA_STATUS_ERROR_MEMORY_APERTURE_VIOLATION),
                       "ISA-DISP-1: kernel object: " + r.why, ko};
  }
  return PacketFault{HSA_STATUS_ERROR_INVALID_CODE_OBJECT, "ISA-DISP-1: kernel object: " + r.why, ko};
}

}  // namespace

bool is_isa_kernel(const hsa_kernel_dispatch_packet_t& packet, MemoryAccess& memory, std::string* why) {
  const DescriptorRead r = read_kernel_descriptor(packet.kernel_object, memory);
  if (why != nullptr) *why = r.why;
  return r.descriptor.has_value();
}

std::optional<PacketFault> launch_from_aql(const IsaDispatch& d, Launch* out) {
  const hsa_kernel_dispatch_packet_t& p = *d.packet;
  const DescriptorRead r = read_kernel_descriptor(p.kernel_object, *d.memory);
  if (!r.descriptor) return code_fault(r, p.kernel_object);
  const KernelDescriptor& kd = *r.descriptor;
  Launch l;
  l.code_va = r.code_va;
  l.fault_va = p.kernel_object;
  l.fields = decode_fields(kd);
  l.private_size = (std::max(p.private_segment_size, kd.private_segment_fixed_size) + 3) & ~3u;
  l.lds_bytes = std::max(p.group_segment_size, kd.group_segment_fixed_size);
  // ISA-DISP-2: the user SGPRs the descriptor enables, in the ABI's order.
  unsigned s = 0;
  auto put64 = [&](uint64_t v) {
    l.user_sgpr[s++] = static_cast<uint32_t>(v);
    l.user_sgpr[s++] = static_cast<uint32_t>(v >> 32);
  };
  const uint16_t props = kd.kernel_code_properties;
  if (props & kEnablePrivateSegmentBuffer) {
    l.scratch_rsrc_sgpr = static_cast<int>(s);
    s += 4;
  }
  if (props & kEnableDispatchPtr) put64(d.packet_va);
  if (props & kEnableQueuePtr) put64(d.queue_va);
  if (props & kEnableKernargSegmentPtr) put64(reinterpret_cast<uintptr_t>(p.kernarg_address));
  if (props & kEnableDispatchId) put64(d.dispatch_id);
  if (props & kEnableFlatScratchInit) {
    l.flat_scratch_sgpr = static_cast<int>(s);
    s += 2;
  }
  if (props & kEnablePrivateSegmentSize) l.user_sgpr[s++] = l.private_size;
  l.user_sgpr_count = s;
  const uint32_t dims = p.setup & 3;
  const uint32_t grid[3] = {p.grid_size_x, dims > 1 ? p.grid_size_y : 1u, dims > 2 ? p.grid_size_z : 1u};
  const uint32_t wg[3] = {p.workgroup_size_x, dims > 1 ? p.workgroup_size_y : 1u, dims > 2 ? p.workgroup_size_z : 1u};
  std::copy(grid, grid + 3, l.grid);
  std::copy(wg, wg + 3, l.workgroup);
  l.packet = &p;
  l.packet_va = d.packet_va;
  l.memory = d.memory;
  l.l2 = d.l2;
  l.workers = d.workers;
  *out = l;
  return std::nullopt;
}

std::optional<PacketFault> run_isa_dispatch(const IsaDispatch& d, IsaStats* stats) {
  Launch l;
  if (std::optional<PacketFault> f = launch_from_aql(d, &l)) return f;
  return run_launch(l, stats);
}

}  // namespace rocref::gpu::isa
