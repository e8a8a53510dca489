// tests/property/gpuvm/gpuvm_ops.h - random map/unmap/translate sequences on the real GPUVM,
// checked step by step against a flat map model (VM-MAP-*, VM-XLATE-*, VM-TLB-*, VM-PT-*).
#pragma once

#include <array>
#include <cstdint>
#include <vector>

namespace gpuvm_prop {

// One operation, decoded from 8 random bytes so RapidCheck can shrink it byte by byte.
using RawOp = std::array<uint8_t, 8>;

// How often the generated sequences reached the cases the properties are about (all runs so far).
struct Reached {
  int across_buffers = 0;     // a clean translation across two separately mapped buffers
  int crossing_faults = 0;    // a page-crossing translation that faults on a later page
  int partial_page_maps = 0;  // a map whose size is not whole pages
  int unaligned_refused = 0;  // a map at an unaligned address (refused)
  int middle_unmaps = 0;      // an unmap leaving the buffer mapped on both sides
};
extern Reached g_reached;

// Runs the sequence; fails through RC_ASSERT with the clause ID of the first divergence.
void check_sequence(const std::vector<RawOp>& ops);

}  // namespace gpuvm_prop
