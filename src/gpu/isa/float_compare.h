// gpu/isa/float_compare.h - the sixteen VOPC float compare kinds (f, lt, eq, ..., tru), one
// body for the f16, f32 and f64 compares: only the operand type differs.
#pragma once

#include <cmath>

namespace rocref::gpu::isa {

template <typename T>
bool fcompare(unsigned kind, T a, T b) {  // f, lt, eq, le, gt, lg, ge, o, u, nge, nlg, ngt, nle, neq, nlt, tru
  const bool unordered = std::isnan(a) || std::isnan(b);
  switch (kind) {
    case 0: return false;
    case 1: return a < b;
    case 2: return a == b;
    case 3: return a <= b;
    case 4: return a > b;
    case 5: return a < b || a > b;
    case 6: return a >= b;
    case 7: return !unordered;
    case 8: return unordered;
    case 9: return !(a >= b);
    case 10: return !(a < b || a > b);
    case 11: return !(a > b);
    case 12: return !(a <= b);
    case 13: return !(a == b);
    case 14: return !(a < b);
    default: return true;
  }
}

}  // namespace rocref::gpu::isa
