// gpu/foreign_blit/blit_result.h - the outcome of recognising or running a foreign kernel.
//
// Shared by the hook (foreign_kernel.*) and the emulations it calls. A Fault is
// memory the kernel would touch that is not mapped (the translation already
// reported the GPU page fault, BLIT-FAULT-1); an Error is kernargs no real
// dispatch of the kernel carries; both put the queue in error and move nothing.
#pragma once

#include <cstdint>
#include <cstdio>
#include <optional>
#include <string>
#include <utility>

#include "gpu/foreign_blit/rocr_kernels.h"

namespace rocref::gpu::foreign_blit {

enum class ForeignOutcome : uint8_t { NotRecognised, Completed, Error, Fault };

struct ForeignResult {
  ForeignOutcome outcome = ForeignOutcome::NotRecognised;
  std::optional<BlitKernel> kernel;
  uint64_t bytes = 0;    // moved or filled
  uint64_t address = 0;  // on Fault: the start of the range that is not mapped
  std::string what;      // on NotRecognised, Error or Fault: starts with the clause
};

inline std::string hex_address(uint64_t v) {
  char s[24];
  std::snprintf(s, sizeof s, "0x%llx", static_cast<unsigned long long>(v));
  return s;
}

inline ForeignResult blit_completed(BlitKernel k, uint64_t bytes) {
  return ForeignResult{ForeignOutcome::Completed, k, bytes, 0, {}};
}

inline ForeignResult blit_error(BlitKernel k, std::string what) {
  return ForeignResult{ForeignOutcome::Error, k, 0, 0, std::move(what)};
}

// `what` names the clause and the range; the address is appended.
inline ForeignResult blit_fault(BlitKernel k, const std::string& what, uint64_t address) {
  return ForeignResult{ForeignOutcome::Fault, k, 0, address, what + " " + hex_address(address) + " not mapped"};
}

}  // namespace rocref::gpu::foreign_blit
