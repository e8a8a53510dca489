// gpu/pm4/vendor_packet.h - what the AQL packet processor calls for a VENDOR_SPECIFIC packet.
//
// The hook between the packet processor and the PM4 engine (PM4-AQL-*): the
// processor hands over the 64 packet bytes it fetched; a packet with AMD format
// PM4_IB runs its IB here. Any other vendor format is NotHandled, and the
// processor treats it as an unknown packet (queue error, never skipped).
#pragma once

#include <cstdint>
#include <string>

#include "gpu/pm4/pm4_executor.h"

namespace rocref::gpu::pm4 {

enum class VendorOutcome : uint8_t { NotHandled, Completed, Error };

struct VendorResult {
  VendorOutcome outcome = VendorOutcome::NotHandled;
  std::string what;
};

// True when the packet's vendor header says AMD_AQL_FORMAT_PM4_IB.
bool is_pm4_ib_packet(const void* packet64) noexcept;
// PM4-AQL-1 without running anything: the packet carries one 4-dword
// INDIRECT_BUFFER to a valid IB. The packet processor checks it at launch, so a
// malformed PM4-IB packet is never launched (AQL-INV-2, AQL-ERR-1).
bool pm4_ib_jump_is_valid(const void* packet64) noexcept;
// Checks the jump command and runs the IB. The processor then completes the packet as usual
// (release fence, completion signal).
VendorResult run_vendor_packet(const void* packet64, const Pm4Context& ctx);

}  // namespace rocref::gpu::pm4
