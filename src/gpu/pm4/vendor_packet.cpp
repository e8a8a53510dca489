// gpu/pm4/vendor_packet.cpp - ROCR's AQL PM4-IB vendor packet: check the jump, run the IB.
#include "gpu/pm4/vendor_packet.h"

#include <cstring>

#include "gpu/pm4/pm4_packets.h"

namespace rocref::gpu::pm4 {

bool is_pm4_ib_packet(const void* packet64) noexcept {
  if (packet64 == nullptr) return false;
  AqlPm4IbPacket p;
  std::memcpy(&p, packet64, sizeof p);
  return (p.header & 0xffu) == 0 && p.ven_hdr == kAmdAqlFormatPm4Ib;
}

bool pm4_ib_jump_is_valid(const void* packet64) noexcept {
  if (!is_pm4_ib_packet(packet64)) return false;
  AqlPm4IbPacket p;
  std::memcpy(&p, packet64, sizeof p);
  const uint32_t* jump = p.ib_jump_cmd;
  return type_of(jump[0]) == 3 && opcode_of(jump[0]) == kItIndirectBuffer && dwords_of(jump[0]) == 4 &&
         ib_valid(jump[3]);
}

VendorResult run_vendor_packet(const void* packet64, const Pm4Context& ctx) {
  VendorResult out;
  if (!is_pm4_ib_packet(packet64)) return out;  // PM4-AQL-2: not ours
  AqlPm4IbPacket p;
  std::memcpy(&p, packet64, sizeof p);
  const uint32_t* jump = p.ib_jump_cmd;
  // PM4-AQL-1: the packet carries exactly one 4-dword INDIRECT_BUFFER to a valid IB.
  if (type_of(jump[0]) != 3 || opcode_of(jump[0]) != kItIndirectBuffer || dwords_of(jump[0]) != 4 ||
      !ib_valid(jump[3])) {
    out.outcome = VendorOutcome::Error;
    out.what = "PM4-AQL-1: PM4-IB vendor packet without a valid INDIRECT_BUFFER jump";
    return out;
  }
  const Pm4Result r = execute_ib(ib_base(jump[1], jump[2]), ib_size_dw(jump[3]), ctx, 1);
  out.outcome = r.ok ? VendorOutcome::Completed : VendorOutcome::Error;
  out.what = r.what;
  return out;
}

}  // namespace rocref::gpu::pm4
