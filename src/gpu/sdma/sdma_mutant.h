// gpu/sdma/sdma_mutant.h - planted SDMA bugs the unit tests must catch (test-only library).
//
// Compiled in only with ROCREF_SDMA_MUTANTS (rocref_sdma_mutable); elsewhere
// active() is a constant false and the branches vanish.
#pragma once

namespace rocref::gpu::sdma {

enum class SdmaMutant : unsigned {
  FixedLengthWriteLinear,  // SDMA-PKT-1: WRITE_LINEAR parsed as 5 dwords whatever its count (rocjitsu #9488)
  CopyCountIsBytes,        // SDMA-COPY-1: COPY_LINEAR count taken as bytes, not bytes - 1
  PollNeverWaits,          // SDMA-POLL-1: POLL_REGMEM treated as satisfied at once
  WritePastPacket,         // SDMA-WRITE-1: one dword more written than the packet holds (tests/fuzz/sdma finds it)
  PacketReadTwice,         // SDMA-PKT-4: the header is read again after the length was taken from it
  LateTrapDroppedAtIdle,   // SDMA-ADV-2: an interrupt held back by the adversary is lost when the engine idles
  kCount
};

#ifdef ROCREF_SDMA_MUTANTS
bool sdma_mutant_active(SdmaMutant m) noexcept;
void set_sdma_mutant(SdmaMutant m, bool on) noexcept;
// Test seam: called by step() right after it read a packet's header, so a test can play a
// producer that rewrites the ring slot at the worst moment (SDMA-PKT-4), deterministically.
void set_sdma_header_read_hook(void (*hook)(void* ctx), void* ctx) noexcept;
void sdma_header_read_hook() noexcept;
#else
constexpr bool sdma_mutant_active(SdmaMutant) noexcept { return false; }
constexpr void sdma_header_read_hook() noexcept {}
#endif

}  // namespace rocref::gpu::sdma
