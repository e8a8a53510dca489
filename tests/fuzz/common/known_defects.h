// tests/fuzz/common/known_defects.h - whether a harness steers around the defects listed in
// tests/fuzz/README.md ("Known defects").
//
// Those defects have open fixes; until they land, a harness that reaches them crashes within
// seconds and explores nothing else. By default the harnesses avoid the inputs that reach them
// (each harness says how, next to the place it does so). ROCREF_FUZZ_KNOWN=1 turns the
// avoidance off: that is how tests/fuzz/known/ reproduces them, and how to check a fix.
#pragma once

#include <cstdlib>
#include <cstring>

namespace rocref::fuzz {

inline bool avoid_known_defects() {
  static const bool avoid = [] {
    const char* v = std::getenv("ROCREF_FUZZ_KNOWN");
    return v == nullptr || std::strcmp(v, "1") != 0;
  }();
  return avoid;
}

}  // namespace rocref::fuzz
