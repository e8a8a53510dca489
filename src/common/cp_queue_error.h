// common/cp_queue_error.h - the queue error code the command processor stores in
// amd_queue_t.queue_inactive_signal, and how a runtime turns it into hsa_status_t.
//
// The value is a bit set, not an hsa_status_t: ROCR's dynamic-scratch handler
// tests it bit by bit (bit 0 is "scratch too small", which it services and
// resumes the queue), so a CP model that stored a status there would send
// ROCR down its scratch path on a malformed packet. The GPU model keeps its
// own hsa_status_t for each fault; the CP role (kfd/aql_hw_queue) encodes it
// here, and our runtime (hsa/aql_queue) decodes with the order ROCR uses, so
// either runtime on either side reports the same status to the callback.
#pragma once

#include <hsa/hsa.h>
#include <hsa/hsa_ext_amd.h>

#include <cstdint>

namespace rocref {

enum CpQueueError : uint64_t {
  kCpScratchWave64 = 1u << 0,          // retry with more scratch (ROCR services it)
  kCpInvalidDimension = 1u << 1,       // -> INCOMPATIBLE_ARGUMENTS
  kCpInvalidGroupMemory = 1u << 2,     // -> INVALID_ALLOCATION
  kCpInvalidCode = 1u << 3,            // -> INVALID_CODE_OBJECT
  kCpInvalidFormat = 1u << 5,          // -> INVALID_PACKET_FORMAT
  kCpGroupTooLarge = 1u << 6,          // -> INVALID_ARGUMENT
  kCpOutOfRegisters = 1u << 7,         // -> ERROR (5.2.3's headers have no OUT_OF_REGISTERS)
  kCpVendorUnsupported = 1u << 8,      // -> INVALID_PACKET_FORMAT
  kCpScratchReclaim = 1u << 9,         // exactly 512: give back a large scratch
  kCpScratchWave32 = 1u << 10,         // retry with more scratch (wave32)
  kCpMemoryViolation = 1u << 29,       // -> MEMORY_APERTURE_VIOLATION
  kCpIllegalInstruction = 1u << 30,    // -> ILLEGAL_INSTRUCTION
  kCpDebugTrap = uint64_t{1} << 31,    // -> EXCEPTION
};

// The bit a CP reports for a fault the GPU model classified as `status`.
constexpr uint64_t cp_queue_error_code(hsa_status_t status) noexcept {
  switch (static_cast<uint32_t>(status)) {
    case HSA_STATUS_ERROR_INCOMPATIBLE_ARGUMENTS: return kCpInvalidDimension;
    case HSA_STATUS_ERROR_INVALID_ALLOCATION: return kCpInvalidGroupMemory;
    case HSA_STATUS_ERROR_INVALID_CODE_OBJECT: return kCpInvalidCode;
    case HSA_STATUS_ERROR_INVALID_ARGUMENT: return kCpGroupTooLarge;
    case HSA_STATUS_ERROR_MEMORY_APERTURE_VIOLATION: return kCpMemoryViolation;
    case HSA_STATUS_ERROR_ILLEGAL_INSTRUCTION: return kCpIllegalInstruction;
    case HSA_STATUS_ERROR_EXCEPTION: return kCpDebugTrap;
    default: return kCpInvalidFormat;  // INVALID_PACKET_FORMAT and anything unclassified
  }
}

// What the runtime reports for a queue-inactive value: the first matching bit
// in ROCR's order. Scratch requests are not errors and map to SUCCESS.
constexpr hsa_status_t status_from_cp_queue_error(uint64_t code) noexcept {
  if (code == kCpScratchReclaim || (code & (kCpScratchWave64 | kCpScratchWave32)) != 0) return HSA_STATUS_SUCCESS;
  if (code & kCpInvalidDimension) return HSA_STATUS_ERROR_INCOMPATIBLE_ARGUMENTS;
  if (code & kCpInvalidGroupMemory) return HSA_STATUS_ERROR_INVALID_ALLOCATION;
  if (code & kCpInvalidCode) return HSA_STATUS_ERROR_INVALID_CODE_OBJECT;
  if (code & (kCpInvalidFormat | kCpVendorUnsupported)) return HSA_STATUS_ERROR_INVALID_PACKET_FORMAT;
  if (code & kCpGroupTooLarge) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  if (code & kCpOutOfRegisters) return HSA_STATUS_ERROR;
  if (code & kCpMemoryViolation) return static_cast<hsa_status_t>(HSA_STATUS_ERROR_MEMORY_APERTURE_VIOLATION);
  if (code & kCpIllegalInstruction) return static_cast<hsa_status_t>(HSA_STATUS_ERROR_ILLEGAL_INSTRUCTION);
  if (code & kCpDebugTrap) return HSA_STATUS_ERROR_EXCEPTION;
  return HSA_STATUS_ERROR;
}

}  // namespace rocref
