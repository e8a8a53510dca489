// proofs/common/verdict.h - the outcome of one proof run, shared by every harness and `rocref verify`.
#pragma once

#include <cstdint>
#include <string>

namespace rocref::proofs {

enum class Outcome {
  Proved,          // holds at every depth (inductive invariant, or a closed axiomatic check)
  Bounded,         // no violation up to `depth` steps
  Counterexample,  // Z3 found an execution that breaks the property
  Unknown,         // the solver gave up (timeout)
};

struct Verdict {
  Outcome outcome = Outcome::Unknown;
  uint32_t depth = 0;       // for Bounded: the depth reached; for Counterexample: its length
  std::string clause;       // the clause broken (Counterexample) or checked
  std::string trace;        // readable counterexample, empty otherwise
  std::string note;         // e.g. why an induction step failed
  double seconds = 0;
};

inline std::string outcome_text(const Verdict& v) {
  switch (v.outcome) {
    case Outcome::Proved: return v.depth ? "PROVED (BMC clean to depth " + std::to_string(v.depth) + ")" : "PROVED";
    case Outcome::Bounded: return "BOUNDED to depth " + std::to_string(v.depth);
    case Outcome::Counterexample:
      return "COUNTEREXAMPLE (" + v.clause + (v.depth ? ", " + std::to_string(v.depth) + " steps)" : ", execution)");
    case Outcome::Unknown: return "UNKNOWN";
  }
  return "?";
}

}  // namespace rocref::proofs
