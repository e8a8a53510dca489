// hip/hip_mutant.cpp - the ROCREF_HIP_MUTANT switch of the test-only mutable HIP library (see hip_mutant.h).
#include "hip/hip_mutant.h"

#ifdef ROCREF_HIP_MUTANTS
#include <cstdlib>
#include <cstring>

namespace rocref::hip {
namespace {

constexpr const char* kNames[] = {"IgnoreLaunchBounds", "GraphReversedOrder", "PitchIgnored", "SymbolRangeUnchecked",
                                   "TextureAlignmentUnchecked", "LaunchListStreamUnchecked",
                                   "CaptureIgnored"};
static_assert(sizeof kNames / sizeof kNames[0] == static_cast<size_t>(HipMutant::kCount));

int active_index() {
  const char* name = std::getenv("ROCREF_HIP_MUTANT");
  if (name == nullptr) return -1;
  for (int i = 0; i < static_cast<int>(HipMutant::kCount); ++i) {
    if (std::strcmp(name, kNames[i]) == 0) return i;
  }
  return -1;
}

}  // namespace

bool hip_mutant_active(HipMutant m) noexcept {
  static const int active = active_index();
  return active == static_cast<int>(m);
}

}  // namespace rocref::hip
#endif
