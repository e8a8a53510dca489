// tests/property/clr/launch_sequence.h - random launch sequences on the real kernarg ring and
// signal pool (fake signal operations), the GPU completing dispatches in random order,
// checked step by step against a simple model of what is live.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

namespace clr_prop {

// One step, decoded from 4 random bytes so RapidCheck can shrink it byte by byte:
// launch, the GPU completes a dispatch, the command layer reclaims a completed one,
// an event takes a dispatch's signal, an event lets go.
using RawOp = std::array<uint8_t, 4>;

struct RingShape {
  uint16_t capacity;    // bytes, before the ring rounds down to 16
  uint8_t base_offset;  // the buffer's misalignment from 4 KiB, in 16-byte steps
};

// Runs the sequence; fails through RC_ASSERT naming the first broken rule.
void check_sequence(RingShape shape, const std::vector<RawOp>& ops);

}  // namespace clr_prop
