// tests/property/gpuvm/gpuvm_ops.h - random map/unmap/translate sequences on the real GPUVM,
// checked step by step against a flat map model (VM-MAP-*, VM-XLATE-*, VM-TLB-*, VM-PT-*).
#pragma once

#include <array>
#include <cstdint>
#include <vector>

namespace gpuvm_prop {

// One operation, decoded from 8 random bytes so RapidCheck can shrink it byte by byte.
using RawOp = std::array<uint8_t, 8>;

// Runs the sequence; fails through RC_ASSERT with the clause ID of the first divergence.
void check_sequence(const std::vector<RawOp>& ops);

}  // namespace gpuvm_prop
