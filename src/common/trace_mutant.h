// common/trace_mutant.h - planted bugs in the run report's accounting (test-only rocref_common_mutable).
//
// Compiled in only with ROCREF_ENABLE_MUTANTS; elsewhere trace_mutant_active() is a constant
// false and the branches vanish.
#pragma once

#include "common/mutant_switch.h"

namespace rocref::trace {

enum class TraceMutant : unsigned {
  CheckCountedOnce,       // TRACE-CHK-1: a runtime check site counts its first pass only
  LayerTimeCountsNested,  // TRACE-RUN-2: a layer's time adds spans nested in its own spans again
  kCount
};

#ifdef ROCREF_ENABLE_MUTANTS
bool trace_mutant_active(TraceMutant m) noexcept;
void set_trace_mutant(TraceMutant m, bool on) noexcept;
using ScopedTraceMutant = ScopedMutantSwitch<TraceMutant, set_trace_mutant>;
#else
constexpr bool trace_mutant_active(TraceMutant) noexcept { return false; }
#endif

}  // namespace rocref::trace
