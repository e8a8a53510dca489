// tests/unit/hsa/planted.h - a check run with one of the HSA runtime's planted bugs on
// (hsa/hsa_mutant.h, test-only library rocref_hsa_mutable).
#pragma once

#include "hsa/hsa_mutant.h"

namespace hsa_conformance {

// check() with `bug` planted; the bug is gone again before the caller's expectations.
template <typename Check>
bool with_planted(rocref::hsa::HsaMutant bug, Check check) {
  rocref::hsa::ScopedHsaMutant planted(bug);
  return check();
}

}  // namespace hsa_conformance
