// hip/hip_mutant.cpp - the ROCREF_HIP_MUTANT switch of the test-only mutable HIP library (see hip_mutant.h).
#include "hip/hip_mutant.h"

#ifdef ROCREF_HIP_MUTANTS
#include <cstdlib>
#include <string_view>

#include "common/mutant_switch.h"

namespace rocref::hip {
namespace {

constexpr const char* kNames[] = {"IgnoreLaunchBounds",
                                  "GraphReversedOrder",
                                  "PitchIgnored",
                                  "SymbolRangeUnchecked",
                                  "TextureAlignmentUnchecked",
                                  "LaunchListStreamUnchecked",
                                  "CaptureIgnored",
                                  "EnablePeerAccessSkipsMapping",
                                  "MallocIgnoresCurrentDevice",
                                  "CrossDeviceCopyFirstChunkOnly",
                                  "PeerAccessReenabled",
                                  "SymbolSeparateCopy",
                                  "CurrentDeviceCacheUnkeyed",
                                  "MadeGpuIgnoresCapture",
                                  "LaunchTargetUnversioned",
                                  "CapturedEventForgetsLeaves",
                                  "ArchFlagsAsCuda",
                                  "SyncAllSkipsStreams",
                                  "PrintfWidthDropped",
                                  "RtcLoweredNameUnmangled",
                                  "TextureWrapClamps",
                                  "HostRegisterNotPinned"};
static_assert(sizeof kNames / sizeof kNames[0] == static_cast<size_t>(HipMutant::kCount));

// The one mutant ROCREF_HIP_MUTANT names is on for the whole process.
const MutantSwitchboard<HipMutant>& switches() {
  static MutantSwitchboard<HipMutant> board;
  static const bool read = [] {
    const char* name = std::getenv("ROCREF_HIP_MUTANT");
    if (name == nullptr) return false;
    const auto m = mutant_named<HipMutant>(kNames, name);
    if (m) board.set(*m, true);
    return m.has_value();
  }();
  (void)read;
  return board;
}

}  // namespace

bool hip_mutant_active(HipMutant m) noexcept { return switches().active(m); }

}  // namespace rocref::hip
#endif
