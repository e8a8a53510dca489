// hip/hip_mutant.h - planted bugs in the HIP runtime that the conformance suite must catch.
//
// Compiled in only for the test-only rocref_hip_mutable library
// (ROCREF_HIP_MUTANTS), where the environment variable ROCREF_HIP_MUTANT
// names the one that is on; elsewhere hip_mutant_active() is a constant false.
#pragma once

#include <cstdint>

namespace rocref::hip {

enum class HipMutant : uint32_t {
  IgnoreLaunchBounds,             // HIP-LNC-5: a launch above __launch_bounds__ goes ahead
  GraphReversedOrder,             // HIP-GRAPH-1: an executable graph runs its nodes in reverse topological order
  PitchIgnored,                   // HIP-MEM-10: 2D/3D copies treat rows as contiguous
  SymbolRangeUnchecked,           // HIP-SYM-1: a symbol copy may run past the variable's end
  TextureAlignmentUnchecked,      // HIP-TEX-1: a linear texture may start off the texture alignment
  LaunchListStreamUnchecked,      // HIP-LNC-9: a launch list entry without a stream goes to the null stream
  CaptureIgnored,                 // HIP-GRAPH-3: a capturing stream runs its work instead of recording it
  EnablePeerAccessSkipsMapping,   // HIP-PEER-2: enabling peer access maps none of the peer's memory
  MallocIgnoresCurrentDevice,     // HIP-DEV-8: hipMalloc allocates from device 0 whichever device is current
  CrossDeviceCopyFirstChunkOnly,  // HIP-PEER-3: a copy between devices through system memory moves its first chunk only
  PeerAccessReenabled,  // HIP-PEER-2: enabling peer access twice succeeds (no hipErrorPeerAccessAlreadyEnabled)
  SymbolSeparateCopy,   // HIP-SYM-1: a hipcc __device__ variable gets a device copy, not the variable in the
                        // loaded image
  // Per-thread launch fast paths (hip_state.cpp, hip_launch.cpp):
  CurrentDeviceCacheUnkeyed,   // HIP-DEV-8: the cached current device and null stream are used after hipSetDevice
  MadeGpuIgnoresCapture,       // HIP-GRAPH-3: a stream's published virtual GPU is used while it captures
  LaunchTargetUnversioned,     // HIP-LNC-5: the cached launch target outlives hipFuncSetAttribute's new limits
  CapturedEventForgetsLeaves,  // HIP-GRAPH-4: an event recorded in a capture keeps no leaves, so a fork depends on
                               // nothing
  ArchFlagsAsCuda,             // HIP-DEV-9: hasFunnelShift set though gfx9 has none, and AsyncEngineCount answered
  SyncAllSkipsStreams,         // HIP-STR-10: hipFree and hipDeviceSynchronize wait for the null streams only
  PrintfWidthDropped,          // HIP-PRINTF-2: device printf drops flags, width and precision ("%08.3f" as "%f")
  RtcLoweredNameUnmangled,     // HIP-RTC-3: hiprtcGetLoweredName gives the name expression back, not the symbol
  TextureWrapClamps,           // HIP-TEX-4: a texture's wrap addressing goes into its S# as clamp-to-edge
  HostRegisterNotPinned,       // HIP-MEM-16: hipHostRegister records the range without locking it for the GPUs
  kCount
};

#ifdef ROCREF_HIP_MUTANTS
bool hip_mutant_active(HipMutant m) noexcept;
#else
constexpr bool hip_mutant_active(HipMutant) noexcept { return false; }
#endif

}  // namespace rocref::hip
